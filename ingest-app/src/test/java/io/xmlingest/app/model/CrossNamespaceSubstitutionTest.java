package io.xmlingest.app.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.encode.JsonSchemaWriter;
import io.xmlingest.core.error.RecordRejectedException;
import io.xmlingest.core.page.OutgoingRecord;
import io.xmlingest.core.pipeline.FileSummary;
import io.xmlingest.core.pipeline.IngestListener;
import io.xmlingest.core.pipeline.IngestionPipeline;
import io.xmlingest.core.pipeline.RecordModel;
import io.xmlingest.core.publish.InMemoryPagePublisher;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A substitution group whose members are declared in another namespace than their head, compiled
 * by xjc without {@code --package}: each namespace gets a package and an object factory of its
 * own, and nothing in the record's class leads JAXB to the members' factory.
 */
class CrossNamespaceSubstitutionTest {

    @TempDir
    Path dir;

    private static final String HEAD_XSD = """
            <xs:schema xmlns:xs='http://www.w3.org/2001/XMLSchema' xmlns:a='urn:a' targetNamespace='urn:a'
                       elementFormDefault='qualified'>
              <xs:element name='channel' type='xs:string'/>
              <xs:element name='contact'><xs:complexType><xs:sequence>
                <xs:element name='name' type='xs:string'/>
                <xs:element ref='a:channel' minOccurs='0' maxOccurs='unbounded'/>
              </xs:sequence><xs:attribute name='id' type='xs:string' use='required'/></xs:complexType></xs:element>
            </xs:schema>
            """;

    // pager's type lives in the members' package, and itself holds a head whose member is in a third namespace.
    private static final String MEMBERS_XSD = """
            <xs:schema xmlns:xs='http://www.w3.org/2001/XMLSchema' xmlns:a='urn:a' xmlns:b='urn:b' xmlns:c='urn:c'
                       targetNamespace='urn:b' elementFormDefault='qualified'>
              <xs:import namespace='urn:a' schemaLocation='a.xsd'/>
              <xs:import namespace='urn:c' schemaLocation='c.xsd'/>
              <xs:element name='fax' type='xs:string' substitutionGroup='a:channel'/>
              <xs:element name='pager' substitutionGroup='a:channel'><xs:complexType><xs:sequence>
                <xs:element name='number' type='xs:int'/>
                <xs:element ref='b:carrier' minOccurs='0'/>
              </xs:sequence></xs:complexType></xs:element>
              <xs:element name='carrier' type='xs:string'/>
            </xs:schema>
            """;

    private static final String DEEPER_XSD = """
            <xs:schema xmlns:xs='http://www.w3.org/2001/XMLSchema' xmlns:b='urn:b' targetNamespace='urn:c'
                       elementFormDefault='qualified'>
              <xs:import namespace='urn:b' schemaLocation='b.xsd'/>
              <xs:element name='network' type='xs:string' substitutionGroup='b:carrier'/>
            </xs:schema>
            """;

    private Path modelJar() throws Exception {
        Path a = Files.writeString(dir.resolve("a.xsd"), HEAD_XSD);
        Path b = Files.writeString(dir.resolve("b.xsd"), MEMBERS_XSD);
        Path c = Files.writeString(dir.resolve("c.xsd"), DEEPER_XSD);
        return XjcModelCompiler.compile(List.of(a, b, c), null, dir.resolve("model.jar")).jar();
    }

    private static IngestConfig config(Path jar) {
        return IngestConfig.of(IngestSettings.ALL, Map.of(
                IngestSettings.MODEL_PATH.key(), jar.toString(),
                IngestSettings.RECORD_ELEMENT.key(), "{urn:a}contact",
                IngestSettings.RECORD_CLASS.key(), "a.Contact",
                IngestSettings.TOPIC.key(), "contacts"));
    }

    @Test
    void membersDeclaredInAnotherNamespacesPackageBindAndKeepTheirNames() throws Exception {
        Path jar = modelJar();
        Path file = Files.writeString(dir.resolve("contacts.xml"), """
                <contacts xmlns='urn:a' xmlns:b='urn:b' xmlns:c='urn:c'>
                  <contact id='c1'><name>Ana</name><channel>x</channel><b:fax>f</b:fax>
                    <b:pager><b:number>7</b:number><c:network>n</c:network></b:pager></contact>
                  <contact id='c2'><name>Bo</name></contact>
                  <contact id='c3'><name>Cy</name><b:pager><b:number>8</b:number><b:carrier>k</b:carrier></b:pager></contact>
                </contacts>
                """);
        InMemoryPagePublisher publisher = new InMemoryPagePublisher();
        List<RecordRejectedException> rejected = new ArrayList<>();

        FileSummary summary = IngestionPipeline.create(config(jar), publisher, new IngestListener() {
            @Override
            public void rejected(RecordRejectedException e) {
                rejected.add(e);
            }
        }).ingest(file);

        assertThat(rejected).isEmpty();
        assertThat(summary.records()).isEqualTo(3);
        List<String> values = new ArrayList<>();
        publisher.pages().forEach(p -> p.records().stream().map(OutgoingRecord::value)
                .forEach(v -> values.add(new String(v, StandardCharsets.UTF_8))));
        assertThat(values).containsExactly(
                "{\"id\":\"c1\",\"name\":\"Ana\",\"channel\":[{\"channel\":\"x\"},{\"fax\":\"f\"},"
                        + "{\"pager\":{\"number\":7,\"carrier\":{\"network\":\"n\"}}}]}",
                "{\"id\":\"c2\",\"name\":\"Bo\"}",
                "{\"id\":\"c3\",\"name\":\"Cy\",\"channel\":[{\"pager\":{\"number\":8,\"carrier\":{\"carrier\":\"k\"}}}]}");
    }

