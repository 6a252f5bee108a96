package io.xmlingest.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ConfigException;
import io.xmlingest.core.error.RecordRejectedException;
import io.xmlingest.core.page.OutgoingRecord;
import io.xmlingest.core.pipeline.shop.ShopInvoice;
import io.xmlingest.core.pipeline.shop.ShopOrder;
import io.xmlingest.core.publish.InMemoryPagePublisher;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Several record elements of one file, each with its own class, key and topic, in one pass; and schema validation. */
class FanOutTest {

    @TempDir
    Path dir;

    static final String SCHEMA = Path.of("src/test/resources/shop/shop.xsd").toAbsolutePath().toString();

    private static IngestConfig config(String... keyValues) {
        Map<String, String> flags = new HashMap<>(Map.of(
                "record.element", "{urn:test:shop}order,{urn:test:shop}invoice",
                "record.class", ShopOrder.class.getName() + "," + ShopInvoice.class.getName(),
                "record.key", "id,no",
                "topic", "orders,invoices",
                "page.max.records", "4"));
        for (int i = 0; i < keyValues.length; i += 2) {
            flags.put(keyValues[i], keyValues[i + 1]);
        }
        return IngestConfig.of(IngestSettings.ALL, flags);
    }

    private static String order(int id, String quantity) {
        return "  <order id=\"o" + id + "\"><customer>c" + id + "</customer><quantity>" + quantity
                + "</quantity><total>" + id + ".50</total></order>\n";
    }

    private static String invoice(int no, int order) {
        return "  <invoice no=\"i" + no + "\"><order>o" + order + "</order><amount>" + order + ".50</amount></invoice>\n";
    }

    private Path shopFile(String body) throws Exception {
        // The records sit at different depths, under wrappers that are not records.
        return Files.writeString(dir.resolve("shop.xml"), "<?xml version=\"1.0\"?>\n<shop xmlns=\"urn:test:shop\">\n"
                + "<orders>\n" + body + "</orders>\n</shop>\n");
    }

