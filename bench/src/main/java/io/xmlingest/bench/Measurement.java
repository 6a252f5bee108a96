package io.xmlingest.bench;

import java.util.Arrays;
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
 */
public record Measurement(String strategy, long size, long fileBytes, Status status, String reason, String heap,
                          long records, long[] nanos, long[] allocated, long peakHeapUsed, long peakLiveHeap,
                          long maxRss, Map<String, Double> phases, String verified) {

    public enum Status { OK, FAILED, OUT_OF_MEMORY }

    public static Measurement failed(String strategy, long size, long fileBytes, Status status, String reason, String heap) {
        return new Measurement(strategy, size, fileBytes, status, reason, heap, 0, new long[0], new long[0], 0, 0, 0, Map.of(),
                null);
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
