package io.xmlingest.app.worker;

import static io.xmlingest.app.worker.WorkerHarness.await;
import static io.xmlingest.app.worker.WorkerHarness.header;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.xmlingest.app.TestBroker;
import io.xmlingest.core.pipeline.shop.ShopInvoice;
import io.xmlingest.core.pipeline.shop.ShopOrder;
import io.xmlingest.core.publish.MessageHeaders;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One file of orders and invoices, fanned out by the worker to a topic per type against a real
 * broker, validated against an XML Schema, stopped midway and finished by the next run: every
 * valid record once on its type's topic, every invalid one once in the dead letters.
 */
class FanOutWorkerIT {

    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final int PAIRS = 10_000;

    @TempDir
    Path dir;

    @Test
    void ordersAndInvoicesOfOneFileReachTheirOwnTopicsExactlyOnceAcrossAStop() throws Exception {
        Path schema = Path.of("../ingest-core/src/test/resources/shop/shop.xsd").toAbsolutePath();
        WorkerHarness h = new WorkerHarness(TestBroker.bootstrapServers(), dir.resolve("inbox"), "page.max.records", "50");
        String invoices = h.topic + "-invoices";
        h.settings.put("topic", h.topic + "," + invoices);
        h.settings.put("record.element", "{urn:test:shop}order,{urn:test:shop}invoice");
        h.settings.put("record.class", ShopOrder.class.getName() + "," + ShopInvoice.class.getName());
        h.settings.put("record.key", "id,no");
        h.settings.put("record.schema", schema.toString());
        h.settings.put("file.max.rejected.records", "10000");

        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<shop xmlns=\"urn:test:shop\">\n");
        for (int i = 0; i < PAIRS; i++) {
            // Every 100th order has a quantity the schema refuses but JAXB would take.
            String quantity = i % 100 == 7 ? "0" : "3";
            xml.append("<order id=\"o").append(i).append("\"><customer>c").append(i).append("</customer><quantity>")
                    .append(quantity).append("</quantity><total>").append(i).append(".25</total></order>\n")
                    .append("<invoice no=\"i").append(i).append("\"><order>o").append(i).append("</order><amount>")
                    .append(i).append(".25</amount></invoice>\n");
        }
        Path source = Files.writeString(dir.resolve("shop.xml"), xml.append("</shop>\n").toString());

        try (WorkerHarness.Running w = h.start()) {
            h.drop(source, "shop.xml");
            await("some pages committed", WAIT, () -> w.worker().metrics().scrape()
                    .matches("(?s).*xmlingest_records_total [1-9][0-9]{2,}.*"));
        }
        assertThat(h.done("shop.xml")).doesNotExist();
        try (WorkerHarness.Running w = h.start()) {
            await("shop.xml done", WAIT, () -> Files.exists(h.done("shop.xml")));
        }

        List<ConsumerRecord<byte[], byte[]>> orders = TestBroker.readCommitted(h.bootstrap, h.topic);
        List<ConsumerRecord<byte[], byte[]>> invoiceRecords = TestBroker.readCommitted(h.bootstrap, invoices);
        Set<String> orderKeys = keysOnce(orders);
        Set<String> invoiceKeys = keysOnce(invoiceRecords);
        int invalid = PAIRS / 100;
        assertThat(orderKeys).hasSize(PAIRS - invalid).allMatch(k -> k.startsWith("o")).doesNotContain("o7", "o107");
        assertThat(invoiceKeys).hasSize(PAIRS).allMatch(k -> k.startsWith("i"));
        // Indexes are the records' places in the file, over both types: orders even, invoices odd.
        assertThat(orders).allMatch(r -> header(r, MessageHeaders.RECORD_INDEX) % 2 == 0);
        assertThat(invoiceRecords).allMatch(r -> header(r, MessageHeaders.RECORD_INDEX) % 2 == 1);
        JsonNode invoice = WorkerHarness.JSON.readTree(new String(invoiceRecords.get(0).value(), StandardCharsets.UTF_8));
        assertThat(invoice.fieldNames()).toIterable().containsExactly("no", "order", "amount");

        List<JsonNode> dead = h.deadLetters();
        assertThat(dead).hasSize(invalid);
        List<Long> deadIndexes = new ArrayList<>();
        dead.forEach(d -> deadIndexes.add(d.get("recordIndex").asLong()));
        assertThat(new HashSet<>(deadIndexes)).hasSize(invalid).allMatch(i -> i % 200 == 14);
        assertThat(dead.get(0).get("error").asText()).contains("record is not valid against the schema", "positiveInteger");
        List<JsonNode> status = h.status();
        assertThat(status).extracting(s -> s.get("event").asText()).containsExactly("started", "completed");
        assertThat(status.get(1).get("records").asLong()).isEqualTo(2L * PAIRS - invalid);
    }

    private static Set<String> keysOnce(List<ConsumerRecord<byte[], byte[]>> records) {
        Set<String> keys = new HashSet<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            assertThat(keys.add(new String(r.key(), StandardCharsets.UTF_8))).as("key published once").isTrue();
        }
        return keys;
    }
}
