package io.xmlingest.bench;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Issue 6's speed targets, as ratios of two strategies' records/s measured in the same bench run:
 * the exactly-once worker path against the single-thread baseline it must beat, and against the
 * peer. The targets are set for the 1,000,000-record file; other sizes are shown for the trend.
 */
final class Issue6Targets {

    /** {@code ours} must reach at least {@code atLeast} times the records/s of {@code other}. */
    record Target(String ours, String other, double atLeast, String label) {

        Optional<Double> ratio(Bench.Results r, long size) {
            return Report.ratio(r, ours, other, size);
        }

        String line(double ratio) {
            return String.format(Locale.ROOT, "%s (issue 6, target at least %sx): **%.2fx**, %s", label,
                    trim(atLeast), ratio, ratio >= atLeast ? "target met" : "target missed");
        }
    }

    static final List<Target> ALL = List.of(
            new Target("ours-exactly-once", "woodstox-jaxb-json", 1.2,
                    "exactly-once worker path into Kafka vs Woodstox + JAXB + JSON on one thread, no Kafka"),
            new Target("ours-exactly-once", "spring-batch", 2.0,
                    "exactly-once worker path into Kafka vs Spring Batch reading only"));

    private Issue6Targets() {
    }

    /** The report's section: every target at every size where both strategies have figures; empty if none has. */
    static String section(Bench.Results r) {
        StringBuilder s = new StringBuilder();
        for (long size : r.plan().sizes()) {
            for (Target t : ALL) {
                t.ratio(r, size).ifPresent(x -> s.append(String.format(Locale.ROOT, "- %,d records: ", size))
                        .append(t.line(x)).append('\n'));
            }
        }
        if (s.length() == 0) {
            return "";
        }
        return "\n## Issue 6 targets\n\nSet for the 1,000,000-record file; records/s of the first strategy divided by "
                + "records/s of the second, both measured in this run.\n\n" + s;
    }

    /** The README's lines: every target at the given size where both strategies have figures. */
    static String lines(Bench.Results r, long size) {
        StringBuilder s = new StringBuilder();
        for (Target t : ALL) {
            t.ratio(r, size).ifPresent(x -> s.append("- ").append(t.line(x)).append('\n'));
        }
        return s.toString();
    }

    private static String trim(double x) {
        return x == Math.rint(x) ? Long.toString((long) x) : Double.toString(x);
    }
}
