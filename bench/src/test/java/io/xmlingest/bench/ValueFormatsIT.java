package io.xmlingest.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xmlingest.bench.formats.AvroValueFormat;
import io.xmlingest.bench.formats.FieldValues;
import io.xmlingest.bench.formats.FileRecords;
import io.xmlingest.bench.formats.JsonValueFormat;
import io.xmlingest.sample.persons.Person;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The value-formats mode at 2,000 records against the bench's real broker, and the Avro values proven against JSON. */
class ValueFormatsIT {

    @TempDir
    Path dir;

    @Test
    void everyFormatAndCompressionIsMeasuredAndWrittenIntoTheReadme() throws Exception {
        Path out = dir.resolve("report");
        Path readme = dir.resolve("README.md");
        Files.writeString(readme, "# x\n<!-- bench-value-formats:start -->\nold\n<!-- bench-value-formats:end -->\nafter\n");
        int exit = new CommandLine(new BenchCommand()).execute("--value-formats", "--records", "2000", "--runs", "1",
                "--heap", "512m", "--out", out.toString(), "--data", dir.resolve("data").toString(),
                "--update-readme", readme.toString());
        assertThat(exit).isZero();

        JsonNode results = new ObjectMapper().readTree(out.resolve("results.json").toFile());
        String report = Files.readString(out.resolve("report.md"));
        for (String format : ValueFormats.FORMATS) {
            JsonNode f = ValueFormats.format(results, format);
            assertThat(f.get("records").asLong()).as(format).isEqualTo(2000);
            assertThat(f.get("valueBytes").asLong()).as(format).isPositive();
            assertThat(f.get("encodeNanos")).as(format).hasSize(1);
            for (String compression : ValueFormats.COMPRESSIONS) {
                JsonNode c = ValueFormats.produce(f, compression);
                assertThat(c.get("logBytes").get(0).asLong()).as("%s %s on disk", format, compression).isPositive();
                assertThat(c.get("nanos").get(0).asLong()).as("%s %s produce", format, compression).isPositive();
                assertThat(report).containsPattern("\\| " + format + " \\| " + compression
                        + " \\| [0-9.]+ \\| [0-9.]+ \\| [0-9.]+x \\| [0-9,]+ \\| [0-9.]+x \\|");
            }
        }
        // Compression must show on the broker's disk, or the size is not the compressed one.
        for (String format : ValueFormats.FORMATS) {
            JsonNode f = ValueFormats.format(results, format);
            assertThat(ValueFormats.median(ValueFormats.produce(f, "zstd").get("logBytes")))
                    .as(format).isLessThan(ValueFormats.median(ValueFormats.produce(f, "none").get("logBytes")));
        }
        // Uncompressed, the log holds every value plus per-record and per-batch overhead.
        JsonNode json = ValueFormats.format(results, "json");
        assertThat(ValueFormats.median(ValueFormats.produce(json, "none").get("logBytes")))
                .isGreaterThan(json.get("valueBytes").asLong());
        assertThat(ValueFormats.format(results, "avro").get("verified").asText())
                .isEqualTo("the first 1000 Avro values decode to the same field values as their JSON");
        assertThat(report).contains("| json | lz4 | ").contains("| avro | ").contains("consumer decode records/s");

        String updated = Files.readString(readme);
        assertThat(updated).doesNotContain("old").endsWith("<!-- bench-value-formats:end -->\nafter\n")
                .contains("| avro | zstd | ").contains("report/report.md");
    }

    @Test
    void avroValuesDecodeToTheSameFieldValuesAsJson() throws Exception {
        Path file = Bench.dataFile(dir.resolve("data"), 2000);
        AvroValueFormat avro = new AvroValueFormat(Person.class);
        JsonValueFormat json = new JsonValueFormat();
        FieldValues fields = new FieldValues(avro.schema());
        List<Object> fromJson = new ArrayList<>();
        List<Object> fromAvro = new ArrayList<>();
        List<Integer> sizes = new ArrayList<>();
        long read = FileRecords.forEach(file, 2000, r -> {
            byte[] a = avro.encode(r);
            fromJson.add(fields.fromJson(json.encode(r)));
            fromAvro.add(fields.fromAvro(a));
            sizes.add(a.length);
        });
        assertThat(read).isEqualTo(2000);
        assertThat(fromAvro).isEqualTo(fromJson);
        // Every field of the model is carried, not an empty record that trivially matches.
        @SuppressWarnings("unchecked")
        Map<String, Object> first = (Map<String, Object>) fromAvro.get(0);
        assertThat(first.keySet()).containsExactly("id", "firstName", "lastName", "email", "birthDate", "active",
                "salary", "phone", "address");
        assertThat(first.get("id")).isEqualTo("1");
        assertThat(sizes).allMatch(s -> s > 50);
    }
}