    @Test
    void factoriesThatCannotShareAContextWithTheRecordClassLeaveItAsItWasAndTheirMembersAreRejected() throws Exception {
        Path jar = modelJar();
        // The same schemas again in one package of a second jar: its factory declares every element a second time.
        Path again = XjcModelCompiler.compile(List.of(dir.resolve("a.xsd"), dir.resolve("b.xsd"), dir.resolve("c.xsd")),
                "again", dir.resolve("again.jar")).jar();
        Path file = Files.writeString(dir.resolve("contacts.xml"), """
                <contacts xmlns='urn:a' xmlns:b='urn:b'>
                  <contact id='c1'><name>Ana</name><b:fax>f</b:fax></contact>
                  <contact id='c2'><name>Bo</name><channel>x</channel></contact>
                </contacts>
                """);
        InMemoryPagePublisher publisher = new InMemoryPagePublisher();
        List<RecordRejectedException> rejected = new ArrayList<>();
        IngestConfig config = IngestConfig.of(IngestSettings.ALL, Map.of(
                IngestSettings.MODEL_PATH.key(), jar + "," + again,
                IngestSettings.RECORD_ELEMENT.key(), "{urn:a}contact",
                IngestSettings.RECORD_CLASS.key(), "a.Contact",
                IngestSettings.TOPIC.key(), "contacts"));

        IngestionPipeline.create(config, publisher, new IngestListener() {
            @Override
            public void rejected(RecordRejectedException e) {
                rejected.add(e);
            }
        }).ingest(file);

        assertThat(rejected).singleElement().satisfies(e -> {
            assertThat(e.getMessage()).contains("unexpected element (uri:\"urn:b\", local:\"fax\")");
            assertThat(e.location().orElseThrow().recordIndex()).isZero();
        });
        assertThat(publisher.pages()).flatMap(p -> p.records()).map(r -> new String(r.value(), StandardCharsets.UTF_8))
                .containsExactly("{\"id\":\"c2\",\"name\":\"Bo\",\"channel\":[{\"channel\":\"x\"}]}");
    }

    @Test
    void theJsonSchemaOfTheRecordNamesTheMembersOfEveryNamespace() throws Exception {
        RecordModel model = IngestionPipeline.model(config(modelJar()));

        JsonNode schema = new ObjectMapper().readTree(JsonSchemaWriter.toJson(model.types().get(0).type()));

        Map<String, JsonNode> items = new java.util.LinkedHashMap<>();
        schema.at("/properties/channel/items/anyOf").forEach(form -> form.get("properties").fields()
                .forEachRemaining(e -> items.put(e.getKey(), e.getValue())));
        assertThat(items).containsOnlyKeys("channel", "fax", "pager");
        // The head's own value too: its reference says only JAXBElement, its object factory says a string.
        assertThat(items.get("channel").at("/anyOf/0/type").asText()).isEqualTo("string");
        assertThat(items.get("fax").at("/anyOf/0/type").asText()).isEqualTo("string");
        assertThat(schema.toString()).contains("\"network\"");
    }

    @Test
    void thePublishedValuesMatchTheSchemaAndAHeadOfTheWrongTypeDoesNot() throws Exception {
        Path jar = modelJar();
        RecordModel model = IngestionPipeline.model(config(jar));
        JsonSchema schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
                .getSchema(JsonSchemaWriter.toJson(model.types().get(0).type()));
        Path file = Files.writeString(dir.resolve("contacts.xml"), """
                <contacts xmlns='urn:a' xmlns:b='urn:b' xmlns:c='urn:c'>
                  <contact id='c1'><name>Ana</name><channel>x</channel><b:fax>f</b:fax>
                    <b:pager><b:number>7</b:number><c:network>n</c:network></b:pager></contact>
                </contacts>
                """);
        InMemoryPagePublisher publisher = new InMemoryPagePublisher();
        IngestionPipeline.create(config(jar), model, publisher, IngestListener.NONE).ingest(file);
        ObjectMapper json = new ObjectMapper();

        List<JsonNode> values = new ArrayList<>();
        publisher.pages().forEach(p -> p.records().forEach(r -> {
            try {
                values.add(json.readTree(r.value()));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }));
        assertThat(values).hasSize(1);
        assertThat(schema.validate(values.get(0))).isEmpty();
        assertThat(schema.validate(json.readTree("{\"id\":\"c1\",\"name\":\"Ana\",\"channel\":[{\"channel\":5}]}")))
                .isNotEmpty();
    }
}
