package io.xmlingest.bench;

import io.xmlingest.datagen.DatagenCommand;
import io.xmlingest.sample.persons.Person;
import jakarta.xml.bind.JAXBContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A quick in-process measurement of the pipeline's stages without Kafka: each stage runs over the
 * same datagen file, once to warm up, then {@code --runs} counted times; the report gives the
 * median, minimum and maximum and each stage's rate as a ratio of the scan ceiling measured in
 * the same run. All stages share one JVM, so it is a guide, not the forked-JVM study.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Measures scan, bind and serialize rates on a datagen persons file (no Kafka), median of several runs.",
        footer = {"", "Example:", "  java -jar bench/target/bench.jar --records 1000000 --runs 5"})
public final class BenchCommand implements Callable<Integer> {

    @Option(names = "--records", description = "Records in the test file (default: ${DEFAULT-VALUE}).")
    long records = 100_000;

    @Option(names = "--runs", description = "Counted runs per stage (default: ${DEFAULT-VALUE}).")
    int runs = 5;

    @Option(names = "--dir", description = "Where generated test files are kept for reuse (default: ${DEFAULT-VALUE}).")
    Path dir = Path.of("target/bench-data");

    public static void main(String[] args) {
        System.exit(new CommandLine(new BenchCommand()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Path file = dataFile(dir, records);
        System.out.print(report(file, runs));
        return 0;
    }

    /** The datagen file for this size, generated once and reused (same seed, so the same bytes). */
    static Path dataFile(Path dir, long records) throws Exception {
        Files.createDirectories(dir);
        Path file = dir.resolve("persons-" + records + "-seed42.xml");
        if (!Files.exists(file)) {
            Path partial = dir.resolve(file.getFileName() + ".part");
            DatagenCommand.generate(partial, records, 42);
            Files.move(partial, file);
        }
        return file;
    }

    /** Measures every stage and renders the Markdown report. */
    static String report(Path file, int runs) throws Exception {
        JAXBContext context = JAXBContext.newInstance(Person.class);
        long bytes = Files.size(file);
        List<Result> results = new ArrayList<>();
        for (Stage stage : Stage.values()) {
            long[] warm = stage.run(file, context);
            long[] nanos = new long[runs];
            for (int i = 0; i < runs; i++) {
                long t = System.nanoTime();
                long[] r = stage.run(file, context);
                nanos[i] = System.nanoTime() - t;
                if (r[0] != warm[0] || r[1] != warm[1]) {
                    throw new IllegalStateException(stage + " gave different results on the same file");
                }
            }
            results.add(new Result(stage, warm[0], nanos));
        }
        StringBuilder out = new StringBuilder();
        Runtime rt = Runtime.getRuntime();
        out.append(String.format(Locale.ROOT, "%s, %d records, %.1f MB; %d counted runs per stage after one warm-up; "
                        + "%s, Java %s, %d cores, max heap %d MB%n%n", file.getFileName(), results.get(0).records,
                bytes / 1e6, runs, LocalDate.now(), System.getProperty("java.version"), rt.availableProcessors(),
                rt.maxMemory() >> 20));
        out.append("| stage | median s | min s | max s | records/s (median) | MB/s (median) | vs scan |\n");
        out.append("|---|---|---|---|---|---|---|\n");
        double scanRate = results.get(0).rate();
        for (Result r : results) {
            out.append(String.format(Locale.ROOT, "| %s | %.3f | %.3f | %.3f | %.0f | %.1f | %.2f |%n",
                    r.stage.name().toLowerCase(Locale.ROOT), r.median() / 1e9, r.min() / 1e9, r.max() / 1e9,
                    r.rate(), bytes / 1e6 / (r.median() / 1e9), r.rate() / scanRate));
        }
        return out.toString();
    }

    record Result(Stage stage, long records, long[] nanos) {
        long median() {
            long[] sorted = nanos.clone();
            Arrays.sort(sorted);
            int n = sorted.length;
            return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        }

        long min() {
            return Arrays.stream(nanos).min().orElseThrow();
        }

        long max() {
            return Arrays.stream(nanos).max().orElseThrow();
        }

        double rate() {
            return records / (median() / 1e9);
        }
    }
}