    private static List<OutgoingRecord> published(InMemoryPagePublisher publisher) {
        List<OutgoingRecord> all = new ArrayList<>();
        publisher.pages().forEach(p -> all.addAll(p.records()));
        return all;
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Test
    void eachRecordElementGoesToItsOwnTopicWithItsOwnKeyInFileOrder() throws Exception {
        StringBuilder body = new StringBuilder();
        for (int i = 1; i <= 5; i++) {
            body.append(order(i, String.valueOf(i))).append(invoice(i, i));
        }
        Path f = shopFile(body.toString());
        InMemoryPagePublisher publisher = new InMemoryPagePublisher();

        FileSummary s = IngestionPipeline.create(config(), publisher, IngestListener.NONE).ingest(f);

        assertThat(s.records()).isEqualTo(10);
        assertThat(s.rejected()).isZero();
        List<OutgoingRecord> out = published(publisher);
        assertThat(out).extracting(OutgoingRecord::index).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
        assertThat(out).extracting(OutgoingRecord::topic)
                .containsExactly("orders", "invoices", "orders", "invoices", "orders", "invoices", "orders", "invoices",
                        "orders", "invoices");
        assertThat(out).extracting(r -> text(r.key())).containsExactly("o1", "i1", "o2", "i2", "o3", "i3", "o4", "i4",
                "o5", "i5");
        assertThat(text(out.get(0).value())).isEqualTo("{\"id\":\"o1\",\"customer\":\"c1\",\"quantity\":1,\"total\":1.50}");
        assertThat(text(out.get(1).value())).isEqualTo("{\"no\":\"i1\",\"order\":\"o1\",\"amount\":1.50}");
    }

    @Test
    void oneTopicAndOneKeyMayServeEveryType() throws Exception {
        Path f = shopFile(order(1, "2") + invoice(1, 1));
        InMemoryPagePublisher publisher = new InMemoryPagePublisher();

        IngestionPipeline.create(config("topic", "shop", "record.key", "-"), publisher, IngestListener.NONE).ingest(f);

        List<OutgoingRecord> out = published(publisher);
        assertThat(out).extracting(OutgoingRecord::topic).containsExactly("shop", "shop");
        assertThat(text(out.get(1).key())).endsWith(":1");
    }

    @Test
    void listsThatDoNotLineUpWithTheElementsNameTheSetting() {
        assertThatThrownBy(() -> RecordModel.of(config("topic", "a,b,c")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("topic has 3 entries and record.element 2");
        assertThatThrownBy(() -> RecordModel.of(config("record.class", ShopOrder.class.getName() + ",x,y")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("record.class has 3 entries");
        assertThatThrownBy(() -> RecordModel.of(config("record.key", "id,nope")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("record.key 'nope' is not an attribute or element of " + ShopInvoice.class.getName());
        assertThatThrownBy(() -> config("record.element", "{urn:test:shop}order,{urn:test:shop}order").get(
                IngestSettings.RECORD_ELEMENT))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("an element is named twice");
    }

    @Test
    void aNamespaceUriWithACommaStaysOneElement() {
        IngestConfig c = config("record.element", "{urn:a,b}x", "record.class", ShopOrder.class.getName(),
                "topic", "t", "record.key", "id");
        assertThat(RecordModel.of(c).elements().names()).extracting(Object::toString).containsExactly("{urn:a,b}x");
    }

    @Test
    void recordsThatBindButBreakTheSchemaAreRejectedWithTheValidatorsReason() throws Exception {
        Path f = shopFile(order(1, "3") + order(2, "0") + invoice(1, 1)
                + "  <invoice no=\"i2\"><order>o2</order><amount>2.505</amount></invoice>\n" + order(3, "1"));
        InMemoryPagePublisher publisher = new InMemoryPagePublisher();
        RejectedRecords listener = new RejectedRecords();
        List<RecordRejectedException> rejected = listener.all;

        FileSummary s = IngestionPipeline.create(config("record.schema", SCHEMA), publisher, listener).ingest(f);

        assertThat(s.records()).isEqualTo(3);
        assertThat(published(publisher)).extracting(r -> text(r.key())).containsExactly("o1", "i1", "o3");
        assertThat(rejected).hasSize(2);
        RecordRejectedException zero = rejected.get(0);
        assertThat(zero.getMessage()).contains("record is not valid against the schema").contains("positiveInteger")
                .contains("shop.xml").contains("record index 1").contains("line 5");
        assertThat(zero.settingKey()).contains("record.schema");
        assertThat(rejected.get(1).getMessage()).contains("record is not valid against the schema")
                .contains("2.505").contains("record index 3");
        // Without the schema the same file binds every record: the schema is what refused them.
        InMemoryPagePublisher unchecked = new InMemoryPagePublisher();
        assertThat(IngestionPipeline.create(config(), unchecked, IngestListener.NONE).ingest(f).records()).isEqualTo(5);
    }

    @Test
    void aSchemaThatDoesNotCompileStopsStartUpWithItsPosition() throws Exception {
        Path broken = Files.writeString(dir.resolve("broken.xsd"), "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n"
                + "  <xs:element name=\"x\" type=\"xs:nope\"/>\n</xs:schema>\n");
        assertThatThrownBy(() -> RecordModel.of(config("record.schema", broken.toString())))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("record.schema").hasMessageContaining("broken.xsd").hasMessageContaining("line 2");
        assertThatThrownBy(() -> RecordModel.of(config("record.schema", dir.resolve("missing.xsd").toString())))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("cannot read schema file");
        // config checks the same: it passed both.
        assertThatThrownBy(() -> RecordModel.check(config("record.schema", dir.resolve("missing.xsd").toString())))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("cannot read schema file");
        // A schema it imports that is missing is named at the import: before, the factory passed over it and named
        // the types it then lacked, far from the cause.
        Path importing = Files.writeString(dir.resolve("importing.xsd"), "<xs:schema xmlns:xs=\"http://www.w3.org/2001/"
                + "XMLSchema\" xmlns:c=\"urn:c\">\n  <xs:import namespace=\"urn:c\" schemaLocation=\"gone/c.xsd\"/>\n"
                + "  <xs:element name=\"x\" type=\"c:T\"/>\n</xs:schema>\n");
        assertThatThrownBy(() -> RecordModel.check(config("record.schema", importing.toString())))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("importing.xsd line 2")
                .hasMessageContaining("Failed to read schema document 'gone/c.xsd'");
        // A location is a hint: a schema that needs nothing of what it names compiles without it, as before.
        Path unused = Files.writeString(dir.resolve("unused-import.xsd"), "<xs:schema xmlns:xs=\"http://www.w3.org/2001/"
                + "XMLSchema\" targetNamespace=\"urn:test:shop\">\n  <xs:import namespace=\"urn:c\" schemaLocation=\"gone/c.xsd\"/>"
                + "\n  <xs:element name=\"order\"><xs:complexType><xs:sequence><xs:any namespace=\"urn:c\" "
                + "processContents=\"lax\" minOccurs=\"0\"/></xs:sequence></xs:complexType></xs:element>\n"
                + "  <xs:element name=\"invoice\"/>\n</xs:schema>\n");
        RecordModel.check(config("record.schema", unused.toString()));
    }

    /** Before, such a schema was taken, and every record of the element it lacks was rejected, one at a time. */
    @Test
    void aSchemaThatDoesNotDeclareARecordElementStopsStartUp() throws Exception {
        Path ordersOnly = Files.writeString(dir.resolve("orders-only.xsd"), "<xs:schema xmlns:xs=\"http://www.w3.org/2001/"
                + "XMLSchema\" targetNamespace=\"urn:test:shop\" elementFormDefault=\"qualified\">\n"
                + "  <xs:element name=\"order\"><xs:complexType><xs:sequence><xs:element name=\"n\" type=\"xs:int\"/>"
                + "</xs:sequence></xs:complexType></xs:element>\n"
                + "  <xs:complexType name=\"invoice\"/>\n</xs:schema>\n");
        assertThatThrownBy(() -> RecordModel.of(config("record.schema", ordersOnly.toString())))
                .isInstanceOf(ConfigException.class)
                .hasMessage("record.schema declares no global element {urn:test:shop}invoice, the record element "
                        + "(record.element): every record would be rejected; name the schema that declares it, or check "
                        + "the element's namespace (setting: record.schema)");
        // Declared, though an empty element is not valid against it: the check looks for the declaration only.
        assertThat(RecordModel.of(config("record.schema", SCHEMA)).types()).hasSize(2);
    }

    @Test
    void aSchemaNeverFetchesWhatItNamesOverTheNetwork() throws Exception {
        Path remote = Files.writeString(dir.resolve("remote.xsd"), "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n"
                + "  <xs:include schemaLocation=\"http://127.0.0.1:9/evil.xsd\"/>\n</xs:schema>\n");
        assertThatThrownBy(() -> RecordModel.of(config("record.schema", remote.toString())))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("record.schema");
    }

    /**
     * The worker's path: records of both types in one transaction each, crashes at commits, each
     * run resuming from the last committed checkpoint; a record the schema refuses is a dead
     * letter carrying the validator's message.
     */
    @Test
    void theWorkerFansOutExactlyOnceAcrossCrashesAndDeadLettersWhatTheSchemaRefuses() throws Exception {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 120; i++) {
            body.append(i % 10 == 4 ? order(i, "-1") : order(i, "2")).append(invoice(i, i));
        }
        Path f = shopFile(body.toString());
        IngestConfig config = config("record.schema", SCHEMA, "page.max.records", "7", "commit.interval.ms", "0");
        TransactionalIngestion ingestion = new TransactionalIngestion(config, RecordModel.of(config), "w");
        FileJob fresh = new FileJob(f, "shop.xml", FileIdentity.sha256(f), Files.size(f), null);
        java.util.Random random = new java.util.Random(11);
        List<OutgoingRecord> records = new ArrayList<>();
        List<String> deadLetters = new ArrayList<>();
        io.xmlingest.core.checkpoint.Checkpoint from = null;
        int crashes = 0;
        while (true) {
            int failAt = random.nextInt(5);
            io.xmlingest.core.publish.InMemoryTransactionalPublisher publisher =
                    new io.xmlingest.core.publish.InMemoryTransactionalPublisher(n -> n == failAt);
            FileJob job = new FileJob(f, fresh.name(), fresh.fileId(), fresh.bytes(), from);
            try {
                FileOutcome out = ingestion.ingest(job, publisher, IngestListener.NONE, () -> false);
                assertThat(out.ending()).isEqualTo(FileOutcome.Ending.COMPLETED);
                records.addAll(publisher.records());
                publisher.envelopes("orders.dlq").forEach(e -> deadLetters.add(text(e.value())));
                break;
            } catch (io.xmlingest.core.error.RetriableIngestException e) {
                crashes++;
                records.addAll(publisher.records());
                publisher.envelopes("orders.dlq").forEach(d -> deadLetters.add(text(d.value())));
                List<io.xmlingest.core.publish.Envelope> c = publisher.envelopes("orders.checkpoints");
                if (!c.isEmpty()) {
                    from = io.xmlingest.core.checkpoint.CheckpointCodec.decode(c.get(c.size() - 1).value());
                }
            }
        }
        assertThat(crashes).isGreaterThan(3);
        List<String> expectedKeys = new ArrayList<>();
        List<String> expectedTopics = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            if (i % 10 != 4) {
                expectedKeys.add("o" + i);
                expectedTopics.add("orders");
            }
            expectedKeys.add("i" + i);
            expectedTopics.add("invoices");
        }
        assertThat(records).extracting(r -> text(r.key())).containsExactlyElementsOf(expectedKeys);
        assertThat(records).extracting(OutgoingRecord::topic).containsExactlyElementsOf(expectedTopics);
        assertThat(deadLetters).hasSize(12).allSatisfy(d -> assertThat(d)
                .contains("record is not valid against the schema", "positiveInteger", "\"rawXml\":\"<order id=\\\"o"));
    }

    @Test
    void aTypeWithoutAModelIsConvertedSchemaLessNextToATypedOne() throws Exception {
        Path f = shopFile(order(1, "2") + invoice(1, 1)
                + "  <invoice no=\"i2\"><order>o1</order><amount>not a number</amount><line>a</line><line>b</line></invoice>\n");
        InMemoryPagePublisher publisher = new InMemoryPagePublisher();

        FileSummary s = IngestionPipeline.create(config("record.class", ShopOrder.class.getName() + ",-"), publisher,
                IngestListener.NONE).ingest(f);

        assertThat(s.rejected()).isZero();
        List<OutgoingRecord> out = published(publisher);
        assertThat(out).extracting(r -> text(r.key())).containsExactly("o1", "i1", "i2");
        assertThat(text(out.get(0).value())).isEqualTo("{\"id\":\"o1\",\"customer\":\"c1\",\"quantity\":2,\"total\":1.50}");
        assertThat(text(out.get(1).value())).isEqualTo("{\"no\":\"i1\",\"order\":\"o1\",\"amount\":\"1.50\"}");
        assertThat(text(out.get(2).value()))
                .isEqualTo("{\"no\":\"i2\",\"order\":\"o1\",\"amount\":\"not a number\",\"line\":[\"a\",\"b\"]}");
    }

    @Test
    void schemaLessKeysMustBeSingleValuesAndValidationNeedsAModel() throws Exception {
        Path f = shopFile("  <invoice no=\"i1\"><order>o1</order><order>o2</order><amount>1</amount></invoice>\n"
                + invoice(2, 2));
        RejectedRecords listener = new RejectedRecords();
        List<RecordRejectedException> rejected = listener.all;
        InMemoryPagePublisher publisher = new InMemoryPagePublisher();
        IngestionPipeline.create(config("record.element", "{urn:test:shop}invoice", "record.class", "-",
                "record.key", "order", "topic", "t"), publisher, listener).ingest(f);

        assertThat(published(publisher)).extracting(r -> text(r.key())).containsExactly("o2");
        assertThat(rejected).singleElement().satisfies(e -> assertThat(e.getMessage())
                .contains("no single value for its key: order is repeated").contains("record index 0")
                .contains("record.key"));
        assertThatThrownBy(() -> RecordModel.of(config("record.class", ShopOrder.class.getName() + ",-",
                "record.schema", SCHEMA)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("record.schema").hasMessageContaining("schema-less");
    }

    @Test
    void aModelBuiltOnceServesPipelinesOfOtherTopics() throws Exception {
        RecordModel model = RecordModel.of(config());
        Path f = shopFile(order(1, "2") + invoice(1, 1));
        InMemoryPagePublisher publisher = new InMemoryPagePublisher();

        IngestionPipeline.create(config("topic", "run-2-orders,run-2-invoices"), model, publisher, IngestListener.NONE)
                .ingest(f);

        assertThat(published(publisher)).extracting(OutgoingRecord::topic).containsExactly("run-2-orders", "run-2-invoices");
    }
}
