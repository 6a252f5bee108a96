package io.xmlingest.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The restart report's verdict: in time at every kill position, not growing with it, every record once. */
class RestartReportTest {

    private static final long RECORDS = 1_000_000;

    /** Two rounds at 20, 50 and 90%, the given seconds per position in each round, round 2's read-back as given. */
    private static Restarts.Results results(double[] at20, double[] at50, double[] at90, Restarts.Round round2) {
        List<Restarts.Restart> restarts = new ArrayList<>();
        for (int round = 1; round <= 2; round++) {
            restarts.add(new Restarts.Restart(round, 20, 201_000, at20[round - 1], 1.05));
            restarts.add(new Restarts.Restart(round, 50, 503_001, at50[round - 1], null));
            restarts.add(new Restarts.Restart(round, 90, 905_002, at90[round - 1], 1.10));
        }
        return new Restarts.Results("2026-11-28T17:00:00Z", "2 cores", "java -Xmx256m -jar ingest-app.jar", RECORDS,
                List.of(20, 50, 90), 2, "1.00, 1.00, 1.00", "2.00, 1.50, 1.20", restarts,
                round2 == null ? List.of(clean(1)) : List.of(clean(1), round2));
    }

    private static Restarts.Round clean(int round) {
        return new Restarts.Round(round, RECORDS, RECORDS, List.of());
    }

    @Test
    void inTimeEverywhereAndNotGrowingMeetsTheTarget() {
        Restarts.Results r = results(new double[] {1.2, 1.4}, new double[] {1.3, 1.5}, new double[] {1.25, 1.45}, clean(2));

        assertThat(RestartReport.verdict(r)).endsWith("medians **1.30, 1.40, 1.35 s** at 20%, 50%, 90%, target met");
        assertThat(RestartReport.everyRecordOnce(r)).isTrue();
        String report = RestartReport.full(r);
        assertThat(report).contains("| 1 | 20% | 201,000 | 1.20 | 1.05 |", "| 2 | 50% | 503,001 | 1.50 | none written |",
                "| 90% | 1.35 | 1.25 | 1.45 |",
                "- round 2 read back: 1,000,000 messages, 1,000,000 distinct record indexes of 1,000,000 "
                        + "(read_committed), every record exactly once");
    }

    @Test
    void aPositionOverTwoSecondsMissesIt() {
        Restarts.Results r = results(new double[] {1.9, 1.9}, new double[] {1.9, 1.9}, new double[] {2.05, 2.2}, clean(2));

        assertThat(RestartReport.verdict(r)).endsWith("target missed (over 2 s at 90%)");
    }

    @Test
    void aRestartThatGrowsWithThePositionMissesItEvenInTime() {
        Restarts.Results r = results(new double[] {1.0, 1.0}, new double[] {1.2, 1.2}, new double[] {1.5, 1.5}, clean(2));

        assertThat(RestartReport.verdict(r)).endsWith("target missed (1.50x as long at 90% as at 20% (at most 1.25x))");
    }

    @Test
    void aRecordTwiceMissesItWhateverTheTimes() {
        Restarts.Round doubled = new Restarts.Round(2, RECORDS + 1, RECORDS,
                List.of("1000001 messages, expected 1000000", "1 messages repeat an index (the first is 17)"));
        Restarts.Results r = results(new double[] {1.0, 1.0}, new double[] {1.0, 1.0}, new double[] {1.0, 1.0},
                doubled);

        assertThat(RestartReport.everyRecordOnce(r)).isFalse();
        assertThat(RestartReport.verdict(r)).endsWith("target missed (not every record was read back exactly once)");
        assertThat(RestartReport.full(r)).contains("1,000,001 messages, 1,000,000 distinct record indexes of 1,000,000 "
                + "(read_committed), **not every record exactly once: 1000001 messages, expected 1000000; 1 messages "
                + "repeat an index (the first is 17)**");
    }

    @Test
    void aRoundNotReadBackMissesIt() {
        Restarts.Results r = results(new double[] {1.0, 1.0}, new double[] {1.0, 1.0}, new double[] {1.0, 1.0}, null);

        assertThat(RestartReport.everyRecordOnce(r)).isFalse();
        assertThat(RestartReport.verdict(r)).endsWith("target missed (not every record was read back exactly once)");
    }

    @Test
    void theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        assertThat(RestartReport.median(List.of(3.0, 1.0, 2.0, 10.0))).isEqualTo(2.5);
        assertThat(RestartReport.median(List.of(3.0, 1.0, 2.0))).isEqualTo(2.0);
    }
}
