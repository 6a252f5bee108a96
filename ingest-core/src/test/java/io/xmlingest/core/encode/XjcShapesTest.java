package io.xmlingest.core.encode;

import static org.assertj.core.api.Assertions.assertThat;

import io.xmlingest.core.jaxb.XjcStyleOrder;
import jakarta.xml.bind.JAXBContext;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What xjc-generated classes put in front of the encoder and the keys, bound from real XML. */
class XjcShapesTest {

    static XjcStyleOrder bind(String xml) throws Exception {
        JAXBContext context = JAXBContext.newInstance(XjcStyleOrder.class, XjcStyleOrder.ObjectFactory.class);
        return (XjcStyleOrder) context.createUnmarshaller().unmarshal(new StringReader(xml));
    }

    static String json(XjcStyleOrder order) {
        return new String(new JsonRecordEncoder().encode(order), StandardCharsets.UTF_8);
    }

    static String key(XjcStyleOrder order, String name) {
        byte[] key = RecordKeys.of(XjcStyleOrder.class, name).keyOf(order);
        return key == null ? null : new String(key, StandardCharsets.UTF_8);
    }

    @Test
    void everyXjcShapeIsWrittenWithItsXmlNameAndType() throws Exception {
        XjcStyleOrder order = bind("<order id='A-1' priority='true' channel='on-hold' batch='123456789012345678901234567890'>"
                + "<placed>2026-11-22T09:15:00+01:00</placed><status>on-hold</status><total>0.000000100</total>"
                + "<line sku='L1'><quantity>2</quantity><price currency='EUR'>24.90</price></line>"
                + "<line sku='L2'><quantity>6</quantity><price currency='EUR'>3.50</price></line>"
                + "<unit-price>1000</unit-price><giftWrap>false</giftWrap><note>ring twice</note>"
                + "<shipTo><city>Porto</city></shipTo></order>");

        assertThat(json(order)).isEqualTo("{\"id\":\"A-1\",\"priority\":true,\"channel\":\"on-hold\","
                + "\"batch\":123456789012345678901234567890,\"placed\":\"2026-11-22T09:15:00+01:00\",\"status\":\"on-hold\","
                + "\"total\":0.000000100,\"line\":[{\"sku\":\"L1\",\"quantity\":2,\"price\":{\"currency\":\"EUR\",\"value\":24.90}},"
                + "{\"sku\":\"L2\",\"quantity\":6,\"price\":{\"currency\":\"EUR\",\"value\":3.50}}],"
                + "\"unit-price\":1000,\"giftWrap\":false,\"note\":\"ring twice\",\"shipTo\":{\"city\":\"Porto\"}}");
    }

    @Test
    void anAbsentAttributeWithASchemaDefaultIsWrittenWithTheDefault() throws Exception {
        XjcStyleOrder order = bind("<order id='A-2'><placed>2026-11-22T09:15:00Z</placed><status>placed</status>"
                + "<total>1</total></order>");

        // xjc keeps a default only in the getter (isPriority() is false, getChannel() PLACED); the fields stay null.
        assertThat(json(order)).isEqualTo("{\"id\":\"A-2\",\"priority\":false,\"channel\":\"placed\","
                + "\"placed\":\"2026-11-22T09:15:00Z\",\"status\":\"placed\",\"total\":1}");
        assertThat(key(order, "priority")).isEqualTo("false");
    }

    @Test
    void aNilOptionalElementIsNullAndANilRequiredOneIsLeftOut() throws Exception {
        XjcStyleOrder order = bind("<order id='A-3' xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance'>"
                + "<placed>2026-11-22T09:15:00Z</placed><status>placed</status><total xsi:nil='true'/>"
                + "<note xsi:nil='true'/></order>");

        assertThat(json(order)).endsWith("\"status\":\"placed\",\"note\":null}");
    }

    /** JAXB leaves such a nil element the "" of its text; written, it stood for the nil without a word. */
    @Test
    void aNilElementWithAnXsiTypeOrAnotherAttributeIsStillNull() throws Exception {
        for (String note : new String[] {"<note xsi:type='xs:string' xsi:nil='true'/>",
                "<note xsi:nil='true' xsi:type='xs:string'/>", "<note xsi:nil='true' other='1'/>"}) {
            XjcStyleOrder order = bind("<order id='A-5' xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance' "
                    + "xmlns:xs='http://www.w3.org/2001/XMLSchema'><placed>2026-11-22T09:15:00Z</placed>"
                    + "<status>placed</status>" + note + "</order>");

            assertThat(json(order)).as(note).endsWith("\"status\":\"placed\",\"note\":null}");
        }
    }

    @Test
    void keysAreTheValueAsWrittenInXml() throws Exception {
        XjcStyleOrder order = bind("<order id='A-4' channel='on-hold'><placed>2026-11-22T09:15:00.5Z</placed>"
                + "<status>on-hold</status><total>0.0000001</total><unit-price>1000</unit-price>"
                + "<note>n-1</note></order>");

        assertThat(key(order, "status")).isEqualTo("on-hold");
        assertThat(key(order, "channel")).isEqualTo("on-hold");
        assertThat(key(order, "total")).isEqualTo("0.0000001");
        assertThat(key(order, "unit-price")).isEqualTo("1000");
        assertThat(key(order, "note")).isEqualTo("n-1");
        assertThat(key(order, "placed")).isEqualTo("2026-11-22T09:15:00.5Z");
        assertThat(key(order, "batch")).isNull();
    }
}
