package io.xmlingest.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xmlingest.app.AppProcess.Result;
import io.xmlingest.app.cli.ExitCodes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's own schema, not the sample: the README's commands, run as a user runs them, compile
 * examples/shop/shop.xsd into a model jar and ingest orders with it into a real broker.
 */
class ByoModelIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path EXAMPLES = Path.of("../examples/shop").toAbsolutePath().normalize();
    private static final String ORDER = "{urn:example:shop}order";

    @TempDir
    static Path dir;
    static Path model;

    @BeforeAll
    static void compileTheModel() throws Exception {
        Result compiled = AppProcess.run(dir, Map.of(), "model", "compile", "--xsd",
                EXAMPLES.resolve("shop.xsd").toString(), "--out", "shop-model.jar");
        assertThat(compiled.exit()).as(compiled.stderr()).isZero();
        assertThat(compiled.stdout()).contains("  record.element=" + ORDER + "  record.class=example.shop.Order");
        model = dir.resolve("shop-model.jar");
        assertThat(model).exists();
    }

    private static Result ingest(Path file, String topic, String... more) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of("ingest", file.toString(), "--topic", topic,
                "--bootstrap-servers", TestBroker.bootstrapServers(), "-s", "model.path=" + model,
                "-s", "record.element=" + ORDER, "-s", "record.class=example.shop.Order"));
        args.addAll(List.of(more));
        return AppProcess.run(dir, Map.of(), args.toArray(String[]::new));
    }

    private static Map<String, JsonNode> byKey(List<ConsumerRecord<byte[], byte[]>> records) throws Exception {
        Map<String, JsonNode> out = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            String key = new String(r.key(), StandardCharsets.UTF_8);
            assertThat(out.put(key, JSON.readTree(r.value()))).as("key %s once", key).isNull();
        }
        return out;
    }

    @Test
    void theExampleOrdersArriveTypedAsTheReadmeShows() throws Exception {
        String topic = TestBroker.uniqueTopic("orders");
        Result run = ingest(EXAMPLES.resolve("orders.xml"), topic);
        assertThat(run.exit()).as(run.stderr()).isZero();

        Map<String, JsonNode> orders = byKey(TestBroker.readCommitted(TestBroker.bootstrapServers(), topic));
        assertThat(orders).containsOnlyKeys("A-1001", "A-1002", "A-1003");
        assertThat(orders.get("A-1001").toString()).isEqualTo(JSON.readTree("{\"id\":\"A-1001\",\"priority\":true,"
                + "\"placed\":\"2026-11-22T09:15:00+01:00\",\"customer\":{\"number\":4711,\"name\":\"Ana Lima\","
                + "\"email\":\"ana@example.org\",\"country\":\"PT\"},\"status\":\"paid\",\"line\":[{\"sku\":\"LAMP-01\","
                + "\"quantity\":2,\"unitPrice\":{\"currency\":\"EUR\",\"value\":24.90}},{\"sku\":\"BULB-E27\",\"quantity\":6,"
                + "\"unitPrice\":{\"currency\":\"EUR\",\"value\":3.50}}],\"discount\":5.00,\"deliverBy\":\"2026-11-27\"}")
                .toString());
        // Decimals exactly as written, an explicit xsi:nil as null, a missing optional element left out.
        String raw = new String(TestBroker.readCommitted(TestBroker.bootstrapServers(), topic).stream()
                .filter(r -> new String(r.key(), StandardCharsets.UTF_8).equals("A-1002")).findFirst().orElseThrow()
                .value(), StandardCharsets.UTF_8);
        assertThat(raw).contains("\"value\":2999.00").endsWith(",\"note\":null}").doesNotContain("discount");
        assertThat(orders.get("A-1003").get("note").asText()).isEqualTo("Leave at the back door");
        // A-1002 has no priority attribute; the schema's default is what it means, and xjc keeps it only in the getter.
        assertThat(orders.get("A-1002").get("priority")).isNotNull();
        assertThat(orders.get("A-1002").get("priority").isBoolean()).isTrue();
        assertThat(orders.get("A-1002").get("priority").asBoolean()).isFalse();
    }

    @Test
    void theWorkerIngestsWithTheModelFromAConfigFile() throws Exception {
        String topic = TestBroker.uniqueTopic("orders-worker");
        Path config = Files.writeString(dir.resolve("shop.properties"), String.join("\n",
                "model.path=" + model, "record.element=" + ORDER, "record.class=example.shop.Order",
                "record.schema=" + EXAMPLES.resolve("shop.xsd"), "inbox.settle.ms=0", ""));
        Path inbox = Files.createDirectories(dir.resolve("inbox-" + topic));
        List<String> command = List.of(AppProcess.javaBin(), "-jar", AppProcess.appJar(), "worker", "--inbox",
                inbox.toString(), "--topic", topic, "--bootstrap-servers", TestBroker.bootstrapServers(),
                "--http-port", "-1", "--config", config.toString());
        Path log = dir.resolve(topic + ".log");
        Process worker = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        try {
            Files.copy(EXAMPLES.resolve("orders.xml"), inbox.resolve("orders.xml.part"));
            Files.move(inbox.resolve("orders.xml.part"), inbox.resolve("orders.xml"));
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(2);
            while (!Files.exists(inbox.resolve("done/orders.xml")) && System.nanoTime() < deadline && worker.isAlive()) {
                Thread.sleep(100);
            }
            assertThat(inbox.resolve("done/orders.xml")).as(Files.readString(log)).exists();
        } finally {
            worker.destroy();
            worker.waitFor(30, java.util.concurrent.TimeUnit.SECONDS);
        }

        Map<String, JsonNode> orders = byKey(TestBroker.readCommitted(TestBroker.bootstrapServers(), topic));
        assertThat(orders).containsOnlyKeys("A-1001", "A-1002", "A-1003");
        // Read as written: a double would pass 3.5 for 3.50.
        String a1001 = JSON.writeValueAsString(orders.get("A-1001"));
        assertThat(TestBroker.readCommitted(TestBroker.bootstrapServers(), topic).stream()
                .filter(r -> new String(r.key(), StandardCharsets.UTF_8).equals("A-1001"))
                .map(r -> new String(r.value(), StandardCharsets.UTF_8)).findFirst().orElseThrow())
                .contains("\"unitPrice\":{\"currency\":\"EUR\",\"value\":3.50}").contains("\"discount\":5.00");
        assertThat(a1001).contains("\"deliverBy\":\"2026-11-27\"");
        assertThat(orders.get("A-1002").get("status").asText()).isEqualTo("placed");
        List<JsonNode> status = new java.util.ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : TestBroker.readCommitted(TestBroker.bootstrapServers(), topic + ".status")) {
            status.add(JSON.readTree(r.value()));
        }
        assertThat(status).anySatisfy(e -> {
            assertThat(e.get("event").asText()).isEqualTo("completed");
            assertThat(e.get("records").asInt()).isEqualTo(3);
            assertThat(e.get("deadLetters").asInt()).isZero();
        });
    }

    @Test
    void manyOrdersOnceEachAndTheBadOnesRejectedWithWhereAndWhy() throws Exception {
        int count = 20_000;
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<orders xmlns=\"urn:example:shop\">\n");
        for (int i = 0; i < count; i++) {
            // Record 1234 has a quantity that does not bind (on line 3 + 2 * 1234 + 1); 4321 a country only the
            // schema's pattern refuses (a quantity of 0 is now refused by the strict xs:positiveInteger binding itself).
            String quantity = i == 1234 ? "many" : Integer.toString(1 + i % 9);
            String country = i == 4321 ? "Germany" : "DE";
            xml.append("<order id=\"G-").append(i).append("\"><placed>2026-11-2").append(i % 10).append("T08:00:00Z</placed>")
                    .append("<customer number=\"").append(i * 7L).append("\"><name>C").append(i).append("</name>")
                    .append("<country>").append(country).append("</country></customer><status>").append(i % 3 == 0 ? "paid" : "placed")
                    .append("</status>\n<line sku=\"S-").append(i % 50).append("\"><quantity>").append(quantity)
                    .append("</quantity><unitPrice currency=\"EUR\">").append(i % 100).append(".99</unitPrice></line>")
                    .append("</order>\n");
        }
        Path file = Files.writeString(dir.resolve("many-orders.xml"), xml.append("</orders>\n").toString());
        String topic = TestBroker.uniqueTopic("orders");

        Result run = ingest(file, topic, "-s", "record.schema=" + EXAMPLES.resolve("shop.xsd"));

        assertThat(run.exit()).as(run.stderr()).isEqualTo(ExitCodes.RECORDS_REJECTED);
        assertThat(run.stderr()).contains("many-orders.xml").contains("record index 1234").contains("line 2472")
                .contains("column").contains("many");
        assertThat(run.stderr()).contains("record index 4321").contains("record is not valid against the schema")
                .contains("record.schema");
        Map<String, JsonNode> orders = byKey(TestBroker.readCommitted(TestBroker.bootstrapServers(), topic));
        Set<String> expected = new HashSet<>();
        for (int i = 0; i < count; i++) {
            if (i != 1234 && i != 4321) {
                expected.add("G-" + i);
            }
        }
        assertThat(orders.keySet()).isEqualTo(expected);
        assertThat(orders.get("G-42").get("line").get(0).get("unitPrice").get("value").decimalValue())
                .isEqualByComparingTo("42.99");
    }

    @Test
    void aClassThatIsNotInTheModelNamesWhereItWasLookedFor() throws Exception {
        Result run = AppProcess.run(dir, Map.of(), "ingest", EXAMPLES.resolve("orders.xml").toString(), "--topic", "x",
                "--bootstrap-servers", TestBroker.bootstrapServers(), "-s", "model.path=" + model,
                "-s", "record.element=" + ORDER, "-s", "record.class=example.shop.Nope");
        assertThat(run.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.stderr()).contains("record class example.shop.Nope is not in model.path").contains("shop-model.jar");
    }
}
