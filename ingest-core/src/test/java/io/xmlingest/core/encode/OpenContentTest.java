package io.xmlingest.core.encode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.encode.model.Kitchen;
import io.xmlingest.core.encode.model.Parcel;
import io.xmlingest.core.encode.open.Contact;
import io.xmlingest.core.encode.open.Envelope;
import io.xmlingest.core.error.ConfigException;
import io.xmlingest.core.page.OutgoingRecord;
import io.xmlingest.core.pipeline.FileSummary;
import io.xmlingest.core.pipeline.IngestListener;
import io.xmlingest.core.pipeline.IngestionPipeline;
import io.xmlingest.core.publish.InMemoryPagePublisher;
import jakarta.xml.bind.JAXBContext;
import jakarta.xml.bind.JAXBElement;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Choices, mixed content, substitution groups and wildcards: properties whose field does not say
 * which element each value was. Before, their values were written without the element's name
 * (emails and phones in one list of strings), mixed text under a child's name, wildcard content
 * as a DOM node's toString, and xs:anyAttribute not at all.
 */
class OpenContentTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonSchemaFactory SCHEMAS = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);

    private static final String CONTACT = "<contact xmlns='urn:xmlingest:test:contact' xmlns:o='urn:other'"
            + " xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance' id='c1' o:flag='yes' xml:lang='pt'>"
            + "<email>a@example.org</email><phone>+351 1</phone><email>b@example.org</email>"
            + "<count>3</count><weight>2.50</weight><count xsi:nil='true'/>"
            + "<note>Dear <b>Ana</b>, <b>welcome</b>!</note>"
            + "<pager>555</pager>"
            + "<anything><o:x>1</o:x></anything>"
            + "<o:extra k='v'><o:deep>1</o:deep><o:deep>2</o:deep><plain>p</plain><o:gone xsi:nil='true'/></o:extra>"
            + "<o:tag>t</o:tag>"
            + "</contact>";

    private static final String CONTACT_JSON = "{\"id\":\"c1\","
            + "\"otherAttributes\":{\"xml:lang\":\"pt\",\"{urn:other}flag\":\"yes\"},"
            + "\"emailOrPhone\":[{\"email\":\"a@example.org\"},{\"phone\":\"+351 1\"},{\"email\":\"b@example.org\"}],"
            + "\"weightOrCount\":[{\"count\":3},{\"weight\":2.50},null],"
            + "\"note\":{\"content\":[\"Dear \",{\"b\":\"Ana\"},\", \",{\"b\":\"welcome\"},\"!\"]},"
            + "\"channel\":{\"pager\":\"555\"},"
            + "\"anything\":{\"{urn:other}x\":\"1\"},"
            + "\"any\":[{\"{urn:other}extra\":{\"k\":\"v\",\"deep\":[\"1\",\"2\"],\"{urn:xmlingest:test:contact}plain\":\"p\",\"gone\":null}},"
            + "{\"{urn:other}tag\":\"t\"}]}";

    @TempDir
    Path dir;

    static <T> T bind(Class<T> type, String xml, Class<?>... more) throws Exception {
        List<Class<?>> classes = new ArrayList<>(List.of(type));
        classes.addAll(List.of(more));
        return type.cast(JAXBContext.newInstance(classes.toArray(Class[]::new)).createUnmarshaller()
                .unmarshal(new StringReader(xml)));
    }

    static String json(Object record) {
        return new String(new JsonRecordEncoder().encode(record), StandardCharsets.UTF_8);
    }

    @Test
    void eachItemIsWrittenUnderItsElementsName() throws Exception {
        // Wildcard content follows schema-less mode's rules, its own element's namespace standing in for the
        // record's: o:deep is "deep" inside o:extra, and plain, in the contact namespace there, is qualified.
        Contact contact = bind(Contact.class, CONTACT);
        // JAXB itself keeps the names; the encoder must not drop them.
        assertThat(contact.emailOrPhone()).extracting(e -> e.getName().getLocalPart())
                .containsExactly("email", "phone", "email");
        assertThat(contact.channel().getName().getLocalPart()).isEqualTo("pager");

        assertThat(json(contact)).isEqualTo(CONTACT_JSON);
    }

    @Test
    void nilWildcardContentWithTextIsRefusedNotWrittenAsNull() throws Exception {
        Contact contact = bind(Contact.class, CONTACT.replace("<o:gone xsi:nil='true'/>", "<o:gone xsi:nil='true'>x</o:gone>"));
        assertThatThrownBy(() -> json(contact)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("element <gone> is nil (xsi:nil) but holds text, which would be lost: a nil element has no content");
    }

    @Test
    void theHeadOfASubstitutionGroupAndItsDirectSubstituteAreNamedToo() throws Exception {
        assertThat(json(bind(Contact.class, CONTACT.replace("<pager>555</pager>", "<channel>c</channel>"))))
                .contains("\"channel\":{\"channel\":\"c\"}");
        assertThat(json(bind(Contact.class, CONTACT.replace("<pager>555</pager>", "<fax>f</fax>"))))
                .contains("\"channel\":{\"fax\":\"f\"}");
    }

    @Test
    void aSubstituteTheHeadsNamesDoNotListIsWrittenUnderItsOwnNameNeverAnothers() throws Exception {
        // As when JAXB reached a factory by itself that the names were not read from.
        Contact contact = bind(Contact.class, CONTACT);
        java.lang.reflect.Field channel = Contact.class.getDeclaredField("channel");
        channel.setAccessible(true);

        channel.set(contact, new JAXBElement<>(new QName("urn:elsewhere", "telex"), String.class, "t"));
        assertThat(json(contact)).contains("\"channel\":{\"telex\":\"t\"}");
        // fax is a member the names list: another namespace's fax must not pass for it.
        channel.set(contact, new JAXBElement<>(new QName("urn:elsewhere", "fax"), String.class, "f"));
        assertThat(json(contact)).contains("\"channel\":{\"{urn:elsewhere}fax\":\"f\"}");
    }

    @Test
    void aSubstituteNoObjectFactoryDeclaresIsRefusedNotWrittenUnderTheHeadsName() throws Exception {
        Kitchen k = new Kitchen();
        k.name = "k";
        k.note = new JAXBElement<>(new QName(Kitchen.NS, "memo"), String.class, "m");

        assertThatThrownBy(() -> json(k)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("element {urn:test:kitchen}memo stands in for <note>");
        // Its own local name in another namespace is another element, not the head.
        k.note = new JAXBElement<>(new QName("urn:other", "note"), String.class, "m");
        assertThatThrownBy(() -> json(k)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("element {urn:other}note stands in for <note>");
        k.note = new JAXBElement<>(new QName(Kitchen.NS, "note"), String.class, "m");
        assertThat(json(k)).contains("\"note\":\"m\"");
    }

    @Test
    void aLaxWildcardNamesKnownElementsAndWritesThemWithTheirModel() throws Exception {
        Envelope envelope = bind(Envelope.class, "<envelope xmlns='urn:xmlingest:test:contact'><from>me</from>"
                + "<parcel xmlns='urn:xmlingest:test:parcel'><id>P-1</id><to><city>Oslo</city></to></parcel>"
                + "<postscript lang='en'>bye</postscript></envelope>", Parcel.class);
        assertThat(envelope.any().get(0)).isInstanceOf(Parcel.class);

        assertThat(json(envelope)).isEqualTo("{\"from\":\"me\",\"any\":["
                + "{\"{urn:xmlingest:test:parcel}parcel\":{\"id\":\"P-1\",\"to\":{\"city\":\"Oslo\"},\"via\":[]}},"
                + "{\"postscript\":{\"lang\":\"en\",\"value\":\"bye\"}}]}");
    }

    @Test
    void noOtherAttributesLeavesThePropertyOut() throws Exception {
        String plain = CONTACT.replace(" o:flag='yes' xml:lang='pt'", "");
        assertThat(json(bind(Contact.class, plain))).doesNotContain("otherAttributes");
    }

    @Test
    void theSchemaDescribesTheNamedItemsAndRejectsWhatTheEncoderNeverWrites() throws Exception {
        String schemaJson = JsonSchemaWriter.toJson(Contact.class);
        JsonSchema meta = SCHEMAS.getSchema(SchemaLocation.of(JsonSchemaWriter.DIALECT));
        assertThat(meta.validate(MAPPER.readTree(schemaJson))).isEmpty();
        JsonSchema schema = SCHEMAS.getSchema(schemaJson);

        for (String xml : List.of(CONTACT, CONTACT.replace("<pager>555</pager>", "<channel>c</channel>"),
                CONTACT.replace(" o:flag='yes' xml:lang='pt'", "").replace("<note>Dear <b>Ana</b>, <b>welcome</b>!</note>", ""))) {
            JsonNode value = MAPPER.readTree(json(bind(Contact.class, xml)));
            assertThat(schema.validate(value)).as("%s", value).isEmpty();
        }

        ObjectNode valid = (ObjectNode) MAPPER.readTree(CONTACT_JSON);
        rejected(schema, valid, v -> ((ObjectNode) v.at("/emailOrPhone/0")).put("fax", "x"));
        rejected(schema, valid, v -> ((ArrayNode) v.get("emailOrPhone")).add("bare@example.org"));
        rejected(schema, valid, v -> ((ObjectNode) v.at("/weightOrCount/0")).put("count", "three"));
        rejected(schema, valid, v -> ((ArrayNode) v.get("weightOrCount")).add(4));
        rejected(schema, valid, v -> v.putObject("channel").put("telex", "t"));
        rejected(schema, valid, v -> ((ObjectNode) v.at("/note/content/1")).put("i", "x"));
        rejected(schema, valid, v -> ((ObjectNode) v.get("otherAttributes")).put("n", 1));
        rejected(schema, valid, v -> ((ArrayNode) v.get("any")).addObject());
        ObjectNode nilFax = valid.deepCopy();
        nilFax.putObject("channel").putNull("fax");
        assertThat(schema.validate(nilFax)).as("%s", nilFax).isEmpty();

        JsonNode envelope = MAPPER.readTree(JsonSchemaWriter.toJson(Envelope.class));
        assertThat(meta.validate(envelope)).isEmpty();
        assertThat(SCHEMAS.getSchema(envelope).validate(MAPPER.readTree(json(bind(Envelope.class,
                "<envelope xmlns='urn:xmlingest:test:contact'><from>me</from><x a='1'>y</x></envelope>"))))).isEmpty();
    }

    @Test
    void repeatedOrOpenOnesCannotBeKeysButASubstitutionGroupsHeadCan() throws Exception {
        for (String name : List.of("emailOrPhone", "otherAttributes", "any")) {
            assertThatThrownBy(() -> RecordKeys.of(Contact.class, name)).isInstanceOf(ConfigException.class)
                    .hasMessageContaining("a key must be a single simple value");
        }
        assertThat(RecordKeys.of(Contact.class, "channel").keyOf(bind(Contact.class, CONTACT)))
                .isEqualTo("555".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void thePipelineWritesTheSameValuesWhenItBindsOnItsOwnThreads() throws Exception {
        StringBuilder records = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            records.append(CONTACT.replace(" xmlns='urn:xmlingest:test:contact' xmlns:o='urn:other'", "")
                    .replace(" xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance'", "")
                    .replace("id='c1'", "id='c" + i + "'")).append('\n');
        }
        Path file = Files.writeString(dir.resolve("contacts.xml"), "<contacts xmlns='urn:xmlingest:test:contact'"
                + " xmlns:o='urn:other' xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance'>\n" + records
                + "</contacts>\n");
        IngestConfig config = IngestConfig.of(IngestSettings.ALL, Map.of("topic", "t",
                "record.element", "{urn:xmlingest:test:contact}contact", "record.class", Contact.class.getName(),
                "bind.threads", "2", "page.max.records", "50"));
        InMemoryPagePublisher publisher = new InMemoryPagePublisher();

        FileSummary summary = IngestionPipeline.create(config, publisher, IngestListener.NONE).ingest(file);

        assertThat(summary.records()).isEqualTo(200);
        assertThat(summary.rejected()).isZero();
        List<OutgoingRecord> out = new ArrayList<>();
        publisher.pages().forEach(p -> out.addAll(p.records()));
        for (int i = 0; i < 200; i++) {
            assertThat(new String(out.get(i).value(), StandardCharsets.UTF_8))
                    .isEqualTo(CONTACT_JSON.replace("\"id\":\"c1\"", "\"id\":\"c" + i + "\""));
        }
    }

    private static void rejected(JsonSchema schema, ObjectNode valid, java.util.function.Consumer<ObjectNode> change) {
        ObjectNode changed = valid.deepCopy();
        change.accept(changed);
        assertThat(schema.validate(changed)).as("%s", changed).isNotEmpty();
    }
}
