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
        Bench.Plan plan = new Bench.Plan(List.of(1000L), strategies, 1, 3, 1, "2g", Path.of("d"), Path.of("w"), true, false);
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

    /** A raw read of the smoke test's file takes well under a millisecond: it printed 0.000, and failed the smoke test. */
    @Test
    void runsUnderAMillisecondKeepTheirFigure() {
        assertThat(Report.seconds(42_000)).isEqualTo("0.000042");
        assertThat(Report.seconds(1_234_567)).isEqualTo("0.001");
        assertThat(Report.seconds(450_000_000)).isEqualTo("0.450");
        Bench.Plan plan = new Bench.Plan(List.of(1000L), List.of(Strategies.get("raw-read")), 1, 3, 1, "2g", Path.of("d"),
                Path.of("w"), true, false);
        Bench.Results raw = new Bench.Results(plan, List.of(ok("raw-read", 1000, 40_000, 50_000, 45_000)), List.of(),
                "2026-11-22T00:00:00Z", 12, "2 cores, test machine");
        assertThat(Report.full(raw)).contains("| raw-read | 0.000045 | 0.000040 | 0.000050 | ");
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
        BenchCommand.updateReadme(readme, BenchCommand.SPEED_MARKER, section);
        assertThat(Files.readString(readme)).startsWith("top\n<!-- bench:start -->\n" + section + "<!-- bench:end -->\nend")
                .doesNotContain("old");
        Path unmarked = Files.writeString(dir.resolve("other.md"), "no markers");
        assertThatThrownBy(() -> BenchCommand.updateReadme(unmarked, BenchCommand.SPEED_MARKER, section)).hasMessageContaining("markers");
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

    private static Measurement withHeap(String strategy, long size, long seconds, long peakMb, long liveMb, String verified) {
        return new Measurement(strategy, size, size * 413, Measurement.Status.OK, null, "64m", size,
                new long[] {seconds * 1_000_000_000L}, new long[] {size * 1000}, peakMb << 20, liveMb << 20, 150L << 20,
                Map.of(), verified);
    }

    private static Bench.Results issue6(long oursNanos) {
        List<Strategies.Entry> strategies = List.of(Strategies.get("woodstox-jaxb-json"), Strategies.get("spring-batch"),
                Strategies.get("ours-exactly-once"));
        Bench.Plan plan = new Bench.Plan(List.of(1_000_000L), strategies, 1, 1, 1, "2g", null, null, false, false);
        return new Bench.Results(plan, List.of(
                ok("woodstox-jaxb-json", 1_000_000, 10_000_000_000L),
                ok("spring-batch", 1_000_000, 16_000_000_000L),
                new Measurement("ours-exactly-once", 1_000_000, 1_000_000 * 413, Measurement.Status.OK, null, "2g",
                        1_000_000, new long[] {oursNanos}, new long[] {1}, 1, 1, 1, Map.of(),
                        "1,000,000 messages with 1,000,000 distinct record indexes, 1 completed event")),
                List.of(), "2026-11-23T00:00:00Z", 60, "2 cores, test machine");
    }

    @Test
    void issue6TargetsSayWhetherTheyAreMet() {
        // 8 s against 10 s and 16 s: 1.25x the baseline (met) and 2x Spring Batch (met, exactly on the target).
        Bench.Results fast = issue6(8_000_000_000L);
        assertThat(Report.full(fast)).contains("## Issue 6 targets")
                .contains("- 1,000,000 records: exactly-once worker path into Kafka vs Woodstox + JAXB + JSON on one "
                        + "thread, no Kafka (issue 6, target at least 1.2x): **1.25x**, target met")
                .contains("vs Spring Batch reading only (issue 6, target at least 2x): **2.00x**, target met")
                .contains("ours-exactly-once: every run, warm-ups included, was checked afterwards with a read_committed "
                        + "consumer; the last check found 1,000,000 messages with 1,000,000 distinct record indexes");
        assertThat(Report.readmeSection(fast, "r.md"))
                .contains("- exactly-once worker path into Kafka vs Spring Batch reading only (issue 6, target at least "
                        + "2x): **2.00x**, target met");
        // 10 s: 1.00x and 1.60x, both missed.
        assertThat(Report.readmeSection(issue6(10_000_000_000L), "r.md"))
                .contains("(issue 6, target at least 1.2x): **1.00x**, target missed")
                .contains("(issue 6, target at least 2x): **1.60x**, target missed");
        // Without the exactly-once figures, there is no target to judge.
        Bench.Results none = new Bench.Results(fast.plan(), fast.measurements().subList(0, 2), List.of(),
                fast.startedAt(), 1, fast.machine());
        assertThat(Report.full(none)).doesNotContain("Issue 6");
    }

    private static Bench.Results scaling(Measurement... rows) {
        Bench.Plan plan = new Bench.Plan(List.of(100_000L, 1_000_000L, 10_000_000L),
                List.of(Strategies.get("ours-exactly-once")), 0, 1, 1, "64m", null, null, false, true);
        return new Bench.Results(plan, List.of(rows), List.of(), "2026-11-23T00:00:00Z", 60, "2 cores, test machine");
    }

    @Test
    void heapScalingReportsPeakHeapPerSizeAndWhetherItGrows() throws Exception {
        Bench.Results flat = scaling(withHeap("ours-exactly-once", 100_000, 3, 60, 30, null),
                withHeap("ours-exactly-once", 1_000_000, 25, 61, 31, null),
                withHeap("ours-exactly-once", 10_000_000, 250, 62, 33, null));
        String report = Report.full(flat);
        assertThat(report).contains("## Peak heap by file size (-Xmx64m)")
                .contains("| ours-exactly-once | 100,000 | 41 | completed | 3.0 | 33,333 | 60 | - | 0 | 30 | 150 |")
                .contains("| ours-exactly-once | 10,000,000 | 4130 | completed | 250.0 | 40,000 | 62 | - | 0 | 33 | 150 |")
                .contains("ours-exactly-once completed every size within -Xmx64m; at 10,000,000 records vs 100,000: "
                        + "peak heap **1.03x**, live heap **1.10x**: target met")
                .contains("No live heap was read at fixed points in these runs").doesNotContain("evenly spaced points");
        assertThat(HeapScaling.readmeSection(flat, "r.md")).contains("2026-11-23").contains("2 cores, test machine")
                .contains("| ours-exactly-once | 1,000,000 | 413 | completed |").doesNotContain("## ");

        Bench.Results growing = scaling(withHeap("ours-exactly-once", 100_000, 3, 40, 20, null),
                withHeap("ours-exactly-once", 1_000_000, 25, 63, 45, null),
                Measurement.failed("ours-exactly-once", 10_000_000, 4_130_000_000L, Measurement.Status.OUT_OF_MEMORY,
                        "out of memory at -Xmx64m (Java heap space)", "64m"));
        assertThat(Report.full(growing))
                .contains("| ours-exactly-once | 10,000,000 | 4130 | out of memory at -Xmx64m (Java heap space) |")
                .contains("ours-exactly-once: failed at 10,000,000 records (out of memory at -Xmx64m (Java heap space)) "
                        + "within -Xmx64m: target missed");
        assertThat(Report.full(results())).doesNotContain("Peak heap by file size");

        Path file = dir.resolve("scaling.json");
        ResultsJson.write(flat, file);
        assertThat(Report.full(ResultsJson.read(file))).isEqualTo(report);
    }

    private static Measurement sampled(long size, long liveAnyMb, long liveAtPointsMb, int points) {
        Measurement m = withHeap("ours-exactly-once", size, size / 100_000, 63, liveAnyMb, null);
        return new Measurement(m.strategy(), m.size(), m.fileBytes(), m.status(), m.reason(), m.heap(), m.records(), m.nanos(),
                m.allocated(), m.peakHeapUsed(), m.peakLiveHeap(), m.maxRss(), m.phases(), m.verified(), liveAtPointsMb << 20,
                points);
    }

    /**
     * The live heap at fixed points is what is compared when every size has it: a short run whose only full
     * collection fell at start-up (8 MB) against long runs with hundreds (18 MB) is not growth with the file.
     */
    @Test
    void heapScalingComparesTheLiveHeapAtFixedPointsWhenSampled() throws Exception {
        Bench.Results r = scaling(sampled(100_000, 8, 18, 7), sampled(1_000_000, 17, 19, 10), sampled(10_000_000, 18, 20, 10));
        String report = Report.full(r);
        assertThat(report)
                .contains("| ours-exactly-once | 100,000 | 41 | completed | 1.0 | 100,000 | 63 | 18 | 7 | 8 | 150 |")
                .contains("| ours-exactly-once | 10,000,000 | 4130 | completed | 100.0 | 100,000 | 63 | 20 | 10 | 18 | 150 |")
                .contains("at 10,000,000 records vs 100,000: peak heap **1.00x**, live heap at points **1.11x**: target met");
        // Growth between the points is still caught, whatever any full GC found.
        Bench.Results growing = scaling(sampled(100_000, 18, 10, 7), sampled(1_000_000, 18, 14, 10),
                sampled(10_000_000, 18, 13, 10));
        assertThat(Report.full(growing)).contains("live heap at points **1.30x**: target missed");
        // Unsampled at one size: judged on any full GC, as results from before sampling were (18 / 8 MB).
        Bench.Results mixed = scaling(withHeap("ours-exactly-once", 100_000, 1, 63, 8, null), sampled(1_000_000, 17, 19, 10),
                sampled(10_000_000, 18, 20, 10));
        assertThat(Report.full(mixed)).contains("peak heap **1.00x**, live heap **2.25x**: target missed");

        Path file = dir.resolve("sampled.json");
        ResultsJson.write(r, file);
        Bench.Results back = ResultsJson.read(file);
        assertThat(back.measurements()).extracting(Measurement::liveSamples).containsExactly(7, 10, 10);
        assertThat(Report.full(back)).isEqualTo(report);
        assertThat(report).contains("One run per size, each in a JVM of its own")
                .contains("forced at the first commit past each of 10 evenly spaced points").doesNotContain("No live heap");

        Bench.Plan twice = new Bench.Plan(r.plan().sizes(), r.plan().strategies(), 0, 1, 2, "64m", null, null, false, true);
        assertThat(Report.full(new Bench.Results(twice, r.measurements(), List.of(), r.startedAt(), 60, r.machine())))
                .contains("One run per size in each of 2 rounds (heaps are the largest over the rounds, seconds their "
                        + "median, points their sum), each in a JVM of its own");
    }

    @Test
    void eachReadmeBlockIsReplacedAlone() throws Exception {
        Path readme = Files.writeString(dir.resolve("README.md"), "a\n<!-- bench:start -->\nspeed\n<!-- bench:end -->\n"
                + "b\n<!-- bench-heap-scaling:start -->\nheap\n<!-- bench-heap-scaling:end -->\nc\n");
        BenchCommand.updateReadme(readme, BenchCommand.HEAP_SCALING_MARKER, "new heap\n");
        assertThat(Files.readString(readme)).isEqualTo("a\n<!-- bench:start -->\nspeed\n<!-- bench:end -->\n"
                + "b\n<!-- bench-heap-scaling:start -->\nnew heap\n<!-- bench-heap-scaling:end -->\nc\n");
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
