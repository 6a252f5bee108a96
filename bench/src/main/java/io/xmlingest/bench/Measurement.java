package io.xmlingest.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * One strategy at one size: the figures of its counted runs, or why it has none.
 *
 * @param nanos        wall time of each counted run
 * @param allocated    bytes allocated by all threads in each counted run
 * @param peakHeapUsed heap pools' peak usage over the counted runs
 * @param peakLiveHeap largest heap in use after a GC over the counted runs (0 if no GC ran)
 * @param maxRss       the forked JVM's peak resident set
 * @param phases       the pipeline's own phase timers in the median run (ours only), seconds by phase
 * @param verified     what the strategy checked after every run (the exactly-once check), as found in the last; null if nothing
 * @param sampledLiveHeap largest heap in use after the collections forced at fixed points of the counted runs
 *                     ({@link LiveHeapSampler}); 0 if none was forced
 * @param liveSamples  how many collections were forced for {@code sampledLiveHeap}
 */
public record Measurement(String strategy, long size, long fileBytes, Status status, String reason, String heap,
                          long records, long[] nanos, long[] allocated, long peakHeapUsed, long peakLiveHeap,
                          long maxRss, Map<String, Double> phases, String verified, long sampledLiveHeap,
                          int liveSamples) {

    /** Without live heap samples: what every run outside the heap-scaling mode measures. */
    public Measurement(String strategy, long size, long fileBytes, Status status, String reason, String heap,
                       long records, long[] nanos, long[] allocated, long peakHeapUsed, long peakLiveHeap,
                       long maxRss, Map<String, Double> phases, String verified) {
        this(strategy, size, fileBytes, status, reason, heap, records, nanos, allocated, peakHeapUsed, peakLiveHeap,
                maxRss, phases, verified, 0, 0);
    }

    public enum Status { OK, FAILED, OUT_OF_MEMORY }

    public static Measurement failed(String strategy, long size, long fileBytes, Status status, String reason, String heap) {
        return new Measurement(strategy, size, fileBytes, status, reason, heap, 0, new long[0], new long[0], 0, 0, 0, Map.of(),
                null);
    }

    /**
     * One strategy's rounds at one size as one measurement: every counted run of every round, the
     * peaks over all of them, and the phases of the round whose median is nearest the median of all.
     * The first round that failed stands for all, as a strategy that fails once is not measured.
     */
    public static Measurement merged(List<Measurement> rounds) {
        if (rounds.size() == 1) {
            return rounds.get(0);
        }
        for (Measurement m : rounds) {
            if (!m.ok()) {
                return m;
            }
        }
        Measurement first = rounds.get(0);
        long[] nanos = rounds.stream().flatMapToLong(m -> Arrays.stream(m.nanos())).toArray();
        long[] allocated = rounds.stream().flatMapToLong(m -> Arrays.stream(m.allocated())).toArray();
        long median = median(nanos);
        Measurement nearest = first;
        for (Measurement m : rounds) {
            if (Math.abs(m.medianNanos() - median) < Math.abs(nearest.medianNanos() - median)) {
                nearest = m;
            }
            if (m.records() != first.records()) {
                throw new IllegalStateException(first.strategy() + " saw " + first.records() + " records in one round and "
                        + m.records() + " in another");
            }
        }
        return new Measurement(first.strategy(), first.size(), first.fileBytes(), Status.OK, null, first.heap(),
                first.records(), nanos, allocated,
                rounds.stream().mapToLong(Measurement::peakHeapUsed).max().orElse(0),
                rounds.stream().mapToLong(Measurement::peakLiveHeap).max().orElse(0),
                rounds.stream().mapToLong(Measurement::maxRss).max().orElse(0),
                nearest.phases(), rounds.get(rounds.size() - 1).verified(),
                rounds.stream().mapToLong(Measurement::sampledLiveHeap).max().orElse(0),
                rounds.stream().mapToInt(Measurement::liveSamples).sum());
    }

    public boolean ok() {
        return status == Status.OK;
    }

    public long medianNanos() {
        return median(nanos);
    }

    public long minNanos() {
        return Arrays.stream(nanos).min().orElse(0);
    }

    public long maxNanos() {
        return Arrays.stream(nanos).max().orElse(0);
    }

    public double recordsPerSecond() {
        return records / (medianNanos() / 1e9);
    }

    public double megabytesPerSecond() {
        return fileBytes / 1e6 / (medianNanos() / 1e9);
    }

    public double allocatedPerRecord() {
        return records == 0 ? 0 : (double) median(allocated) / records;
    }

    static long median(long[] values) {
        if (values.length == 0) {
            return 0;
        }
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
