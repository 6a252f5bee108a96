package io.xmlingest.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.bench.strategy.Strategies;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportTest {

    @TempDir
    Path dir;

    private static Measurement ok(String strategy, long size, long... nanos) {
        long[] alloc = new long[nanos.length];
        java.util.Arrays.fill(alloc, size * 1000);
        return new Measurement(strategy, size, size * 400, Measurement.Status.OK, null, "2g", size, nanos, alloc,
                64L << 20, 8L << 20, 200L << 20, strategy.startsWith("ours-end")
                        ? Map.of("identify", 0.1, "scan", 0.2, "bind", 0.5, "serialize", 0.1, "publish", 0.1) : Map.of(),
                null);
    }

    private static Bench.Results results() {
        List<Strategies.Entry> strategies = List.of(Strategies.get("woodstox-scan"), Strategies.get("spring-batch"),
                Strategies.get("jaxb-whole-document"), Strategies.get("ours-end-to-end"));
        Bench.Plan plan = new Bench.Plan(List.of(1000L), strategies, 1, 3, "2g", Path.of("d"), Path.of("w"), true);
        return new Bench.Results(plan, List.of(
                ok("woodstox-scan", 1000, 100_000_000, 110_000_000, 90_000_000),
                ok("spring-batch", 1000, 400_000_000, 500_000_000, 450_000_000),
                Measurement.failed("jaxb-whole-document", 1000, 400_000, Measurement.Status.OUT_OF_MEMORY,
                        "out of memory at -Xmx2g", "2g"),
                ok("ours-end-to-end", 1000, 200_000_000, 250_000_000, 300_000_000)),
                List.of(new HeapSearch(1000, 300, 280, 9)), "2026-11-22T00:00:00Z", 12,
                "2 cores, test machine");
    }

    @Test
    void medianMinMaxAndRates() {
        Measurement m = ok("spring-batch", 1000, 400_000_000, 500_000_000, 450_000_000);
        assertThat(m.medianNanos()).isEqualTo(450_000_000);
        assertThat(m.minNanos()).isEqualTo(400_000_000);
        assertThat(m.maxNanos()).isEqualTo(500_000_000);
        assertThat(m.recordsPerSecond()).isCloseTo(1000 / 0.45, org.assertj.core.data.Offset.offset(0.01));
        assertThat(m.allocatedPerRecord()).isEqualTo(1000);
        assertThat(Measurement.median(new long[] {4, 1, 3, 2})).isEqualTo(2);
    }

    @Test
    void aFailedStrategyIsReportedNotDropped() {
        String report = Report.full(results());
        assertThat(report).contains("| jaxb-whole-document | out of memory: out of memory at -Xmx2g |");
        assertThat(report).contains("| spring-batch | 0.450 | 0.400 | 0.500 | 2,222 |");
        assertThat(report).contains("| ours-end-to-end | 0.100 | 0.200 | 0.500 | 0.100 | 0.100 |");
        assertThat(report).contains("| 1,000 | 300 MB | 280 MB | 9 |");
        assertThat(report).contains("![throughput](throughput.png)").contains("![phases](phases.png)");
    }

    @Test
    void ratiosAreMeasuredInTheSameRun() {
        Bench.Results r = results();
        assertThat(Report.ratio(r, "ours-end-to-end", "spring-batch", 1000)).hasValueSatisfying(
                x -> assertThat(x).isCloseTo(0.45 / 0.25, org.assertj.core.data.Offset.offset(1e-9)));
        assertThat(Report.ratio(r, "ours-end-to-end", "jaxb-whole-document", 1000)).isEmpty();
        assertThat(Report.full(r)).contains("| ours-end-to-end | spring-batch | 1.80 |")
                .contains("| ours-end-to-end | jaxb-whole-document | - |");
    }

    @Test
    void theReadmeSectionCarriesDateMachineAndHeadlines() throws Exception {
        String section = Report.readmeSection(results(), "bench/report/report.md");
        assertThat(section).contains("2026-11-22").contains("2 cores, test machine")
                .contains("end to end into Kafka vs Spring Batch reading only: **1.80x**")
                .contains("end to end vs the Woodstox scan ceiling: **0.40x**")
                .contains("whole-document JAXB needs at least -Xmx300m");
        Path readme = Files.writeString(dir.resolve("README.md"), "top\n<!-- bench:start -->\nold\n<!-- bench:end -->\nend\n");
        BenchCommand.updateReadme(readme, section);
        assertThat(Files.readString(readme)).startsWith("top\n<!-- bench:start -->\n" + section + "<!-- bench:end -->\nend")
                .doesNotContain("old");
        Path unmarked = Files.writeString(dir.resolve("other.md"), "no markers");
        assertThatThrownBy(() -> BenchCommand.updateReadme(unmarked, section)).hasMessageContaining("markers");
    }

    @Test
    void resultsSurviveAJsonRoundTrip() throws Exception {
        Bench.Results r = results();
        Path file = dir.resolve("results.json");
        ResultsJson.write(r, file);
        Bench.Results back = ResultsJson.read(file);
        assertThat(Report.full(back)).isEqualTo(Report.full(r));
        assertThat(back.measurements().get(0).nanos()).containsExactly(100_000_000, 110_000_000, 90_000_000);
        assertThat(back.heapSearches()).isEqualTo(r.heapSearches());
    }

    @Test
    void anOutOfMemoryFailureSaysWhichMemoryRanOut() {
        assertThat(ForkedJvm.outOfWhat("Terminating due to java.lang.OutOfMemoryError: Java heap space\n"))
                .isEqualTo(" (Java heap space)");
        assertThat(ForkedJvm.outOfWhat("x\njava.lang.OutOfMemoryError: Metaspace\r\n")).isEqualTo(" (Metaspace)");
        assertThat(ForkedJvm.outOfWhat("no such thing")).isEmpty();
    }

    @Test
    void heapSearchBisectsToWithinFivePercent() throws Exception {
        HeapSearch h = HeapSearch.run(1000, 2048, mb -> mb >= 300);
        assertThat(h.smallestOk()).isBetween(300, 315);
        assertThat(h.largestFailed()).isLessThan(300);
        assertThat(HeapSearch.run(1000, 2048, mb -> false).smallestOk()).isEqualTo(-1);
        assertThat(HeapSearch.run(1000, 2048, mb -> true).smallestOk()).isEqualTo(8);
    }
}
