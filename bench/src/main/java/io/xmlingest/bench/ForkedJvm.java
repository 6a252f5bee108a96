package io.xmlingest.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Runs one (strategy, size) in a JVM of its own and reads back its figures, or why it failed. */
final class ForkedJvm {

    private final Path workDir;
    private final long timeoutMinutes;

    ForkedJvm(Path workDir, long timeoutMinutes) {
        this.workDir = workDir;
        this.timeoutMinutes = timeoutMinutes;
    }

    /**
     * The same collector for every strategy. G1, the default, cost the multi-threaded worker path
     * about 4 us of CPU per record more than the parallel collector (13.8 against 18 us in one
     * in-process run of 1M records), its write barriers taxing every reference a record's objects
     * pass between threads; the single-threaded strategies lose or gain little either way.
     */
    static final String GC = "-XX:+UseParallelGC";

    Measurement run(String strategy, Path file, long records, int warmups, int runs, String heap, String bootstrap)
            throws IOException, InterruptedException {
        return run(strategy, file, records, warmups, runs, heap, bootstrap, 0);
    }

    /** As {@link #run}, with the live heap read at {@code livePoints} fixed points of each counted run (see {@link LiveHeapSampler}). */
    Measurement run(String strategy, Path file, long records, int warmups, int runs, String heap, String bootstrap,
                    int livePoints) throws IOException, InterruptedException {
        long fileBytes = Files.size(file);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Files.createDirectories(workDir);
        Path out = Files.createTempFile(workDir, strategy + "-", ".out");
        Path err = Files.createTempFile(workDir, strategy + "-", ".err");
        Process p = new ProcessBuilder(List.of(java, "-Xmx" + heap, GC, "-XX:+ExitOnOutOfMemoryError",
                "-Djava.awt.headless=true", "-cp", System.getProperty("java.class.path"),
                StrategyRunner.class.getName(), strategy, file.toString(), Long.toString(records),
                Integer.toString(warmups), Integer.toString(runs), bootstrap == null ? "-" : bootstrap,
                Integer.toString(livePoints)))
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            if (!p.waitFor(timeoutMinutes, TimeUnit.MINUTES)) {
                p.destroyForcibly().waitFor();
                return Measurement.failed(strategy, records, fileBytes, Measurement.Status.FAILED,
                        "did not finish within " + timeoutMinutes + " minutes", heap);
            }
            String stdout = Files.readString(out);
            String stderr = Files.readString(err);
            // The JVM prints its ExitOnOutOfMemoryError notice on stdout; an OOM caught and rethrown shows on stderr.
            if (stderr.contains("OutOfMemoryError") || stdout.contains("OutOfMemoryError")) {
                return Measurement.failed(strategy, records, fileBytes, Measurement.Status.OUT_OF_MEMORY,
                        "out of memory at -Xmx" + heap + outOfWhat(stdout + "\n" + stderr), heap);
            }
            String line = stdout.lines().filter(l -> l.startsWith(StrategyRunner.PREFIX)).findFirst().orElse(null);
            if (p.exitValue() != 0 || line == null) {
                return Measurement.failed(strategy, records, fileBytes, Measurement.Status.FAILED,
                        "exit " + p.exitValue() + ": " + firstError(stderr), heap);
            }
            return parse(line.substring(StrategyRunner.PREFIX.length()), records, fileBytes, heap);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static Measurement parse(String json, long size, long fileBytes, String heap) throws IOException {
        JsonNode n = new ObjectMapper().readTree(json);
        return new Measurement(n.get("strategy").asText(), size, fileBytes, Measurement.Status.OK, null, heap,
                n.get("records").asLong(), ResultsJson.longs(n.get("nanos")), ResultsJson.longs(n.get("allocated")),
                n.get("peakHeapUsed").asLong(), n.get("peakLiveHeap").asLong(), n.get("maxRss").asLong(),
                ResultsJson.phases(n.get("phases")), n.hasNonNull("verified") ? n.get("verified").asText() : null,
                n.path("sampledLiveHeap").asLong(0), n.path("liveSamples").asInt(0));
    }

    /** Which memory ran out ("Java heap space", "Metaspace", "Direct buffer memory"...), as the JVM words it. */
    static String outOfWhat(String output) {
        Matcher m = Pattern.compile("OutOfMemoryError: ([^\r\n]+)").matcher(output);
        return m.find() ? " (" + m.group(1).strip() + ")" : "";
    }

    /** The most telling line of a failed JVM's stderr: the first exception line, else the last line. */
    private static String firstError(String stderr) {
        List<String> lines = stderr.lines().filter(l -> !l.isBlank()).toList();
        for (String l : lines) {
            if (l.contains("Exception") || l.contains("Error")) {
                return l.strip();
            }
        }
        return lines.isEmpty() ? "no output" : lines.get(lines.size() - 1).strip();
    }
}
