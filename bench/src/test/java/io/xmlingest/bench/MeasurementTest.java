package io.xmlingest.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.bench.strategy.Strategies;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MeasurementTest {

    @TempDir
    Path dir;

    private static Measurement round(long peakHeap, long records, double bind, long... nanos) {
        return new Measurement("ours-exactly-once", 1000, 400_000, Measurement.Status.OK, null, "2g", records, nanos,
                new long[] {nanos.length * 10L}, peakHeap, peakHeap / 2, peakHeap * 2, Map.of("bind", bind), "checked");
    }

    /** A strategy's rounds count as one run list: the median is over every counted run of every round. */
    @Test
    void roundsMergeIntoOneMeasurementOfEveryRun() {
        Measurement m = Measurement.merged(List.of(round(10, 1000, 0.1, 100, 110), round(30, 1000, 0.2, 300, 310),
                round(20, 1000, 0.3, 200, 210)));
        assertThat(m.nanos()).containsExactly(100, 110, 300, 310, 200, 210);
        assertThat(m.medianNanos()).isEqualTo(205);
        assertThat(m.allocated()).hasSize(3);
        assertThat(m.peakHeapUsed()).isEqualTo(30);
        assertThat(m.peakLiveHeap()).isEqualTo(15);
        assertThat(m.maxRss()).isEqualTo(60);
        // The phases shown beside the median are those of the round whose median is nearest it (205: the third).
        assertThat(m.phases()).containsEntry("bind", 0.3);
        assertThat(m.ok()).isTrue();
    }

    @Test
    void aRoundThatFailedStandsForAll() {
        Measurement failed = Measurement.failed("ours-exactly-once", 1000, 400_000, Measurement.Status.FAILED, "exit 1",
                "2g");
        assertThat(Measurement.merged(List.of(round(10, 1000, 0.1, 100), failed, round(10, 1000, 0.1, 100))))
                .isSameAs(failed);
        assertThatThrownBy(() -> Measurement.merged(List.of(round(10, 1000, 0.1, 100), round(10, 999, 0.1, 100))))
                .hasMessageContaining("1000 records in one round and 999 in another");
    }

    /** The report says the runs were taken in turns, and the README block counts every run of every round. */
    @Test
    void theReportsTellTheRounds() throws Exception {
        Bench.Plan plan = new Bench.Plan(List.of(1000L), List.of(Strategies.get("ours-exactly-once")), 1, 2, 3, "2g",
                Path.of("d"), Path.of("w"), false, false);
        Bench.Results r = new Bench.Results(plan, List.of(Measurement.merged(List.of(round(10, 1000, 0.1, 100, 110),
                round(10, 1000, 0.1, 120, 130), round(10, 1000, 0.1, 140, 150)))), List.of(), "2026-11-28T00:00:00Z", 9,
                "2 cores, test machine");
        assertThat(Report.full(r)).contains("2 counted runs, in each of 3 rounds in which the strategies took turns "
                + "(each forked again every round), 6 counted runs in all");
        assertThat(Report.readmeSection(r, "report.md")).contains("median of 6 counted runs over 3 rounds in which the "
                + "strategies took turns");
        Path json = dir.resolve("results.json");
        ResultsJson.write(r, json);
        Bench.Results back = ResultsJson.read(json);
        assertThat(back.plan().rounds()).isEqualTo(3);
        assertThat(back.measurements().get(0).nanos()).hasSize(6);
    }
}
