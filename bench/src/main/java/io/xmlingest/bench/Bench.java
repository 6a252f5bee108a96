package io.xmlingest.bench;

import io.xmlingest.app.kafka.EmbeddedKafkaBroker;
import io.xmlingest.bench.strategy.Strategies;
import io.xmlingest.datagen.DatagenCommand;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Runs every selected strategy at every size, each in a forked JVM, against the same cached
 * datagen files and, for the strategies that publish, the same broker; then searches the
 * smallest heap for whole-document JAXB.
 *
 * <p>With several rounds, the strategies take turns: each round forks every strategy again, and
 * a strategy's counted runs are those of all its rounds. The host's load drifts over minutes, so
 * strategies measured one after the other each meet a different hour; taking turns spreads the
 * drift over all of them, and the ratios between them hold better.
 */
public final class Bench {

    /** What to measure and how. */
    public record Plan(List<Long> sizes, List<Strategies.Entry> strategies, int warmups, int runs, int rounds,
                       String heap, Path dataDir, Path workDir, boolean searchHeap, boolean heapScaling) {
    }

    /** Everything one bench run measured. */
    public record Results(Plan plan, List<Measurement> measurements, List<HeapSearch> heapSearches, String startedAt,
                          double seconds, String machine) {
    }

    static final String WHOLE_DOCUMENT = "jaxb-whole-document";

    private final Plan plan;
    private final PrintStream log;

    public Bench(Plan plan, PrintStream log) {
        this.plan = plan;
        this.log = log;
    }

    public Results run() throws Exception {
        long started = System.nanoTime();
        String startedAt = Report.startedAt();
        List<Path> files = new ArrayList<>();
        for (long size : plan.sizes()) {
            files.add(dataFile(plan.dataDir(), size));
        }
        ForkedJvm jvm = new ForkedJvm(plan.workDir(), 30);
        List<Measurement> measurements = new ArrayList<>();
        List<HeapSearch> searches = new ArrayList<>();
        EmbeddedKafkaBroker broker = null;
        try {
            if (plan.strategies().stream().anyMatch(Strategies.Entry::needsBroker)) {
                Files.createDirectories(plan.workDir());
                broker = EmbeddedKafkaBroker.start(Files.createTempDirectory(plan.workDir(), "kafka"), "127.0.0.1", 0);
                log.println("broker at " + broker.bootstrapServers());
            }
            for (int i = 0; i < plan.sizes().size(); i++) {
                long size = plan.sizes().get(i);
                Path file = files.get(i);
                List<List<Measurement>> rounds = new ArrayList<>();
                plan.strategies().forEach(s -> rounds.add(new ArrayList<>()));
                for (int round = 1; round <= plan.rounds(); round++) {
                    for (int k = 0; k < plan.strategies().size(); k++) {
                        if (rounds.get(k).stream().anyMatch(m -> !m.ok())) {
                            continue; // a strategy that failed once is reported as failed: no need to fail it again
                        }
                        Strategies.Entry s = plan.strategies().get(k);
                        Measurement m = jvm.run(s.name(), file, size, plan.warmups(), plan.runs(), plan.heap(),
                                s.needsBroker() ? broker.bootstrapServers() : null,
                                plan.heapScaling() ? HeapScaling.LIVE_POINTS : 0);
                        rounds.get(k).add(m);
                        log.println((plan.rounds() > 1 ? "round " + round + ": " : "") + describe(m));
                    }
                }
                for (List<Measurement> strategyRounds : rounds) {
                    Measurement m = Measurement.merged(strategyRounds);
                    measurements.add(m);
                    if (plan.rounds() > 1) {
                        log.println("all rounds: " + describe(m));
                    }
                }
                if (plan.searchHeap() && plan.strategies().stream().anyMatch(s -> s.name().equals(WHOLE_DOCUMENT))) {
                    HeapSearch h = HeapSearch.run(size, heapMb(plan.heap()),
                            mb -> jvm.run(WHOLE_DOCUMENT, file, size, 0, 1, mb + "m", null).ok());
                    searches.add(h);
                    log.printf(Locale.ROOT, "%s at %d records: smallest heap %d MB (largest failing %d MB, %d attempts)%n",
                            WHOLE_DOCUMENT, size, h.smallestOk(), h.largestFailed(), h.attempts());
                }
            }
        } finally {
            if (broker != null) {
                broker.close();
            }
        }
        return new Results(plan, measurements, searches, startedAt, (System.nanoTime() - started) / 1e9, Report.machine());
    }

    /** A datagen person with seed 42 takes 410 to 415 bytes; this leaves room for the file's head and tail. */
    static final long BYTES_PER_RECORD = 420;

    /** The datagen file for a size, generated once and reused (same seed, so the same bytes). */
    public static Path dataFile(Path dir, long records) throws Exception {
        Files.createDirectories(dir);
        Path file = dir.resolve("persons-" + records + "-seed42.xml");
        if (Files.exists(file)) {
            return file;
        }
        // A 10M-record file is over 4 GB: refuse at once rather than fill the disk and fail half-way.
        long needed = records * BYTES_PER_RECORD;
        long free = Files.getFileStore(dir).getUsableSpace();
        if (free < needed + (needed >> 2)) {
            throw new IllegalStateException(String.format(Locale.ROOT, "%s needs about %.1f GB and %s has %.1f GB "
                    + "free; free some space or point --data elsewhere", file.getFileName(), needed / 1e9, dir, free / 1e9));
        }
        return DatagenCommand.generate(file, records, 42);
    }

    static int heapMb(String heap) {
        String h = heap.toLowerCase(Locale.ROOT);
        long n = Long.parseLong(h.replaceAll("[^0-9]", ""));
        return (int) (h.endsWith("g") ? n * 1024 : h.endsWith("m") ? n : n >> 20);
    }

    private static String describe(Measurement m) {
        if (!m.ok()) {
            return String.format(Locale.ROOT, "%-20s %9d records: %s", m.strategy(), m.size(), m.reason());
        }
        return String.format(Locale.ROOT, "%-20s %9d records: median %.3f s, %.0f records/s, peak heap %d MB",
                m.strategy(), m.size(), m.medianNanos() / 1e9, m.recordsPerSecond(), m.peakHeapUsed() >> 20);
    }
}
