package io.xmlingest.app.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.encode.JsonSchemaWriter;
import io.xmlingest.core.pipeline.RecordModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A record that refers to elements of another namespace, compiled by xjc without {@code --package}:
 * where xjc binds the references as element references (a repeated choice of them, or one beside a
 * local element of the same name), JAXB needs the other namespace's object factory, which nothing in
 * the record's classes leads it to; and where a binding renames the Java property instead, the two
 * elements of one local name must still be two members of the message.
 */
class CrossNamespaceReferenceTest {

    @TempDir
    Path dir;

    private static final String PARTS_XSD = """
            <xs:schema xmlns:xs='http://www.w3.org/2001/XMLSchema' targetNamespace='urn:b'
                       elementFormDefault='qualified' attributeFormDefault='qualified'>
              <xs:element name='Email' type='xs:string'/>
              <xs:element name='Phone' type='xs:string'/>
              <xs:element name='Name' type='xs:string'/>
              <xs:attribute name='flag' type='xs:boolean'/>
            </xs:schema>
            """;

    private static final String RECORDS_XSD = """
            <xs:schema xmlns:xs='http://www.w3.org/2001/XMLSchema' targetNamespace='urn:a' xmlns:b='urn:b'
                       elementFormDefault='qualified' xmlns:jaxb='https://jakarta.ee/xml/ns/jaxb' jaxb:version='3.0'>
              <xs:import namespace='urn:b' schemaLocation='b.xsd'/>
              <xs:element name='item'><xs:complexType><xs:sequence>
                <xs:element name='sku' type='xs:string'/>
                <xs:choice maxOccurs='unbounded'><xs:element ref='b:Email'/><xs:element ref='b:Phone'/></xs:choice>
              </xs:sequence></xs:complexType></xs:element>
              <xs:element name='entry'><xs:complexType><xs:sequence>
                <xs:element name='sku' type='xs:string'/>
                <xs:element ref='b:Name'/>
                <xs:element name='Name' type='xs:string' minOccurs='0'/>
              </xs:sequence></xs:complexType></xs:element>
              <xs:element name='renamed'><xs:complexType><xs:sequence>
                <xs:element name='sku' type='xs:string'/>
                <xs:element ref='b:Name'><xs:annotation><xs:appinfo><jaxb:property name='bName'/></xs:appinfo>
                  </xs:annotation></xs:element>
                <xs:element name='Name' type='xs:string' minOccurs='0'/>
              </xs:sequence>
              <xs:attribute name='flag' type='xs:string'/>
              <xs:attribute ref='b:flag'><xs:annotation><xs:appinfo><jaxb:property name='bFlag'/></xs:appinfo>
                </xs:annotation></xs:attribute>
              </xs:complexType></xs:element>
            </xs:schema>
            """;

    private static final String XML = """
            <records xmlns='urn:a' xmlns:b='urn:b'>
              <item><sku>1</sku><b:Email>e@x</b:Email><b:Phone>123</b:Phone></item>
              <entry><sku>2</sku><b:Name>B name</b:Name><Name>A name</Name></entry>
              <renamed flag='local' b:flag='true'><sku>3</sku><b:Name>B name</b:Name><Name>A name</Name></renamed>
            </records>
            """;

    private Path modelJar() throws Exception {
        Path b = Files.writeString(dir.resolve("b.xsd"), PARTS_XSD);
        Path a = Files.writeString(dir.resolve("a.xsd"), RECORDS_XSD);
        return XjcModelCompiler.compile(List.of(a, b), null, dir.resolve("model.jar")).jar();
    }

    private IngestConfig config(Path jar) {
        return IngestConfig.of(IngestSettings.ALL, Map.of(
                IngestSettings.MODEL_PATH.key(), jar.toString(),
                IngestSettings.RECORD_ELEMENT.key(), "{urn:a}item,{urn:a}entry,{urn:a}renamed",
                IngestSettings.RECORD_CLASS.key(), "a.Item,a.Entry,a.Renamed",
                IngestSettings.RECORD_KEY.key(), "",
                IngestSettings.TOPIC.key(), "records"));
    }

    @Test
    void elementsOfAnotherNamespaceBindAndEveryOneIsAMemberOfItsOwn() throws Exception {
        IngestConfig config = config(modelJar());
        Ingested out = Ingested.of(config, Files.writeString(dir.resolve("records.xml"), XML));

        assertThat(out.rejected()).isEmpty();
        assertThat(out.values()).containsExactly(
                "{\"sku\":\"1\",\"emailOrPhone\":[{\"Email\":\"e@x\"},{\"Phone\":\"123\"}]}",
                "{\"content\":[{\"sku\":\"2\"},{\"{urn:b}Name\":\"B name\"},{\"Name\":\"A name\"}]}",
                "{\"flag\":\"local\",\"{urn:b}flag\":true,\"sku\":\"3\",\"{urn:b}Name\":\"B name\",\"Name\":\"A name\"}");
    }

    @Test
    void theJsonSchemaOfTheRenamedPropertiesNamesThemAsTheMessageDoes() throws Exception {
        RecordModel model = RecordModel.of(config(modelJar()));
        Class<?> renamed = model.types().get(2).type();
        JsonNode properties = new ObjectMapper().readTree(JsonSchemaWriter.toJson(renamed)).get("properties");
        List<String> names = new ArrayList<>();
        properties.fieldNames().forEachRemaining(names::add);
        assertThat(names).containsExactly("flag", "{urn:b}flag", "sku", "{urn:b}Name", "Name");
        assertThat(properties.get("{urn:b}flag").get("type").asText()).isEqualTo("boolean");
        assertThat(properties.get("flag").get("type").asText()).isEqualTo("string");
    }
}
