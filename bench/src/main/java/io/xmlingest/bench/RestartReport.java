package io.xmlingest.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The report of a {@code --restarts} run, and its verdict on issue 6's resume target. */
final class RestartReport {

    /** Issue 6: the restarted worker publishes its first new record within this long of its launch. */
    static final double TARGET_SECONDS = 2.0;

    /**
     * How much longer the restart at the last kill position may take than at the first: the target's "does not
     * grow with the position" is judged on the ends. The same start-up varies by a few tenths between runs on a
     * shared machine, where re-reading the file up to a late kill would add seconds.
     */
    static final double GROWTH_TOLERANCE = 1.25;

    private RestartReport() {
    }

    static String full(Restarts.Results r) {
        return "# Restarts\n\n" + body(r);
    }

    static String readmeSection(Restarts.Results r, String reportLink) {
        return String.format(Locale.ROOT, "Measured by `java -jar bench/target/bench.jar --restarts ...` on %s; machine: "
                + "%s. Full report: [%s](%s).%n%n", r.startedAt().substring(0, 10), r.machine(), reportLink, reportLink)
                + body(r);
    }

    private static String body(Restarts.Results r) {
        String method = "The worker, started as `%s worker ...` in a process of its own, ingests the %,d-record "
                + "datagen file into the bench's broker and is killed (SIGKILL) once a read_committed consumer in the "
                + "bench has received the given share of the records; a new worker is launched once the consumer has "
                + "read what was committed. *Seconds* run from that launch until the consumer receives a record the new "
                + "worker committed (one past the log's end at the kill: a commit the killed worker asked for just before "
                + "it died can still complete, and is not taken for the new worker's); nothing asks the restarting "
                + "worker anything meanwhile. "
                + "*Worker's own* is its start-up line: from its JVM's launch to its first commit. %s, each ingesting the "
                + "file once with a kill at every position; load average %s before, %s after.%n%n";
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, method, r.worker(), r.records(),
                r.rounds() == 1 ? "One round" : r.rounds() + " rounds", r.loadBefore(),
                r.loadAfter()));
        s.append("| round | killed at | records committed before | seconds | worker's own, s |\n|---|---|---|---|---|\n");
        for (Restarts.Restart x : r.restarts()) {
            s.append(String.format(Locale.ROOT, "| %d | %d%% | %,d | %.2f | %s |%n", x.round(), x.percent(),
                    x.committedBefore(), x.seconds(), x.workerSeconds() == null ? "none written"
                            : String.format(Locale.ROOT, "%.2f", x.workerSeconds())));
        }
        s.append("\n| killed at | median s | fastest | slowest |\n|---|---|---|---|\n");
        for (int percent : r.percents()) {
            List<Double> at = secondsAt(r, percent);
            if (!at.isEmpty()) {
                s.append(String.format(Locale.ROOT, "| %d%% | %.2f | %.2f | %.2f |%n", percent, median(at),
                        at.stream().mapToDouble(Double::doubleValue).min().orElseThrow(),
                        at.stream().mapToDouble(Double::doubleValue).max().orElseThrow()));
            }
        }
        s.append('\n');
        for (Restarts.Round x : r.roundsRead()) {
            s.append(String.format(Locale.ROOT, "- round %d read back: %,d messages, %,d distinct record indexes of %,d "
                    + "(read_committed)%s%n", x.round(), x.messages(), x.distinctIndexes(), r.records(),
                    x.problems().isEmpty() ? ", every record exactly once"
                            : ", **not every record exactly once: " + String.join("; ", x.problems()) + "**"));
        }
        s.append("- ").append(verdict(r)).append('\n');
        return s.toString();
    }

    /** Met when every round read back every record once and each position's median is in time, the last no slower by far. */
    static String verdict(Restarts.Results r) {
        List<Double> medians = new ArrayList<>();
        for (int percent : r.percents()) {
            List<Double> at = secondsAt(r, percent);
            if (at.isEmpty()) {
                return "restart to the first new committed record (issue 6): no restart was measured at " + percent + "%";
            }
            medians.add(median(at));
        }
        List<String> faults = new ArrayList<>();
        for (int k = 0; k < medians.size(); k++) {
            if (medians.get(k) > TARGET_SECONDS) {
                faults.add(String.format(Locale.ROOT, "over %s s at %d%%", trim(TARGET_SECONDS), r.percents().get(k)));
            }
        }
        double first = medians.get(0);
        double last = medians.get(medians.size() - 1);
        if (medians.size() > 1 && last > first * GROWTH_TOLERANCE) {
            faults.add(String.format(Locale.ROOT, "%.2fx as long at %d%% as at %d%% (at most %sx)", last / first,
                    r.percents().get(medians.size() - 1), r.percents().get(0), trim(GROWTH_TOLERANCE)));
        }
        if (!everyRecordOnce(r)) {
            faults.add("not every record was read back exactly once");
        }
        String each = medians.stream().map(m -> String.format(Locale.ROOT, "%.2f", m)).collect(Collectors.joining(", "));
        String where = r.percents().stream().map(p -> p + "%").collect(Collectors.joining(", "));
        return String.format(Locale.ROOT, "restart to the first new committed record (issue 6, target at most %s s at "
                + "every kill position, at most %sx as long at the last as at the first): medians **%s s** at %s, %s",
                trim(TARGET_SECONDS), trim(GROWTH_TOLERANCE), each, where,
                faults.isEmpty() ? "target met" : "target missed (" + String.join("; ", faults) + ")");
    }

    /** Every round was read back whole, each record once, and its file completed. */
    static boolean everyRecordOnce(Restarts.Results r) {
        return r.roundsRead().size() == r.rounds() && r.roundsRead().stream().allMatch(x -> x.problems().isEmpty());
    }

    private static List<Double> secondsAt(Restarts.Results r, int percent) {
        return r.restarts().stream().filter(x -> x.percent() == percent).map(Restarts.Restart::seconds).toList();
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static String trim(double x) {
        return x == Math.rint(x) ? Long.toString((long) x) : Double.toString(x);
    }
}
