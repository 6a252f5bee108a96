package io.xmlingest.core.bind;

import static org.assertj.core.api.Assertions.assertThat;

import io.xmlingest.core.jaxb.XjcStyleOrder;
import jakarta.xml.bind.JAXBContext;
import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlAttribute;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlList;
import jakarta.xml.bind.annotation.XmlRootElement;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequiredValuesTest {

    static Object bind(String xml) throws Exception {
        JAXBContext context = JAXBContext.newInstance(XjcStyleOrder.class, XjcStyleOrder.ObjectFactory.class);
        return context.createUnmarshaller().unmarshal(new StringReader(xml));
    }

    @Test
    void aNilRequiredNillableElementIsNotMissing() throws Exception {
        Object order = bind("<order id='A' xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance'>"
                + "<placed>2026-11-22T09:15:00Z</placed><status>placed</status><total xsi:nil='true'/></order>");

        assertThat(RequiredValues.firstMissing(order)).isNull();
    }

    @Test
    void aRequiredValueInsideAJaxbElementIsChecked() throws Exception {
        Object order = bind("<order id='A'><placed>2026-11-22T09:15:00Z</placed><status>placed</status><total>1</total>"
                + "<shipTo/></order>");

        assertThat(RequiredValues.firstMissing(order)).isEqualTo("shipTo/city");
    }

    @Test
    void aRequiredValueInsideARepeatedNestedClassIsChecked() throws Exception {
        Object order = bind("<order id='A'><placed>2026-11-22T09:15:00Z</placed><status>placed</status><total>1</total>"
                + "<line sku='L1'><quantity>1</quantity></line></order>");

        assertThat(RequiredValues.firstMissing(order)).isEqualTo("line/price");
    }

    @XmlRootElement(name = "rec")
    @XmlAccessorType(XmlAccessType.FIELD)
    static class Lists {
        @XmlList
        @XmlElement(required = true)
        List<Integer> lst;
        // As xjc writes list attributes: no @XmlList, and a getter that makes the list.
        @XmlAttribute(required = true)
        List<String> tags;
        @XmlAttribute
        List<Integer> codes;

        public List<String> getTags() {
            if (tags == null) {
                tags = new java.util.ArrayList<>();
            }
            return tags;
        }

        public List<Integer> getCodes() {
            if (codes == null) {
                codes = new java.util.ArrayList<>();
            }
            return codes;
        }
    }

    /** An xs:list's value is its items: an empty one is there, holding none; an absent one is missing. */
    @Test
    void aRequiredListThatIsEmptyIsPresentAndOneThatIsAbsentIsMissing() throws Exception {
        JAXBContext context = JAXBContext.newInstance(Lists.class);
        java.util.function.Function<String, String> missing = xml -> {
            try {
                return RequiredValues.firstMissing(context.createUnmarshaller().unmarshal(new StringReader(xml)));
            } catch (jakarta.xml.bind.JAXBException e) {
                throw new IllegalStateException(e);
            }
        };

        assertThat(missing.apply("<rec tags=''><lst/></rec>")).isNull();
        assertThat(missing.apply("<rec tags='a b'><lst> 1 2 </lst></rec>")).isNull();
        assertThat(missing.apply("<rec tags='a'/>")).isEqualTo("lst");
        assertThat(missing.apply("<rec><lst/></rec>")).isEqualTo("@tags");

        // The schema and the message agree: both required lists may be empty; the optional one, absent, is left out.
        com.fasterxml.jackson.databind.JsonNode schema = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(io.xmlingest.core.encode.JsonSchemaWriter.toJson(Lists.class));
        assertThat(schema.get("required")).extracting(com.fasterxml.jackson.databind.JsonNode::asText)
                .containsExactlyInAnyOrder("lst", "tags");
        assertThat(schema.toString()).doesNotContain("minItems");
        Object bound = context.createUnmarshaller().unmarshal(new StringReader("<rec tags=''><lst/></rec>"));
        assertThat(new String(new io.xmlingest.core.encode.JsonRecordEncoder().encode(bound),
                java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("{\"tags\":[],\"lst\":[]}");
    }
}
