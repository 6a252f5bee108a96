package io.xmlingest.bench;

import com.sun.management.GcInfo;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * The live heap at fixed points of a run, for comparing files of different sizes: a full
 * collection is forced at the first progress report past each of {@code points} evenly spaced
 * fractions of the records, and the heap still in use after it is kept.
 *
 * <p>The largest heap after whichever full collections happen to run cannot compare sizes: a
 * 10M-record run has hundreds of them while records are in flight, a 100k-record run one or two,
 * and in one 100k run at -Xmx64m the only one fell during start-up (8 MB live, where the same
 * file's next full collection in another run found 18 MB). Here every size gets the same points,
 * or fewer when a small file's reports come more than a fraction apart, which can only make the
 * small file's figure lower and the comparison harder to pass.
 */
final class LiveHeapSampler implements LongConsumer {

    private final long expected;
    private final int points;
    private final LongSupplier collect;
    private int next;
    private int taken;
    private long largest;

    /**
     * @param expected the run's records
     * @param points   how many fractions to sample at: the k-th of them at (2k+1)/(2 points) of the records
     * @param collect  forces a full collection and returns the heap in use right after it
     */
    LiveHeapSampler(long expected, int points, LongSupplier collect) {
        if (points < 1 || expected < 1) {
            throw new IllegalArgumentException("need at least one point and one record, not " + points + " and " + expected);
        }
        this.expected = expected;
        this.points = points;
        this.collect = collect;
    }

    /** Forcing real full collections: System.gc(), which the bench's collectors all honour. */
    static LiveHeapSampler forced(long expected, int points) {
        return new LiveHeapSampler(expected, points, LiveHeapSampler::collectNow);
    }

    /** Progress: {@code records} of the run are done. One collection covers every point it passed. */
    @Override
    public synchronized void accept(long records) {
        boolean due = false;
        while (next < points && records >= threshold(next)) {
            next++;
            due = true;
        }
        if (due) {
            largest = Math.max(largest, collect.getAsLong());
            taken++;
        }
    }

    long threshold(int k) {
        return Math.max(1, (long) Math.ceil((2.0 * k + 1) * expected / (2.0 * points)));
    }

    /** The largest heap found in use after the forced collections; 0 if none was taken. */
    synchronized long largest() {
        return largest;
    }

    /** How many collections were forced. */
    synchronized int taken() {
        return taken;
    }

    private static long collectNow() {
        Map<String, Long> before = collectionCounts();
        System.gc();
        // Read from the collector that ran for System.gc(), never from whichever collection ended last: the threads
        // that bind and send go on allocating, and a young collection right after the full one would count what it
        // left as live. Nor from the collector that manages most pools: G1's young collector manages as many as its
        // full one, and was read in its place.
        com.sun.management.GarbageCollectorMXBean full = fullCollectorSince(before);
        GcInfo last = full.getLastGcInfo();
        if (last == null) {
            throw new IllegalStateException(full.getName() + " reports no collection, so the live heap cannot be read");
        }
        Set<String> heap = MemoryWatch.heapPoolNames();
        return last.getMemoryUsageAfterGc().entrySet().stream().filter(e -> heap.contains(e.getKey()))
                .mapToLong(e -> e.getValue().getUsed()).sum();
    }

    /** Each collector's collections so far, by name, for {@link #fullCollectorSince}. */
    static Map<String, Long> collectionCounts() {
        Map<String, Long> counts = new HashMap<>();
        ManagementFactory.getGarbageCollectorMXBeans().forEach(gc -> counts.put(gc.getName(), gc.getCollectionCount()));
        return counts;
    }

    /**
     * The collector that collected the whole heap since {@code before} (PS MarkSweep, G1 Old
     * Generation, MarkSweepCompact): of those that ran, the one managing the most memory pools.
     */
    static com.sun.management.GarbageCollectorMXBean fullCollectorSince(Map<String, Long> before) {
        com.sun.management.GarbageCollectorMXBean full = null;
        for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof com.sun.management.GarbageCollectorMXBean g
                    && g.getCollectionCount() > before.getOrDefault(g.getName(), 0L)
                    && (full == null || g.getMemoryPoolNames().length > full.getMemoryPoolNames().length)) {
                full = g;
            }
        }
        if (full == null) {
            throw new IllegalStateException("no garbage collector ran for System.gc() (is -XX:+DisableExplicitGC set?), "
                    + "so the live heap cannot be read");
        }
        return full;
    }
}
