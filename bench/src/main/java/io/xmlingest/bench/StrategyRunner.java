package io.xmlingest.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.xmlingest.bench.strategy.Strategies;
import io.xmlingest.bench.strategy.Strategy;
import io.xmlingest.core.pipeline.PhaseTimes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The forked JVM's entry point: runs one strategy over one file, warm-ups first, then the
 * counted runs, and prints one line {@code RESULT <json>} on stdout. Each (strategy, size) gets a
 * JVM of its own, so no strategy warms up, fills or fragments the heap for another.
 */
public final class StrategyRunner {

    static final String PREFIX = "RESULT ";

    private StrategyRunner() {
    }

    /**
     * Arguments: strategy, file, expected records, warm-ups, counted runs, bootstrap servers or "-", and
     * optionally the points of each counted run at which to force a full collection and read the live
     * heap (0, the default, forces none: the collections would cost the timed runs).
     */
    public static void main(String[] args) {
        int exit = 0;
        try {
            measure(args);
        } catch (Exception e) {
            e.printStackTrace();
            exit = 1;
        }
        System.out.flush();
        // Kafka clients leave non-daemon threads behind, even after a failure; the result or the error is out.
        System.exit(exit);
    }

    private static void measure(String[] args) throws Exception {
        String name = args[0];
        Path file = Path.of(args[1]);
        long expected = Long.parseLong(args[2]);
        int warmups = Integer.parseInt(args[3]);
        int runs = Integer.parseInt(args[4]);
        String bootstrap = "-".equals(args[5]) ? null : args[5];
        int livePoints = args.length > 6 ? Integer.parseInt(args[6]) : 0;

        MemoryWatch memory = new MemoryWatch();
        Strategy strategy = Strategies.get(name).create().get();
        Strategy.Context context = new Strategy.Context(expected, bootstrap);
        for (int i = 0; i < warmups; i++) {
            once(strategy, file, context, expected);
        }
        List<Long> nanos = new ArrayList<>();
        List<Long> allocated = new ArrayList<>();
        List<PhaseTimes> phases = new ArrayList<>();
        long peakHeap = 0;
        long peakLive = 0;
        long sampledLive = 0;
        int liveSamples = 0;
        long records = -1;
        String verified = null;
        for (int i = 0; i < runs; i++) {
            // Peaks cover prepare and run, as a worker holds both; the bench's own checking afterwards is not counted.
            memory.reset();
            LiveHeapSampler sampler = livePoints > 0 ? LiveHeapSampler.forced(expected, livePoints) : null;
            Strategy.Context counted = sampler == null ? context
                    : new Strategy.Context(expected, bootstrap, sampler);
            strategy.prepare(file, counted);
            long a = MemoryWatch.allocatedBytes();
            long t = System.nanoTime();
            Strategy.Outcome outcome = strategy.run(file, counted);
            nanos.add(System.nanoTime() - t);
            allocated.add(MemoryWatch.allocatedBytes() - a);
            peakHeap = Math.max(peakHeap, memory.peakHeapUsed());
            peakLive = Math.max(peakLive, memory.peakLiveHeap());
            if (sampler != null) {
                sampledLive = Math.max(sampledLive, sampler.largest());
                liveSamples += sampler.taken();
            }
            verified = finish(strategy, file, counted, outcome, expected).orElse(null);
            records = outcome.records();
            phases.add(outcome.phases());
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("strategy", name);
        result.put("records", records);
        result.put("nanos", nanos);
        result.put("allocated", allocated);
        result.put("peakHeapUsed", peakHeap);
        result.put("peakLiveHeap", peakLive);
        result.put("maxRss", MemoryWatch.maxRss());
        result.put("sampledLiveHeap", sampledLive);
        result.put("liveSamples", liveSamples);
        result.put("phases", medianPhases(nanos, phases));
        if (verified != null) {
            result.put("verified", verified);
        }
        System.out.println(PREFIX + new ObjectMapper().writeValueAsString(result));
    }

    private static void once(Strategy strategy, Path file, Strategy.Context context, long expected) throws Exception {
        strategy.prepare(file, context);
        finish(strategy, file, context, strategy.run(file, context), expected);
    }

    /** Checks a run, warm-ups included: a warm-up that loses records is as wrong as a counted run that does. */
    private static Optional<String> finish(Strategy strategy, Path file, Strategy.Context context,
                                           Strategy.Outcome outcome, long expected) throws Exception {
        try {
            if (outcome.records() != expected) {
                throw new IllegalStateException(file.getFileName() + ": saw " + outcome.records()
                        + " records, expected " + expected);
            }
            return strategy.verify(file, context, outcome);
        } finally {
            strategy.cleanUp();
        }
    }

    /**
     * The phases of the run whose wall time is nearest the median, in seconds, so they add up to
     * about the median shown beside them (the first run at or above the median could be the slowest).
     */
    private static Map<String, Double> medianPhases(List<Long> nanos, List<PhaseTimes> phases) {
        long median = Measurement.median(nanos.stream().mapToLong(Long::longValue).toArray());
        PhaseTimes nearest = null;
        long distance = Long.MAX_VALUE;
        for (int i = 0; i < nanos.size(); i++) {
            if (phases.get(i) != null && Math.abs(nanos.get(i) - median) < distance) {
                nearest = phases.get(i);
                distance = Math.abs(nanos.get(i) - median);
            }
        }
        if (nearest == null) {
            return Map.of();
        }
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("identify", nearest.identifyNanos() / 1e9);
        m.put("scan", nearest.scanNanos() / 1e9);
        m.put("bind", nearest.bindNanos() / 1e9);
        m.put("serialize", nearest.serializeNanos() / 1e9);
        m.put("publish", nearest.publishNanos() / 1e9);
        return m;
    }
}
