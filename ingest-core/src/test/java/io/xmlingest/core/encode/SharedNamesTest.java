package io.xmlingest.core.encode;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.xml.bind.JAXBContext;
import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlAnyAttribute;
import jakarta.xml.bind.annotation.XmlAttribute;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlRootElement;
import jakarta.xml.bind.annotation.XmlType;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.Test;

/**
 * Properties of one class that share a local name (an element and a reference to another
 * namespace's element, attributes of two namespaces, a wildcard's map and an element named as its
 * field): each is written under a name of its own, since of two members of one name most JSON
 * readers keep the last without a word.
 */
class SharedNamesTest {

    @XmlRootElement(name = "rec", namespace = "urn:a")
    @XmlType(namespace = "urn:a", propOrder = {"v", "bV", "cV", "otherElement"})
    @XmlAccessorType(XmlAccessType.FIELD)
    static class Rec {
        @XmlAttribute
        String id;
        @XmlAttribute
        String lang;
        @XmlAttribute(name = "lang", namespace = "urn:b")
        String bLang;
        @XmlAnyAttribute
        Map<QName, String> otherAttributes;
        @XmlElement(name = "v", namespace = "urn:a")
        String v;
        @XmlElement(name = "v", namespace = "urn:b")
        Integer bV;
        @XmlElement(name = "v", namespace = "urn:c")
        Boolean cV;
        @XmlElement(name = "otherAttributes", namespace = "urn:a")
        String otherElement;
    }

    private static final String XML = "<rec xmlns='urn:a' xmlns:b='urn:b' xmlns:c='urn:c' xmlns:o='urn:o' id='1'"
            + " lang='en' b:lang='de' o:f='x'><v>text</v><b:v>5</b:v><c:v>true</c:v>"
            + "<otherAttributes>EL</otherAttributes></rec>";

    private static Rec rec() throws Exception {
        return (Rec) JAXBContext.newInstance(Rec.class).createUnmarshaller().unmarshal(new StringReader(XML));
    }

    /** The names of a JSON object's members in order, each as often as it occurs. */
    private static List<String> memberNames(String json) throws Exception {
        List<String> names = new ArrayList<>();
        try (JsonParser p = new ObjectMapper().getFactory().createParser(json)) {
            p.nextToken();
            while (p.nextToken() == com.fasterxml.jackson.core.JsonToken.FIELD_NAME) {
                names.add(p.currentName());
                p.nextToken();
                p.skipChildren();
            }
        }
        return names;
    }

    @Test
    void eachPropertyIsWrittenUnderANameOfItsOwnAndTheClasssOwnElementKeepsThePlainOne() throws Exception {
        String json = new String(new JsonRecordEncoder().encode(rec()), StandardCharsets.UTF_8);
        assertThat(memberNames(json)).containsExactly("id", "lang", "{urn:b}lang", "@otherAttributes", "v", "{urn:b}v",
                "{urn:c}v", "otherAttributes");
        assertThat(json).isEqualTo("{\"id\":\"1\",\"lang\":\"en\",\"{urn:b}lang\":\"de\","
                + "\"@otherAttributes\":{\"{urn:o}f\":\"x\"},\"v\":\"text\",\"{urn:b}v\":5,\"{urn:c}v\":true,"
                + "\"otherAttributes\":\"EL\"}");
    }

    @Test
    void theJsonSchemaNamesThePropertiesAsTheMessagesDo() throws Exception {
        JsonNode properties = new ObjectMapper().readTree(JsonSchemaWriter.toJson(Rec.class)).get("properties");
        List<String> names = new ArrayList<>();
        properties.fieldNames().forEachRemaining(names::add);
        assertThat(names).containsExactly("id", "lang", "{urn:b}lang", "@otherAttributes", "v", "{urn:b}v", "{urn:c}v",
                "otherAttributes");
        assertThat(properties.get("{urn:b}v").get("type").asText()).isEqualTo("integer");
        assertThat(properties.get("v").get("type").asText()).isEqualTo("string");
    }

    @Test
    void aKeyNamesTheMemberTheJsonWritesUnderThatName() throws Exception {
        assertThat(new String(RecordKeys.of(Rec.class, "v").keyOf(rec()), StandardCharsets.UTF_8)).isEqualTo("text");
        assertThat(new String(RecordKeys.of(Rec.class, "{urn:b}v").keyOf(rec()), StandardCharsets.UTF_8)).isEqualTo("5");
        assertThat(new String(RecordKeys.of(Rec.class, "lang").keyOf(rec()), StandardCharsets.UTF_8)).isEqualTo("en");
        assertThat(new String(RecordKeys.of(Rec.class, "{urn:b}lang").keyOf(rec()), StandardCharsets.UTF_8))
                .isEqualTo("de");
    }
}
