package io.xmlingest.bench;

import io.xmlingest.bench.strategy.Strategies;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code java -jar bench.jar}: the speed-and-memory study, written as a Markdown report with charts. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Measures every strategy at every size, each in its own forked JVM, and writes report.md with charts.",
        footer = {"", "Examples:",
            "  java -jar bench/target/bench.jar --sizes 1000,100000,1000000",
            "  java -jar bench/target/bench.jar --sizes 100000 --strategies woodstox-jaxb,ours-split-bind --runs 3",
            "  java -jar bench/target/bench.jar --sizes 1000,100000,1000000 --out bench/report --update-readme README.md"})
public final class BenchCommand implements Callable<Integer> {

    @Option(names = "--sizes", split = ",", description = "Record counts of the test files (default: ${DEFAULT-VALUE}).")
    List<Long> sizes = new ArrayList<>(List.of(1_000L, 10_000L, 100_000L, 1_000_000L));

    @Option(names = "--strategies", split = ",", description = "Strategies to run (default: all).")
    List<String> strategies;

    @Option(names = "--runs", description = "Counted runs per strategy and size (default: ${DEFAULT-VALUE}).")
    int runs = 5;

    @Option(names = "--warmups", description = "Warm-up runs before counting (default: ${DEFAULT-VALUE}).")
    int warmups = 1;

    @Option(names = "--heap", description = "-Xmx of each forked JVM (default: ${DEFAULT-VALUE}).")
    String heap = "2g";

    @Option(names = "--out", description = "Report directory (default: ${DEFAULT-VALUE}).")
    Path out = Path.of("bench-report");

    @Option(names = "--data", description = "Where generated test files are cached (default: ${DEFAULT-VALUE}).")
    Path data = Path.of("bench-data");

    @Option(names = "--no-heap-search", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Search the smallest heap for whole-document JAXB (default: on).")
    boolean heapSearch = true;

    @Option(names = "--from", paramLabel = "RESULTS_JSON",
            description = "Measure nothing: draw the report, charts and README section again from a results.json.")
    Path from;

    @Option(names = "--update-readme", paramLabel = "README",
            description = "Replace the README's bench section (between its bench markers) with this run's figures.")
    Path readme;

    public static void main(String[] args) {
        System.exit(new CommandLine(new BenchCommand()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        List<Strategies.Entry> chosen = strategies == null ? Strategies.all()
                : strategies.stream().map(Strategies::get).toList();
        Files.createDirectories(out);
        Bench.Results results;
        if (from != null) {
            results = ResultsJson.read(from);
        } else {
            Bench.Plan plan = new Bench.Plan(sizes, chosen, warmups, runs, heap, data, out.resolve("work"), heapSearch);
            results = new Bench(plan, System.err).run();
            ResultsJson.write(results, out.resolve("results.json"));
        }
        write(results, out);
        if (readme != null) {
            updateReadme(readme, Report.readmeSection(results, readme.toAbsolutePath().getParent()
                    .relativize(out.toAbsolutePath().resolve("report.md")).toString()));
        }
        System.out.println("report: " + out.resolve("report.md"));
        return results.measurements().stream().allMatch(m -> m.ok() || m.strategy().equals(Bench.WHOLE_DOCUMENT)) ? 0 : 1;
    }

    static void write(Bench.Results results, Path out) throws Exception {
        Files.createDirectories(out);
        Files.writeString(out.resolve("report.md"), Report.full(results));
        Charts.write(results, out);
        deleteRecursively(out.resolve("work"));
    }

    static void updateReadme(Path readme, String section) throws Exception {
        String start = "<!-- bench:start -->\n";
        String end = "<!-- bench:end -->";
        String text = Files.readString(readme);
        int from = text.indexOf(start);
        int to = text.indexOf(end);
        if (from < 0 || to < from) {
            throw new IllegalStateException(readme + " has no " + start.strip() + " ... " + end + " markers");
        }
        Files.writeString(readme, text.substring(0, from + start.length()) + section + text.substring(to));
    }

    private static void deleteRecursively(Path dir) throws Exception {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
