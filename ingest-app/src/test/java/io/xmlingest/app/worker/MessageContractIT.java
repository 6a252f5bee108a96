package io.xmlingest.app.worker;

import static io.xmlingest.app.worker.WorkerHarness.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import io.xmlingest.app.AppProcess;
import io.xmlingest.app.ReadmeExamples;
import io.xmlingest.app.TestBroker;
import io.xmlingest.core.publish.MessageHeaders;
import io.xmlingest.datagen.DatagenCommand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's message format, checked against real messages: the documented value of the example
 * person, the record headers, and the worker's status events, dead letters and checkpoints, which
 * must have the documented field names and JSON types (times and ids differ from run to run).
 */
class MessageContractIT {

    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    private static final Duration WAIT = Duration.ofMinutes(2);
    /** The record topic the README's commands use; the worker's other topics are named after it. */
    private static final String README_TOPIC = "persons";

    private final ReadmeExamples readme = ReadmeExamples.load();

    @TempDir
    Path dir;

    @Test
    void theExamplePersonIngestedGivesTheDocumentedValueKeyAndHeaders() throws Exception {
        String bootstrap = TestBroker.bootstrapServers();
        String topic = TestBroker.uniqueTopic("contract");
        Files.writeString(dir.resolve("person.xml"), "<persons xmlns=\"urn:xmlingest:sample:persons\">\n"
                + readme.block("record-xml") + "\n</persons>\n");

        AppProcess.Result ingest = AppProcess.run(dir, Map.of(), "ingest", "person.xml", "--topic", topic,
                "--bootstrap-servers", bootstrap);
        assertThat(ingest.exit()).as(ingest.stderr()).isZero();
        List<ConsumerRecord<byte[], byte[]>> records = TestBroker.readCommitted(bootstrap, topic);
        assertThat(records).hasSize(1);
        ConsumerRecord<byte[], byte[]> record = records.get(0);

        JsonNode value = JSON.readTree(record.value());
        assertThat(value).isEqualTo(JSON.readTree(readme.block("value-example")));
        assertThat(new String(record.value(), StandardCharsets.UTF_8)).as("one line").doesNotContain("\n");
        assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo(value.get("id").asText());

        List<String> documented = readme.table("headers").stream().map(row -> row.get(0).replace("`", "")).toList();
        assertThat(headerNames(record)).containsExactlyInAnyOrderElementsOf(documented);
        assertThat(header(record, MessageHeaders.FILE)).isEqualTo("person.xml");
        assertThat(header(record, MessageHeaders.RECORD_INDEX)).isEqualTo("0");

        // The schema the README tells consumers to generate accepts the documented value.
        AppProcess.Result schema = AppProcess.run(dir, Map.of(), "schema", "--out", "person.schema.json");
        assertThat(schema.exit()).as(schema.stderr()).isZero();
        JsonSchema validator = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
                .getSchema(Files.readString(dir.resolve("person.schema.json")));
        assertThat(validator.validate(value)).isEmpty();
        AppProcess.Result stdout = AppProcess.run(dir, Map.of(), "schema");
        assertThat(stdout.exit()).as(stdout.stderr()).isZero();
        assertThat(JSON.readTree(String.join("\n", stdout.stdout())))
                .isEqualTo(JSON.readTree(dir.resolve("person.schema.json").toFile()));
        AppProcess.Result schemaless = AppProcess.run(dir, Map.of(), "schema", "-s", "record.class=-");
        assertThat(schemaless.exit()).isEqualTo(2);
        assertThat(schemaless.stderr()).contains("record.class", "schema-less");
    }

    @Test
    void theWorkersStatusDeadLetterAndCheckpointExamplesHaveTheRealShape() throws Exception {
        String bootstrap = TestBroker.bootstrapServers();
        Path inbox = dir.resolve("inbox");
        // A commit after every page, so an in-progress checkpoint exists however fast the machine is.
        WorkerHarness h = new WorkerHarness(bootstrap, inbox, "page.max.records", "100", "commit.interval.ms", "0");
        Path good = DatagenCommand.generate(dir.resolve("good.xml"), 300, 11, 0.05);
        String text = Files.readString(good);
        int cut = text.indexOf("<person", text.length() / 2) + 25;
        Path broken = Files.writeString(dir.resolve("broken.xml"), text.substring(0, cut) + "<oops></persons>\n");
        try (WorkerHarness.Running w = h.start()) {
            h.drop(good, "good.xml");
            await("good.xml done", WAIT, () -> Files.exists(h.done("good.xml")));
            h.drop(broken, "broken.xml");
            await("broken.xml failed", WAIT, () -> Files.exists(h.failed("broken.xml")));
        }

        List<ConsumerRecord<byte[], byte[]>> status = TestBroker.readCommitted(bootstrap, h.topic + ".status");
        Map<String, JsonNode> events = new LinkedHashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : status) {
            JsonNode event = JSON.readTree(r.value());
            events.putIfAbsent(event.get("event").asText(), event);
            assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo(event.get("fileId").asText());
            assertThat(headerNames(r)).containsExactlyInAnyOrder(MessageHeaders.FILE, MessageHeaders.FILE_ID);
        }
        assertThat(events).containsOnlyKeys("started", "completed", "failed");
        for (JsonNode example : jsonLines(readme.block("status-example"))) {
            JsonNode real = events.get(example.get("event").asText());
            assertThat(real).as("a real %s event", example.get("event")).isNotNull();
            assertThat(shape(example)).as("README %s event vs real %s", example, real).isEqualTo(shape(real));
        }
        Set<String> documentedEvents = new TreeSet<>();
        jsonLines(readme.block("status-example")).forEach(e -> documentedEvents.add(e.get("event").asText()));
        assertThat(documentedEvents).containsExactlyInAnyOrder("started", "completed", "failed");

