package io.xmlingest.core.encode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.core.error.ConfigException;
import jakarta.xml.bind.JAXBContext;
import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlAttribute;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlRootElement;
import jakarta.xml.bind.annotation.XmlType;
import jakarta.xml.bind.annotation.XmlValue;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A key element with attributes and text only, as standard schemas write identifiers
 * ({@code <cbc:ID schemeID="GTIN">0123</cbc:ID>}): refused as structured, it could not key a record at all.
 */
class SimpleContentKeyTest {

    @XmlAccessorType(XmlAccessType.FIELD)
    @XmlType(name = "IdentifierType")
    static class Identifier {
        @XmlValue
        String value;
        @XmlAttribute
        String schemeID;
    }

    @XmlAccessorType(XmlAccessType.FIELD)
    @XmlType(name = "PartyType", propOrder = {"name"})
    static class Party {
        @XmlElement(name = "Name")
        String name;
    }

    @XmlRootElement(name = "item")
    @XmlAccessorType(XmlAccessType.FIELD)
    @XmlType(name = "", propOrder = {"id", "party"})
    static class Item {
        @XmlElement(name = "ID", required = true)
        Identifier id;
        @XmlElement(name = "Party")
        Party party;
    }

    @Test
    void anElementOfTextAndAttributesKeysByItsTextAndOneWithChildElementsIsStillRefused() throws Exception {
        Item item = (Item) JAXBContext.newInstance(Item.class).createUnmarshaller().unmarshal(new StringReader(
                "<item><ID schemeID='GTIN'>0123</ID><Party><Name>n</Name></Party></item>"));
        assertThat(new String(RecordKeys.of(Item.class, "ID").keyOf(item), StandardCharsets.UTF_8)).isEqualTo("0123");
        item.id = null;
        assertThat(RecordKeys.of(Item.class, "ID").keyOf(item)).isNull();
        assertThatThrownBy(() -> RecordKeys.of(Item.class, "Party")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("names a structured or repeated element");
    }
}
