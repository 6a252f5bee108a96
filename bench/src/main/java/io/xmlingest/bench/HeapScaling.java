package io.xmlingest.bench;

import java.util.List;
import java.util.Locale;

/**
 * Issue 6's memory target: the worker path ingests files of every size within a small fixed
 * heap, and its peak heap does not grow with the file. Rendered from a bench run made in the
 * heap-scaling mode (one run per size, each in a JVM of its own with the same -Xmx).
 */
final class HeapScaling {

    /**
     * How much more live heap the largest file may show than the smallest and still count as
     * not growing: what is in flight at a given point wobbles by a few MB between runs of the same
     * file; growth with the file would be tenfold.
     */
    static final double TOLERANCE = 1.25;

    /** At how many fixed points of each run the live heap is read (see {@link LiveHeapSampler}). */
    static final int LIVE_POINTS = 10;

    private HeapScaling() {
    }

    static String section(Bench.Results r) {
        if (!r.plan().heapScaling()) {
            return "";
        }
        return String.format(Locale.ROOT, "%n## Peak heap by file size (-Xmx%s)%n%n", r.plan().heap()) + body(r);
    }

    /** The README's heap-scaling figures, with date and machine. */
    static String readmeSection(Bench.Results r, String reportLink) {
        return String.format(Locale.ROOT, "Measured by `java -jar bench/target/bench.jar --heap-scaling ...` on %s; "
                + "machine: %s. Full report: [%s](%s).%n%n", r.startedAt().substring(0, 10), r.machine(), reportLink,
                reportLink) + body(r);
    }

    private static String body(Bench.Results r) {
        // Judged on the live heap: peak heap counts garbage not yet collected, so it follows -Xmx, not the file.
        int rounds = r.plan().rounds();
        boolean sampled = r.measurements().stream().anyMatch(m -> m.liveSamples() > 0);
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "One run per size%s, each in a JVM of its own "
                + "with -Xmx%s. The target is met when every size completes within that heap and the largest file's "
                + "live heap (what is left after a full collection; peak heap also counts garbage, so it follows -Xmx) is at "
                + "most %.2fx the smallest file's.", rounds == 1 ? "" : String.format(Locale.ROOT,
                " in each of %d rounds (heaps are the largest over the rounds, seconds their median, points their sum)",
                rounds), r.plan().heap(), TOLERANCE));
        s.append(sampled ? String.format(Locale.ROOT, " The live heap compared is the largest found after full "
                + "collections forced at the first commit past each of %d evenly spaced points of the records (5%%, "
                + "15%%, ... 95%%; *points* says how many were taken, fewer when a small file commits more than a tenth "
                + "at a time; their time is in the seconds shown); the largest after any full collection is shown "
                + "beside it, but a long run has many more of those than a short one, so it is not compared, unless a "
                + "size has no points (a strategy that does not report its progress).%n%n", LIVE_POINTS)
                : String.format(Locale.ROOT, " No live heap was read at fixed points in these runs (*points* 0): the "
                + "live heap compared is the largest after any full collection.%n%n"));
        s.append("| strategy | records | file MB | outcome | seconds | records/s | peak heap MB | live heap MB "
                + "(at points) | points | live heap MB (any full GC) | RSS MB |\n");
        s.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (var strategy : r.plan().strategies()) {
            for (long size : r.plan().sizes()) {
                for (Measurement m : rows(r, strategy.name(), size)) {
                    s.append(row(m));
                }
            }
        }
        s.append('\n');
        for (var strategy : r.plan().strategies()) {
            s.append("- ").append(verdict(r, strategy.name())).append('\n');
        }
        return s.toString();
    }

    /** One line per strategy: did every size complete, and how the largest file's heap compares with the smallest's. */
    static String verdict(Bench.Results r, String strategy) {
        List<Long> sizes = r.plan().sizes();
        long smallest = sizes.stream().mapToLong(Long::longValue).min().orElseThrow();
        long largest = sizes.stream().mapToLong(Long::longValue).max().orElseThrow();
        List<Measurement> all = r.measurements().stream().filter(m -> m.strategy().equals(strategy)).toList();
        List<Measurement> failed = all.stream().filter(m -> !m.ok()).toList();
        if (!failed.isEmpty() || all.isEmpty()) {
            return String.format(Locale.ROOT, "%s: failed at %s within -Xmx%s: target missed", strategy,
                    failed.stream().map(m -> String.format(Locale.ROOT, "%,d records (%s)", m.size(), m.reason()))
                            .reduce((a, b) -> a + ", " + b).orElse("every size"), r.plan().heap());
        }
        Measurement small = Report.find(r, strategy, smallest).orElseThrow();
        Measurement large = Report.find(r, strategy, largest).orElseThrow();
        double peak = (double) large.peakHeapUsed() / small.peakHeapUsed();
        // Results from before the live heap was sampled are judged as they were then, on the largest after any full GC.
        boolean sampled = small.liveSamples() > 0 && large.liveSamples() > 0;
        long smallLive = sampled ? small.sampledLiveHeap() : small.peakLiveHeap();
        long largeLive = sampled ? large.sampledLiveHeap() : large.peakLiveHeap();
        double live = smallLive == 0 ? Double.NaN : (double) largeLive / smallLive;
        boolean met = live <= TOLERANCE;
        return String.format(Locale.ROOT, "%s completed every size within -Xmx%s; at %,d records vs %,d: peak heap "
                        + "**%.2fx**, live heap%s **%.2fx**: %s", strategy, r.plan().heap(), largest, smallest, peak,
                sampled ? " at points" : "", live,
                met ? "target met" : Double.isNaN(live) ? "target not judged (no collection ran at the smallest size)"
                        : "target missed");
    }

    private static List<Measurement> rows(Bench.Results r, String strategy, long size) {
        return r.measurements().stream().filter(m -> m.strategy().equals(strategy) && m.size() == size).toList();
    }

    private static String row(Measurement m) {
        if (!m.ok()) {
            return String.format(Locale.ROOT, "| %s | %,d | %.0f | %s | | | | | | | |%n", m.strategy(), m.size(),
                    m.fileBytes() / 1e6, m.reason().replace("|", "\\|"));
        }
        return String.format(Locale.ROOT, "| %s | %,d | %.0f | completed | %.1f | %,.0f | %d | %s | %d | %d | %d |%n",
                m.strategy(), m.size(), m.fileBytes() / 1e6, m.medianNanos() / 1e9, m.recordsPerSecond(),
                m.peakHeapUsed() >> 20, m.liveSamples() == 0 ? "-" : Long.toString(m.sampledLiveHeap() >> 20),
                m.liveSamples(), m.peakLiveHeap() >> 20, m.maxRss() >> 20);
    }
}
