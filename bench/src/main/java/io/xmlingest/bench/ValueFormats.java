package io.xmlingest.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.xmlingest.app.kafka.EmbeddedKafkaBroker;
import io.xmlingest.core.config.IngestSettings;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * {@code --value-formats}: each value format in a forked JVM against one broker, then a report of
 * bytes per record (as sent and as stored) and throughput, each against JSON with lz4 (today's
 * default) measured in the same run.
 */
final class ValueFormats {

    static final List<String> FORMATS = List.of("json", "xml", "avro");
    static final List<String> COMPRESSIONS = List.of("none", "lz4", "zstd", "gzip", "snappy");
    static final String MARKER = "bench-value-formats";

    private ValueFormats() {
    }

    static ObjectNode run(long records, int runs, Path dataDir, Path workDir, String heap, PrintStream log)
            throws Exception {
        ObjectNode results = new ObjectMapper().createObjectNode();
        results.put("startedAt", Report.startedAt())
                .put("machine", Report.machine()).put("records", records).put("runs", runs)
                .put("loadBefore", Report.loadAverage());
        Path file = Bench.dataFile(dataDir, records);
        Files.createDirectories(workDir);
        ArrayNode formats = results.putArray("formats");
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(Files.createTempDirectory(workDir, "kafka"),
                "127.0.0.1", 0)) {
            for (String format : FORMATS) {
                JsonNode m = fork(format, file, records, runs, heap, broker.bootstrapServers(), workDir);
                log.println(format + ": " + m);
                formats.add(m);
            }
        }
        results.put("loadAfter", Report.loadAverage());
        return results;
    }

    private static JsonNode fork(String format, Path file, long records, int runs, String heap, String bootstrap,
            Path workDir) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path out = Files.createTempFile(workDir, format + "-", ".out");
        Path err = Files.createTempFile(workDir, format + "-", ".err");
        Process p = new ProcessBuilder(List.of(java, "-Xmx" + heap, ForkedJvm.GC, "-XX:+ExitOnOutOfMemoryError",
                "-cp", System.getProperty("java.class.path"), ValueFormatRunner.class.getName(), format,
                file.toString(), Long.toString(records), Integer.toString(runs), bootstrap, String.join(",", COMPRESSIONS)))
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(60, TimeUnit.MINUTES)) {
            p.destroyForcibly().waitFor();
            throw new IllegalStateException(format + ": did not finish within 60 minutes");
        }
        String line = Files.readString(out).lines().filter(l -> l.startsWith(ValueFormatRunner.PREFIX)).findFirst()
                .orElse(null);
        if (p.exitValue() != 0 || line == null) {
            throw new IllegalStateException(format + ": exit " + p.exitValue() + "\n" + Files.readString(err));
        }
        return new ObjectMapper().readTree(line.substring(ValueFormatRunner.PREFIX.length()));
    }

    static long median(JsonNode values) {
        long[] v = new long[values.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = values.get(i).asLong();
        }
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    static JsonNode format(JsonNode results, String name) {
        for (JsonNode f : results.get("formats")) {
            if (f.get("format").asText().equals(name)) {
                return f;
            }
        }
        throw new IllegalArgumentException("no figures for format " + name);
    }

    static JsonNode produce(JsonNode format, String compression) {
        for (JsonNode c : format.get("produce")) {
            if (c.get("compression").asText().equals(compression)) {
                return c;
            }
        }
        throw new IllegalArgumentException("no figures for " + format.get("format").asText() + " with " + compression);
    }

    /** One row per format and compression: value and on-disk bytes per record, produce rate, ratios to json+lz4. */
    record Row(String format, String compression, double valueBytes, double diskBytes, double produceRate) {
    }

    static List<Row> rows(JsonNode results) {
        List<Row> rows = new ArrayList<>();
        for (JsonNode f : results.get("formats")) {
            double records = f.get("records").asDouble();
            for (JsonNode c : f.get("produce")) {
                rows.add(new Row(f.get("format").asText(), c.get("compression").asText(),
                        f.get("valueBytes").asDouble() / records, median(c.get("logBytes")) / records,
                        records / (median(c.get("nanos")) / 1e9)));
            }
        }
        return rows;
    }

    static double rate(JsonNode format, String field) {
        return format.has(field) ? format.get("timedRecords").asDouble() / (median(format.get(field)) / 1e9) : Double.NaN;
    }

    static String tables(JsonNode results) {
        Row base = rows(results).stream().filter(r -> r.format().equals("json") && r.compression().equals("lz4"))
                .findFirst().orElseThrow();
        StringBuilder s = new StringBuilder();
        s.append("| format | compression | value bytes/record | on disk bytes/record | vs json+lz4 | produce records/s | vs json+lz4 |\n");
        s.append("|---|---|---|---|---|---|---|\n");
        for (Row r : rows(results)) {
            s.append(String.format(Locale.ROOT, "| %s | %s | %.1f | %.1f | %.2fx | %,.0f | %.2fx |%n", r.format(),
                    r.compression(), r.valueBytes(), r.diskBytes(), r.diskBytes() / base.diskBytes(), r.produceRate(),
                    r.produceRate() / base.produceRate()));
        }
        JsonNode json = format(results, "json");
        s.append("\n| format | encode records/s (1 thread) | vs json | consumer decode records/s | vs json |\n");
        s.append("|---|---|---|---|---|\n");
        for (JsonNode f : results.get("formats")) {
            double enc = rate(f, "encodeNanos");
            double dec = rate(f, "decodeNanos");
            s.append(String.format(Locale.ROOT, "| %s | %,.0f | %.2fx | %s | %s |%n", f.get("format").asText(), enc,
                    enc / rate(json, "encodeNanos"), Double.isNaN(dec) ? "not measured" : String.format(Locale.ROOT, "%,.0f", dec),
                    Double.isNaN(dec) ? "" : String.format(Locale.ROOT, "%.2fx", dec / rate(json, "decodeNanos"))));
        }
        return s.toString();
    }

    static String method(JsonNode results) {
        return String.format(Locale.ROOT, "Measured by `java -jar bench/target/bench.jar --value-formats` on %s; machine: %s; "
                + "load average (1, 5, 15 min) %s before and %s after (the machine is shared); %,d datagen persons, "
                + "median of %d run%s, each format in its own JVM (%s). On disk: the partitions' log size reported by "
                + "the broker (`Admin.describeLogDirs`) after producing every value, keyed by id, to a new %d-partition "
                + "topic with xmlingest's producer settings (idempotent, acks=all, linger %d ms, batch %d KiB) and the "
                + "compression shown; produce: sending them and waiting for every acknowledgement, values already "
                + "encoded. Encode: the format alone on one thread over %,d bound records after two warm-up "
                + "passes; decode: Jackson `readTree` for JSON, a `GenericDatumReader` into a reused record for Avro. "
                + "Avro is binary without a schema id on the wire (a registry's would add 5 bytes).",
                results.get("startedAt").asText().substring(0, 10), results.get("machine").asText(),
                results.get("loadBefore").asText(), results.get("loadAfter").asText(), results.get("records").asLong(),
                results.get("runs").asInt(), results.get("runs").asInt() == 1 ? "" : "s", ForkedJvm.GC, IngestSettings.TOPIC_PARTITIONS.defaultValue().orElseThrow(),
                IngestSettings.LINGER_MS.defaultValue().orElseThrow(),
                IngestSettings.BATCH_SIZE.defaultValue().orElseThrow() / 1024,
                Math.min(results.get("records").asLong(), ValueFormatRunner.SAMPLE));
    }

    static String report(JsonNode results) {
        StringBuilder s = new StringBuilder("# Value formats: bytes per record and throughput\n\n");
        s.append(method(results)).append("\n\n").append(tables(results)).append('\n').append(notes(results));
        return s.toString();
    }

    static String notes(JsonNode results) {
        StringBuilder s = new StringBuilder();
        for (JsonNode f : results.get("formats")) {
            String name = f.get("format").asText();
            if (f.has("verified")) {
                s.append("- ").append(name).append(": ").append(f.get("verified").asText()).append('\n');
            }
            int repeated = f.path("repeatedRuns").asInt();
            if (repeated > 0) {
                s.append("- ").append(name).append(": ").append(repeated).append(" produce run(s) failed with the "
                        + "idempotent producer's out-of-order sequence error on a fresh topic and were repeated\n");
            }
        }
        return s.toString();
    }

    static String readmeSection(JsonNode results, String reportLink) {
        return method(results) + " Full report: [" + reportLink + "](" + reportLink + ").\n\n" + tables(results) + "\n"
                + notes(results);
    }

    static void write(JsonNode results, Path out) throws Exception {
        Files.createDirectories(out);
        new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(out.resolve("results.json").toFile(), results);
        Files.writeString(out.resolve("report.md"), report(results));
    }
}
