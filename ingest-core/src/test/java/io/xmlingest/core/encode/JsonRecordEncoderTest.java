package io.xmlingest.core.encode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.core.error.ConfigException;
import io.xmlingest.sample.persons.Address;
import io.xmlingest.sample.persons.Person;
import io.xmlingest.sample.persons.Phone;
import io.xmlingest.sample.persons.PhoneType;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import javax.xml.datatype.DatatypeFactory;
import org.junit.jupiter.api.Test;

class JsonRecordEncoderTest {

    static Person person() throws Exception {
        Person p = new Person();
        p.setId(7L);
        p.setFirstName("Zoë \"Z\"");
        p.setLastName("Ünal");
        p.setEmail("zoe@example.com");
        p.setBirthDate(DatatypeFactory.newInstance().newXMLGregorianCalendar("1990-01-31"));
        p.setActive(false);
        p.setSalary(new BigDecimal("100000.00"));
        Phone ph = new Phone();
        ph.setType(PhoneType.HOME);
        ph.setValue("+3312345678");
        p.getPhone().add(ph);
        Address a = new Address();
        a.setStreet("1 Rue de la Paix");
        a.setCity("Lyon");
        a.setPostalCode("69001");
        a.setCountry("FR");
        p.setAddress(a);
        return p;
    }

    @Test
    void writesXmlNamesTypedValuesAndArrays() throws Exception {
        String json = new String(new JsonRecordEncoder().encode(person()), StandardCharsets.UTF_8);
        assertThat(json).isEqualTo("{\"id\":7,\"firstName\":\"Zoë \\\"Z\\\"\",\"lastName\":\"Ünal\","
                + "\"email\":\"zoe@example.com\",\"birthDate\":\"1990-01-31\",\"active\":false,\"salary\":100000.00,"
                + "\"phone\":[{\"type\":\"home\",\"value\":\"+3312345678\"}],"
                + "\"address\":{\"street\":\"1 Rue de la Paix\",\"city\":\"Lyon\",\"postalCode\":\"69001\",\"country\":\"FR\"}}");
    }

    @Test
    void floatsKeepTheDigitsTheFileHadAndDoublesTheirs() throws Exception {
        io.xmlingest.core.encode.model.Kitchen k = new io.xmlingest.core.encode.model.Kitchen();
        k.name = "k";
        k.weight = Float.parseFloat("0.1");
        k.ratio = Double.parseDouble("1.0000001");
        String json = new String(new JsonRecordEncoder().encode(k), StandardCharsets.UTF_8);
        // Widened to a double, the float was written 0.10000000149011612.
        assertThat(json).contains("\"weight\":0.1,").contains("\"ratio\":1.0000001");
        k.weight = Float.parseFloat("1.0000001");
        k.ratio = null;
        assertThat(new String(new JsonRecordEncoder().encode(k), StandardCharsets.UTF_8)).contains("\"weight\":1.0000001");
    }

    @Test
    void leavesOutMissingOptionalValues() throws Exception {
        Person p = person();
        p.setEmail(null);
        String json = new String(new JsonRecordEncoder().encode(p), StandardCharsets.UTF_8);
        assertThat(json).doesNotContain("email").doesNotContain("null");
    }

    @Test
    void theEncoderIsReusableAcrossRecords() throws Exception {
        JsonRecordEncoder encoder = new JsonRecordEncoder();
        byte[] first = encoder.encode(person());
        Person other = person();
        other.setId(8L);
        byte[] second = encoder.encode(other);
        assertThat(new String(first, StandardCharsets.UTF_8)).startsWith("{\"id\":7,");
        assertThat(new String(second, StandardCharsets.UTF_8)).startsWith("{\"id\":8,");
    }

    @Test
    void keysComeFromTheNamedAttributeOrElement() throws Exception {
        assertThat(RecordKeys.of(Person.class, "id").keyOf(person())).isEqualTo("7".getBytes(StandardCharsets.UTF_8));
        assertThat(RecordKeys.of(Person.class, "email").keyOf(person()))
                .isEqualTo("zoe@example.com".getBytes(StandardCharsets.UTF_8));
        assertThat(RecordKeys.of(Person.class, "birthDate").keyOf(person()))
                .isEqualTo("1990-01-31".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void anUnknownOrStructuredKeyPropertyIsAConfigErrorNamingTheSetting() {
        assertThatThrownBy(() -> RecordKeys.of(Person.class, "idx"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("record.key").hasMessageContaining("firstName");
        assertThatThrownBy(() -> RecordKeys.of(Person.class, "address"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("record.key");
        assertThatThrownBy(() -> RecordKeys.of(Person.class, "phone"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("record.key");
    }
    /** Simple content with an attribute, as xjc binds a simpleContent extension. */
    @jakarta.xml.bind.annotation.XmlAccessorType(jakarta.xml.bind.annotation.XmlAccessType.FIELD)
    @jakarta.xml.bind.annotation.XmlType(name = "Label")
    public static class Label {
        @jakarta.xml.bind.annotation.XmlAttribute
        protected String lang;
        @jakarta.xml.bind.annotation.XmlValue
        protected String text;
    }

    @Test
    void aNilElementWithAttributesIsTheObjectOfThemWithoutAValue() {
        Label label = new Label();
        label.lang = "en";
        label.text = ""; // what JAXB leaves a nil element's text as
        var element = new jakarta.xml.bind.JAXBElement<>(new javax.xml.namespace.QName("label"), Label.class, label);
        assertThat(new String(new JsonRecordEncoder().encode(element), StandardCharsets.UTF_8))
                .isEqualTo("{\"lang\":\"en\",\"value\":\"\"}");
        element.setNil(true);
        // Before: {"lang":"en","value":""} as well, the nil lost.
        assertThat(new String(new JsonRecordEncoder().encode(element), StandardCharsets.UTF_8))
                .isEqualTo("{\"lang\":\"en\"}");
    }
}
