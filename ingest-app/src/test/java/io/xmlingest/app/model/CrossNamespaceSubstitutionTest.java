package io.xmlingest.app.model;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.encode.JsonSchemaWriter;
import io.xmlingest.core.pipeline.IngestListener;
import io.xmlingest.core.pipeline.IngestionPipeline;
import io.xmlingest.core.pipeline.RecordModel;
import io.xmlingest.core.publish.InMemoryPagePublisher;
import jakarta.xml.bind.annotation.XmlRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

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
                <xs:element name='note' form='unqualified' type='xs:string' nillable='true' minOccurs='0'/>
                <xs:element ref='a:channel' minOccurs='0' maxOccurs='unbounded'/>
                <xs:any namespace='##other' processContents='lax' minOccurs='0' maxOccurs='unbounded'/>
              </xs:sequence><xs:attribute name='id' type='xs:string' use='required'/></xs:complexType></xs:element>
            </xs:schema>
            """;

    // Compiled into the same model, but nothing here can stand in for anything a contact holds.
    private static final String UNRELATED_XSD = """
            <xs:schema xmlns:xs='http://www.w3.org/2001/XMLSchema' xmlns:d='urn:d' targetNamespace='urn:d'
                       elementFormDefault='qualified'>
              <xs:element name='thing' type='xs:string'/>
              <xs:element name='other' type='xs:string' substitutionGroup='d:thing'/>
              <xs:element name='ext'><xs:complexType><xs:sequence><xs:element name='n' type='xs:int'/></xs:sequence>
              </xs:complexType></xs:element>
            </xs:schema>
            """;

    // A member named as its head, in its own namespace.
    private static final String SAME_NAME_XSD = """
            <xs:schema xmlns:xs='http://www.w3.org/2001/XMLSchema' xmlns:a='urn:a' targetNamespace='urn:e'
                       elementFormDefault='qualified'>
              <xs:import namespace='urn:a' schemaLocation='a.xsd'/>
              <xs:element name='channel' type='xs:string' substitutionGroup='a:channel'/>
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
                <xs:element name='note' form='unqualified' type='xs:string' nillable='true' minOccurs='0'/>
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

    // A member named as its head, in no namespace.
    private static final String NO_NAMESPACE_XSD = """
            <xs:schema xmlns:xs='http://www.w3.org/2001/XMLSchema' xmlns:a='urn:a'>
              <xs:import namespace='urn:a' schemaLocation='a.xsd'/>
              <xs:element name='channel' type='xs:string' substitutionGroup='a:channel'/>
            </xs:schema>
            """;

    private Path modelJar() throws Exception {
        Path a = Files.writeString(dir.resolve("a.xsd"), HEAD_XSD);
        Path b = Files.writeString(dir.resolve("b.xsd"), MEMBERS_XSD);
        Path c = Files.writeString(dir.resolve("c.xsd"), DEEPER_XSD);
        Path d = Files.writeString(dir.resolve("d.xsd"), UNRELATED_XSD);
        Path e = Files.writeString(dir.resolve("e.xsd"), SAME_NAME_XSD);
        Path f = Files.writeString(dir.resolve("f.xsd"), NO_NAMESPACE_XSD);
        return XjcModelCompiler.compile(List.of(a, b, c, d, e, f), null, dir.resolve("model.jar")).jar();
    }

    private static IngestConfig config(Path... modelPath) {
        return IngestConfig.of(IngestSettings.ALL, Map.of(
                IngestSettings.MODEL_PATH.key(), String.join(",", Stream.of(modelPath).map(Path::toString).toList()),
                IngestSettings.RECORD_ELEMENT.key(), "{urn:a}contact",
                IngestSettings.RECORD_CLASS.key(), "a.Contact",
                IngestSettings.TOPIC.key(), "contacts"));
    }

    private static final String CONTACTS = """
            <contacts xmlns='urn:a' xmlns:b='urn:b' xmlns:c='urn:c'>
              <contact id='c1'><name>Ana</name><channel>x</channel><b:fax>f</b:fax>
                <b:pager><b:number>7</b:number><c:network>n</c:network></b:pager></contact>
              <contact id='c2'><name>Bo</name></contact>
              <contact id='c3'><name>Cy</name><b:pager><b:number>8</b:number><b:carrier>k</b:carrier></b:pager></contact>
            </contacts>
            """;

    private static final List<String> CONTACTS_JSON = List.of(
            "{\"id\":\"c1\",\"name\":\"Ana\",\"channel\":[{\"channel\":\"x\"},{\"fax\":\"f\"},"
                    + "{\"pager\":{\"number\":7,\"carrier\":{\"network\":\"n\"}}}]}",
            "{\"id\":\"c2\",\"name\":\"Bo\"}",
            "{\"id\":\"c3\",\"name\":\"Cy\",\"channel\":[{\"pager\":{\"number\":8,\"carrier\":{\"carrier\":\"k\"}}}]}");

    private Ingested ingest(IngestConfig config, String xml) throws Exception {
        return Ingested.of(config, Files.writeString(dir.resolve("contacts.xml"), xml));
    }

    /** What the record model warned of while {@code ingest} ran. */
    private static List<String> warnings(Callable<Ingested> ingest, Ingested[] out) throws Exception {
        Logger log = (Logger) LoggerFactory.getLogger(RecordModel.class);
        ListAppender<ILoggingEvent> seen = new ListAppender<>();
        seen.start();
        log.addAppender(seen);
        try {
            out[0] = ingest.call();
        } finally {
            log.detachAppender(seen);
        }
        return seen.list.stream().filter(e -> e.getLevel() == Level.WARN).map(ILoggingEvent::getFormattedMessage).toList();
    }

    /** The jar's classes as a directory, as a build's output would be on model.path. */
    private Path unpacked(Path jar) throws Exception {
        Path out = Files.createDirectories(dir.resolve("classes"));
        try (JarFile j = new JarFile(jar.toFile())) {
            for (JarEntry e : java.util.Collections.list(j.entries())) {
                Path to = out.resolve(e.getName());
                if (e.isDirectory()) {
                    Files.createDirectories(to);
                } else {
                    Files.createDirectories(to.getParent());
                    try (var in = j.getInputStream(e)) {
                        Files.copy(in, to);
                    }
                }
            }
        }
        return out;
    }

    @Test
    void membersDeclaredInAnotherNamespacesPackageBindAndKeepTheirNames() throws Exception {
        Path jar = modelJar();

        Ingested fromJar = ingest(config(jar), CONTACTS);
        Ingested fromDirectory = ingest(config(unpacked(jar)), CONTACTS);

        assertThat(fromJar.rejected()).isEmpty();
        assertThat(fromJar.values()).containsExactlyElementsOf(CONTACTS_JSON);
        assertThat(fromDirectory.rejected()).isEmpty();
        assertThat(fromDirectory.values()).containsExactlyElementsOf(CONTACTS_JSON);
    }

    @Test
    void aSecondCopyOfTheSchemasOnTheModelPathBeforeOrAfterTheModelChangesNothing() throws Exception {
        Path jar = modelJar();
        // The same schemas in one package: its factory declares every element a second time.
        Path again = XjcModelCompiler.compile(List.of(dir.resolve("a.xsd"), dir.resolve("b.xsd"), dir.resolve("c.xsd")),
                "again", dir.resolve("again.jar")).jar();

        for (Path[] path : List.of(new Path[] {jar, again}, new Path[] {again, jar})) {
            Ingested[] ran = new Ingested[1];
            // Not left out because the context failed with it: never taken in.
            assertThat(warnings(() -> ingest(config(path), CONTACTS), ran)).as("%s", List.of(path)).isEmpty();
            Ingested out = ran[0];
            assertThat(out.rejected()).as("%s", List.of(path)).isEmpty();
            assertThat(out.values()).as("%s", List.of(path)).containsExactlyElementsOf(CONTACTS_JSON);
        }
    }

    @Test
    void aMemberNamedAsItsHeadInAnotherNamespaceKeepsItsNamespaceInTheName() throws Exception {
        Ingested out = ingest(config(modelJar()), """
                <contacts xmlns='urn:a' xmlns:e='urn:e'>
                  <contact id='c1'><name>Ana</name><channel>x</channel><e:channel>y</e:channel>
                    <channel xmlns=''>z</channel></contact>
                </contacts>
                """);

        assertThat(out.rejected()).isEmpty();
        assertThat(out.values()).containsExactly("{\"id\":\"c1\",\"name\":\"Ana\",\"channel\":[{\"channel\":\"x\"},"
                + "{\"{urn:e}channel\":\"y\"},{\"{}channel\":\"z\"}]}");
    }

    @Test
    void factoriesWhoseMembersNoRecordCanHoldStayOutOfTheModel() throws Exception {
        // urn:d declares a substitution group too, but not one a contact holds: its ext stays unknown to the
        // model, and the lax wildcard keeps it as written, as it did before members were looked for.
        Ingested out = ingest(config(modelJar()), """
                <contacts xmlns='urn:a' xmlns:d='urn:d'>
                  <contact id='c1'><name>Ana</name><d:ext note='hi'><d:n>007</d:n></d:ext></contact>
                </contacts>
                """);

        assertThat(out.rejected()).isEmpty();
        assertThat(out.values()).containsExactly(
                "{\"id\":\"c1\",\"name\":\"Ana\",\"any\":[{\"{urn:d}ext\":{\"note\":\"hi\",\"n\":\"007\"}}]}");
    }

    @Test
    void aFactoryJaxbRefusesIsLeftOutAndTheOthersStillBind() throws Exception {
        Path jar = modelJar();
        // A factory declaring a member of a:channel whose type JAXB refuses (text content and an element).
        Path src = Files.createDirectories(dir.resolve("src/clash"));
        Files.writeString(src.resolve("ObjectFactory.java"), """
                package clash;
                import jakarta.xml.bind.JAXBElement;
                import jakarta.xml.bind.annotation.XmlElementDecl;
                import jakarta.xml.bind.annotation.XmlRegistry;
                import javax.xml.namespace.QName;
                @XmlRegistry
                public class ObjectFactory {
                    @XmlElementDecl(namespace = "urn:clash", name = "telex", substitutionHeadNamespace = "urn:a",
                            substitutionHeadName = "channel")
                    public JAXBElement<Telex> createTelex(Telex v) {
                        return new JAXBElement<>(new QName("urn:clash", "telex"), Telex.class, v);
                    }
                }
                """);
        Files.writeString(src.resolve("Telex.java"), """
                package clash;
                import jakarta.xml.bind.annotation.XmlElement;
                import jakarta.xml.bind.annotation.XmlValue;
                public class Telex {
                    @XmlValue
                    public String text;
                    @XmlElement
                    public String line;
                }
                """);
        Path classes = Files.createDirectories(dir.resolve("clash-classes"));
        String api = Path.of(XmlRegistry.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        assertThat(ToolProvider.getSystemJavaCompiler().run(null, null, null, "-cp", api, "-d", classes.toString(),
                src.resolve("ObjectFactory.java").toString(), src.resolve("Telex.java").toString())).isZero();

        Ingested[] ran = new Ingested[1];
        List<String> warned = warnings(() -> ingest(config(jar, classes), CONTACTS.replace("</contacts>",
                "  <contact id='c4' xmlns:x='urn:clash'><name>Di</name><x:telex>t</x:telex></contact>\n</contacts>")), ran);
        Ingested out = ran[0];

        assertThat(warned).singleElement().asString().contains("object factory clash.ObjectFactory",
                "If a class has @XmlElement property, it cannot have @XmlValue property", "model.path");

        // The other factories still bind their members. The refused one's member is unknown to the model, as
        // before members were looked for: here the contact's wildcard takes it, as written.
        List<String> expected = new ArrayList<>(CONTACTS_JSON);
        expected.add("{\"id\":\"c4\",\"name\":\"Di\",\"any\":[{\"{urn:clash}telex\":\"t\"}]}");
        assertThat(out.rejected()).isEmpty();
        assertThat(out.values()).containsExactlyElementsOf(expected);
    }

    @Test
    void theJsonSchemaOfTheRecordNamesTheMembersOfEveryNamespace() throws Exception {
        RecordModel model = IngestionPipeline.model(config(modelJar()));

        JsonNode schema = new ObjectMapper().readTree(JsonSchemaWriter.toJson(model.types().get(0).type()));

        Map<String, JsonNode> items = new java.util.LinkedHashMap<>();
        schema.at("/properties/channel/items/anyOf").forEach(form -> form.get("properties").fields()
                .forEachRemaining(e -> items.put(e.getKey(), e.getValue())));
        assertThat(items).containsOnlyKeys("channel", "fax", "pager", "{urn:e}channel", "{}channel");
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