        List<ConsumerRecord<byte[], byte[]>> dlq = TestBroker.readCommitted(bootstrap, h.topic + ".dlq");
        assertThat(dlq).isNotEmpty();
        for (ConsumerRecord<byte[], byte[]> r : dlq) {
            JsonNode letter = JSON.readTree(r.value());
            assertThat(new String(r.key(), StandardCharsets.UTF_8))
                    .isEqualTo(letter.get("fileId").asText() + ":" + letter.get("recordIndex").asLong());
            assertThat(headerNames(r)).containsExactlyInAnyOrder(MessageHeaders.FILE, MessageHeaders.FILE_ID,
                    MessageHeaders.RECORD_INDEX);
            for (JsonNode example : jsonLines(readme.block("dead-letter-example"))) {
                assertThat(shape(example)).as("README dead letter vs real %s", letter).isEqualTo(shape(letter));
            }
            assertThat(letter.get("position").isObject()).isTrue();
            letter.get("position").fieldNames().forEachRemaining(
                    name -> assertThat(POSITION_FIELDS).as("documented position fields").contains(name));
        }

        List<ConsumerRecord<byte[], byte[]>> checkpoints = TestBroker.readCommitted(bootstrap, h.topic + ".checkpoints");
        Map<String, JsonNode> states = new LinkedHashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : checkpoints) {
            JsonNode checkpoint = JSON.readTree(r.value());
            states.putIfAbsent(checkpoint.get("state").asText(), checkpoint);
            assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo(checkpoint.get("fileId").asText());
        }
        for (JsonNode example : jsonLines(readme.block("checkpoint-example"))) {
            JsonNode real = states.get(example.get("state").asText());
            assertThat(real).as("a real %s checkpoint among %s", example.get("state"), states.keySet()).isNotNull();
            assertThat(shape(example)).as("README %s vs real %s", example, real).isEqualTo(shape(real));
        }

        Set<String> existing = topics(bootstrap);
        for (String block : List.of("kcat-records", "kcat-status")) {
            Matcher m = Pattern.compile("-t (\\S+)").matcher(readme.block(block));
            assertThat(m.find()).as("kcat topic in %s", block).isTrue();
            String named = m.group(1);
            assertThat(named).as("kcat topic in %s", block).startsWith(README_TOPIC);
            // The harness's record topic stands for the README's, so the derived names must exist as named.
            assertThat(existing).as("kcat topic %s", named).contains(h.topic + named.substring(README_TOPIC.length()));
        }
    }

    /** What the README says a position may hold: all of them "as known". */
    private static final List<String> POSITION_FIELDS = List.of("recordIndex", "line", "column", "byteOffset");

    /**
     * Field names and JSON types, recursively; the values themselves are left out, and so is a
     * position's byte offset, which the README documents as present only when known.
     */
    static Object shape(JsonNode node) {
        if (node.isObject()) {
            Map<String, Object> fields = new java.util.TreeMap<>();
            node.fields().forEachRemaining(e -> fields.put(e.getKey(), shape(e.getValue())));
            if (fields.get("position") instanceof Map<?, ?> position) {
                Map<Object, Object> known = new java.util.TreeMap<>(position);
                known.remove("byteOffset");
                fields.put("position", known);
            }
            return fields;
        }
        if (node.isArray()) {
            List<Object> items = new ArrayList<>();
            node.forEach(item -> items.add(shape(item)));
            return items.stream().distinct().toList();
        }
        return node.isNumber() ? "number" : node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    }

    static List<JsonNode> jsonLines(String block) throws IOException {
        List<JsonNode> values = new ArrayList<>();
        JSON.readerFor(JsonNode.class).<JsonNode>readValues(block).forEachRemaining(values::add);
        return values;
    }

    private static List<String> headerNames(ConsumerRecord<byte[], byte[]> r) {
        List<String> names = new ArrayList<>();
        for (Header h : r.headers()) {
            names.add(h.key());
        }
        return names;
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        return new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    private static Set<String> topics(String bootstrap) throws Exception {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(p)) {
            return admin.listTopics().names().get();
        }
    }
}
