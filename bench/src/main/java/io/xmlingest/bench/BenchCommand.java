package io.xmlingest.bench;

import io.xmlingest.bench.strategy.Strategies;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/** {@code java -jar bench.jar}: the speed-and-memory study, written as a Markdown report with charts. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Measures every strategy at every size, each in its own forked JVM, and writes report.md with charts.",
        footer = {"", "Examples:",
            "  java -jar bench/target/bench.jar --sizes 1000,100000,1000000",
            "  java -jar bench/target/bench.jar --sizes 100000 --strategies woodstox-jaxb,ours-split-bind --runs 3",
            "  java -jar bench/target/bench.jar --sizes 1000,100000,1000000 --out bench/report --update-readme README.md",
            "  java -jar bench/target/bench.jar --heap-scaling 100000,1000000,10000000 --out bench/report/heap-scaling",
            "  java -jar bench/target/bench.jar --value-formats --records 100000 --out bench/report/value-formats --update-readme README.md",
            "  java -jar bench/target/bench.jar --restarts 20,50,90 --rounds 3 --worker-jar ingest-app/target/ingest-app.jar --out bench/report/restarts"})
public final class BenchCommand implements Callable<Integer> {

    static final String SPEED_MARKER = "bench";
    static final String HEAP_SCALING_MARKER = "bench-heap-scaling";
    private static final String EXACTLY_ONCE = "ours-exactly-once";

    @Option(names = "--sizes", split = ",", description = "Record counts of the test files (default: ${DEFAULT-VALUE}).")
    List<Long> sizes = new ArrayList<>(List.of(1_000L, 10_000L, 100_000L, 1_000_000L));

    @Option(names = "--strategies", split = ",", description = "Strategies to run (default: all).")
    List<String> strategies;

    @Option(names = "--runs", description = "Counted runs per strategy and size (default: 5; with --value-formats, 3).")
    Integer runs;

    @Option(names = "--value-formats",
            description = "Instead of the speed study: write the --records persons as JSON, the XML fragment and Avro, "
                    + "produce each with every compression to the bench's broker, and report bytes per record on disk "
                    + "and throughput against JSON with lz4.")
    boolean valueFormats;

    @Option(names = "--records", description = "With --value-formats: how many persons (default: 100000); with "
            + "--restarts: records in the file (default: 1000000).")
    Long records;

    @Option(names = "--restarts", split = ",", paramLabel = "PERCENTS",
            description = "Instead of the speed study: issue 6's resume target. A worker in a process of its own ingests "
                    + "the --records file and is killed (SIGKILL) once each share of the records is committed; a new one "
                    + "is launched and timed until a read_committed consumer receives its first new record. Every record "
                    + "is then checked to have arrived once. Once per --rounds.")
    List<Integer> restarts;

    @Option(names = "--worker-jar", paramLabel = "JAR", description = "With --restarts: run the worker from this "
            + "ingest-app.jar (java -jar), as a class-data archive or AOT cache made for it needs; by default from the "
            + "bench's own class path.")
    Path workerJar;

    @Option(names = "--worker-java", paramLabel = "JAVA",
            description = "With --restarts: the java that runs the worker (default: the bench's own).")
    String workerJava;

    @Option(names = "--worker-options", paramLabel = "OPTIONS", description = "With --restarts: JVM options for the "
            + "worker, split at spaces, such as -XX:AOTCache=FILE (default: none beyond --heap).")
    String workerOptions;

    @Option(names = "--rounds", description = "Rounds in which the strategies take turns, each strategy forked again in "
            + "every round with its warm-ups and --runs counted runs; its figures are those of all rounds. Spreads the "
            + "host's drifting load over every strategy, for ratios that hold. With --heap-scaling, each size runs "
            + "once in every round and its heap figures are the largest; with --restarts, the file is ingested once per round "
            + "(default: ${DEFAULT-VALUE}).")
    int rounds = 1;

    @Option(names = "--warmups", description = "Warm-up runs before counting (default: ${DEFAULT-VALUE}).")
    int warmups = 1;

    @Option(names = "--heap", description = "-Xmx of each forked JVM (default: 2g; with --heap-scaling, 64m; with "
            + "--restarts, the worker's, 256m).")
    String heap;

    @Option(names = "--heap-scaling", split = ",", paramLabel = "SIZES",
            description = "Instead of the speed study: run each strategy (default: ours-exactly-once) once per size "
                    + "and round, no warm-up, each in a JVM with the same small -Xmx, and report peak heap and the live "
                    + "heap at ten fixed points of the records by size.")
    List<Long> heapScaling;

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
            description = "Replace the README's bench section with this run's figures: between its bench markers, "
                    + "with --heap-scaling between its bench-heap-scaling markers, with --restarts between its "
                    + "bench-restarts markers.")
    Path readme;

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        System.exit(new CommandLine(new BenchCommand()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        rejectWhatTheModeIgnores();
        if (readme != null) {
            // Found missing now, not after a run of many minutes.
            markers(readme, valueFormats ? ValueFormats.MARKER : restarts != null ? Restarts.MARKER
                    : heapScaling != null ? HEAP_SCALING_MARKER : SPEED_MARKER);
        }
        Files.createDirectories(out);
        if (valueFormats) {
            return valueFormats();
        }
        if (restarts != null) {
            return restarts();
        }
        Bench.Results results;
        if (from != null) {
            results = ResultsJson.read(from);
        } else {
            results = new Bench(plan(), System.err).run();
            ResultsJson.write(results, out.resolve("results.json"));
        }
        write(results, out);
        if (readme != null) {
            String link = reportLink();
            // Each mode has a block of its own, so a heap-scaling run never replaces the speed figures, nor the reverse.
            if (results.plan().heapScaling()) {
                updateReadme(readme, HEAP_SCALING_MARKER, HeapScaling.readmeSection(results, link));
            } else {
                updateReadme(readme, SPEED_MARKER, Report.readmeSection(results, link));
            }
        }
        System.out.println("report: " + out.resolve("report.md"));
        return results.measurements().stream().allMatch(m -> m.ok() || m.strategy().equals(Bench.WHOLE_DOCUMENT)) ? 0 : 1;
    }

    private int valueFormats() throws Exception {
        var results = ValueFormats.run(records != null ? records : 100_000, runs != null ? runs : 3, data,
                out.resolve("work"), heap != null ? heap : "2g", System.err);
        ValueFormats.write(results, out);
        deleteRecursively(out.resolve("work"));
        if (readme != null) {
            String link = reportLink();
            updateReadme(readme, ValueFormats.MARKER, ValueFormats.readmeSection(results, link));
        }
        System.out.println("report: " + out.resolve("report.md"));
        return 0;
    }

    private int restarts() throws Exception {
        String java = workerJava != null ? workerJava : Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> options = workerOptions == null || workerOptions.isBlank() ? List.of()
                : List.of(workerOptions.strip().split("\\s+"));
        var plan = new Restarts.Plan(records != null ? records : 1_000_000, restarts, rounds, heap != null ? heap : "256m",
                data, out.resolve("work"), java, workerJar, options);
        Restarts.Results results = Restarts.run(plan, System.err);
        Restarts.write(results, out);
        deleteRecursively(out.resolve("work"));
        if (readme != null) {
            String link = reportLink();
            updateReadme(readme, Restarts.MARKER, RestartReport.readmeSection(results, link));
        }
        System.out.println(RestartReport.verdict(results));
        System.out.println("report: " + out.resolve("report.md"));
        return RestartReport.everyRecordOnce(results) ? 0 : 1;
    }

    /**
     * An option a mode would not use is refused, naming the mode, rather than ignored: a user who asked
     * for three rounds of a heap-scaling run, say, must not read a report of one as if it were three.
     */
    private void rejectWhatTheModeIgnores() {
        if (rounds < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--rounds must be at least 1, not " + rounds);
        }
        if (restarts == null) {
            reject("only --restarts starts workers", "--worker-jar", "--worker-java", "--worker-options");
        }
        if (from != null) {
            reject("--from draws the report again from results.json and measures nothing", "--sizes", "--strategies",
                    "--runs", "--rounds", "--warmups", "--heap", "--heap-scaling", "--value-formats", "--records",
                    "--data", "--no-heap-search", "--restarts");
        } else if (valueFormats) {
            reject("--value-formats measures --records persons with its own formats", "--sizes", "--strategies",
                    "--rounds", "--warmups", "--heap-scaling", "--no-heap-search", "--restarts");
        } else if (restarts != null) {
            reject("--restarts kills and restarts one worker over the --records file", "--sizes", "--strategies",
                    "--runs", "--warmups", "--heap-scaling", "--no-heap-search");
            checkPercents();
            if (records != null && (records < 1 || records > Integer.MAX_VALUE)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--records " + records + ": the restarts "
                        + "need 1 to " + Integer.MAX_VALUE + " records, each checked to arrive once");
            }
            if (workerJar != null && !Files.isRegularFile(workerJar)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--worker-jar " + workerJar
                        + " is not a file; build it with mvn package");
            }
            if (workerJava != null && workerJava.contains("/") && !Files.isExecutable(Path.of(workerJava))) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--worker-java " + workerJava
                        + " is not an executable file");
            }
        } else if (heapScaling != null) {
            reject("--heap-scaling runs each size once per round, with no warm-up, at the sizes it is given", "--sizes",
                    "--runs", "--warmups", "--records", "--no-heap-search");
        } else {
            reject("the speed study measures --sizes", "--records");
        }
    }

    /** Kill positions must lie inside the file and in order, each restart resuming where the last kill left it. */
    private void checkPercents() {
        int last = 0;
        for (int p : restarts) {
            if (p <= last || p >= 100) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--restarts " + restarts + ": each share "
                        + "must be above the one before it and between 1 and 99 percent");
            }
            last = p;
        }
    }

    /** The report as the README links to it: relative to the README's directory. */
    private String reportLink() {
        return readme.toAbsolutePath().getParent().relativize(out.toAbsolutePath().resolve("report.md")).toString();
    }

    private void reject(String mode, String... options) {
        ParseResult parsed = spec.commandLine().getParseResult();
        for (String option : options) {
            if (parsed.hasMatchedOption(option)) {
                throw new CommandLine.ParameterException(spec.commandLine(), option + " has no effect here: " + mode);
            }
        }
    }

    private Bench.Plan plan() {
        boolean scaling = heapScaling != null;
        List<Strategies.Entry> chosen = strategies != null ? strategies.stream().map(Strategies::get).toList()
                : scaling ? List.of(Strategies.get(EXACTLY_ONCE)) : Strategies.all();
        String xmx = heap != null ? heap : scaling ? "64m" : "2g";
        if (scaling) {
            // One run per size and round, no warm-up: what is measured is whether a file fits, not how fast it goes.
            return new Bench.Plan(heapScaling, chosen, 0, 1, rounds, xmx, data, out.resolve("work"), false, true);
        }
        return new Bench.Plan(sizes, chosen, warmups, runs != null ? runs : 5, rounds, xmx, data, out.resolve("work"),
                heapSearch, false);
    }

    static void write(Bench.Results results, Path out) throws Exception {
        Files.createDirectories(out);
        Files.writeString(out.resolve("report.md"), Report.full(results));
        Charts.write(results, out);
        deleteRecursively(out.resolve("work"));
    }

    static void updateReadme(Path readme, String marker, String section) throws Exception {
        int[] at = markers(readme, marker);
        String text = Files.readString(readme);
        Files.writeString(readme, text.substring(0, at[0]) + section + text.substring(at[1]));
    }

    /** Where the section between a marker's start and end lies in the README; refused if it has none. */
    private static int[] markers(Path readme, String marker) throws Exception {
        String start = "<!-- " + marker + ":start -->\n";
        String end = "<!-- " + marker + ":end -->";
        String text = Files.readString(readme);
        int from = text.indexOf(start);
        int to = text.indexOf(end);
        if (from < 0 || to < from) {
            throw new IllegalStateException(readme + " has no " + start.strip() + " ... " + end + " markers");
        }
        return new int[] {from + start.length(), to};
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
