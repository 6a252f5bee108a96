package io.xmlingest.core.bind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.FileFailedException;
import io.xmlingest.core.error.RecordRejectedException;
import io.xmlingest.core.split.StaxRecordSplitter;
import io.xmlingest.core.split.XmlLimits;
import io.xmlingest.sample.persons.Person;
import io.xmlingest.sample.persons.PhoneType;
import jakarta.xml.bind.JAXBContext;
import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class JaxbRecordBinderTest {

    private static final QName PERSON = new QName("urn:xmlingest:sample:persons", "person");
    private static JAXBContext context;

    @BeforeAll
    static void context() throws Exception {
        context = JAXBContext.newInstance(Person.class);
    }

    static String person(String id, String body) {
        return "<person" + (id == null ? "" : " id=\"" + id + "\"") + ">" + body + "</person>";
    }

    static final String GOOD_BODY = "<firstName>Zoë</firstName><lastName>O'Brien</lastName>"
            + "<email>zoe.obrien@example.com</email><birthDate>1980-02-29</birthDate><active>true</active>"
            + "<salary>1234.50</salary><phone type=\"mobile\">+4912345678</phone><phone type=\"work\">+4987654321</phone>"
            + "<address><street>1 Main Street</street><city>Berlin</city><postalCode>10115</postalCode>"
            + "<country>DE</country></address>";

    /** Binds each record of a document; a rejection is recorded as its message, and the next record is read. */
    private static List<Object> bindAll(String records) {
        return bindAll(records, null);
    }

    private static List<Object> bindAll(String records, javax.xml.validation.Schema schema) {
        String xml = "<persons xmlns=\"urn:xmlingest:sample:persons\">\n" + records + "\n</persons>";
        List<Object> out = new ArrayList<>();
        JaxbRecordBinder<Person> binder = new JaxbRecordBinder<>(context, Person.class, schema);
        try (var s = new StaxRecordSplitter(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), "p.xml",
                PERSON, XmlLimits.DEFAULTS)) {
            while (s.next()) {
                ErrorLocation where = new ErrorLocation("p.xml", s.position().recordIndex(), s.position().line(),
                        s.position().column(), s.position().byteOffset());
                try {
                    out.add(binder.bind(s.record(), where));
                } catch (RecordRejectedException e) {
                    out.add(e);
                }
            }
        }
        return out;
    }

    @Test
    void bindsEveryFieldWithItsType() {
        List<Object> bound = bindAll(person("42", GOOD_BODY));
        Person p = (Person) bound.get(0);
        assertThat(p.getId()).isEqualTo(42L);
        assertThat(p.getFirstName()).isEqualTo("Zoë");
        assertThat(p.getBirthDate().toXMLFormat()).isEqualTo("1980-02-29");
        assertThat(p.isActive()).isTrue();
        assertThat(p.getSalary()).isEqualByComparingTo(new BigDecimal("1234.50"));
        assertThat(p.getPhone()).extracting(ph -> ph.getType()).containsExactly(PhoneType.MOBILE, PhoneType.WORK);
        assertThat(p.getAddress().getCity()).isEqualTo("Berlin");
    }

    @Test
    void textInANumberFieldRejectsTheRecordWithItsLine() {
        List<Object> bound = bindAll(person("1", GOOD_BODY) + "\n"
                + person("2", GOOD_BODY.replace("<salary>1234.50</salary>", "<salary>lots</salary>")) + "\n"
                + person("3", GOOD_BODY));
        assertThat(bound.get(0)).isInstanceOf(Person.class);
        assertThat(bound.get(2)).isInstanceOf(Person.class);
        assertThat(bound.get(1)).isInstanceOfSatisfying(RecordRejectedException.class, e -> {
            assertThat(e.getMessage()).contains("p.xml", "record index 1", "line 3");
            assertThat(e.getMessage()).contains("<salary>");
        });
    }

    @Test
    void aDecimalWithAnExponentOrThousandsOfDigitsRejectsTheRecord() {
        assertThat(bindAll(person("1", GOOD_BODY.replace("1234.50", "1E999999999"))).get(0))
                .isInstanceOfSatisfying(RecordRejectedException.class,
                        e -> assertThat(e.getMessage()).contains("1E999999999", "xs:decimal", "<salary>"));
        assertThat(bindAll(person("1", GOOD_BODY.replace("1234.50", "9".repeat(5000)))).get(0))
                .isInstanceOf(RecordRejectedException.class);
        assertThat(((Person) bindAll(person("1", GOOD_BODY.replace("1234.50", " +.50 "))).get(0)).getSalary())
                .isEqualByComparingTo("0.50");
    }

    @Test
    void anInvalidDateRejectsTheRecord() {
        assertThat(bindAll(person("1", GOOD_BODY.replace("1980-02-29", "yesterday"))).get(0))
                .isInstanceOf(RecordRejectedException.class);
    }

    /** JAXB's own date parser takes any date or time form; the strict parser's refusal reaches the record, located. */
    @Test
    void aDateTimeOrAnotherFormInADateFieldRejectsTheRecordWithItsLine() {
        List<Object> bound = bindAll(person("1", GOOD_BODY) + "\n"
                + person("2", GOOD_BODY.replace("1980-02-29", "1959-06-11T10:20:30")) + "\n"
                + person("3", GOOD_BODY.replace("1980-02-29", "--06-11")));
        assertThat(bound.get(0)).isInstanceOf(Person.class);
        assertThat(bound.get(1)).isInstanceOfSatisfying(RecordRejectedException.class, e -> assertThat(e.getMessage())
                .contains("p.xml", "record index 1", "line 3", "'1959-06-11T10:20:30' is not an xs:date", "<birthDate>"));
        assertThat(bound.get(2)).isInstanceOfSatisfying(RecordRejectedException.class,
                e -> assertThat(e.getMessage()).contains("'--06-11' is not an xs:date"));
        // The parser's own words, without the exception's class name JAXB put before them.
        assertThat(((RecordRejectedException) bound.get(2)).reason()).startsWith("record does not bind: '--06-11' is not");
    }

    @Test
    void anInvalidBooleanRejectsTheRecordInsteadOfBindingFalse() {
        assertThat(bindAll(person("1", GOOD_BODY.replace("<active>true</active>", "<active>tru</active>"))).get(0))
                .isInstanceOfSatisfying(RecordRejectedException.class,
                        e -> assertThat(e.getMessage()).contains("tru"));
    }

    @Test
    void anInvalidIdRejectsTheRecordInsteadOfBindingZero() {
        assertThat(bindAll(person("abc", GOOD_BODY)).get(0)).isInstanceOf(RecordRejectedException.class);
    }

    @Test
    void anUnknownElementRejectsTheRecord() {
        assertThat(bindAll(person("1", GOOD_BODY.replace("<active>", "<nickname>Z</nickname><active>"))).get(0))
                .isInstanceOfSatisfying(RecordRejectedException.class,
                        e -> assertThat(e.getMessage()).contains("nickname"));
    }

    /** JAXB names mixed content's text with a NUL; grep took a log or dead letter holding one for a binary file. */
    @Test
    void anUnexpectedElementInMixedContentIsNamedWithoutTheNulJaxbWritesForText() throws Exception {
        String ns = io.xmlingest.core.encode.open.Contact.NS;
        String xml = "<contacts xmlns='" + ns + "'><contact id='c1'><email>a@x</email><note>Dear <i>Ana</i></note>"
                + "</contact></contacts>";
        JaxbRecordBinder<io.xmlingest.core.encode.open.Contact> binder = new JaxbRecordBinder<>(
                JAXBContext.newInstance(io.xmlingest.core.encode.open.Contact.class),
                io.xmlingest.core.encode.open.Contact.class);
        try (var s = new StaxRecordSplitter(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), "c.xml",
                new QName(ns, "contact"), XmlLimits.DEFAULTS)) {
            assertThat(s.next()).isTrue();
            ErrorLocation where = new ErrorLocation("c.xml", 0, s.position().line(), s.position().column(),
                    s.position().byteOffset());
            assertThatThrownBy(() -> binder.bind(s.record(), where)).isInstanceOf(RecordRejectedException.class)
                    .hasMessageContaining("unexpected element (uri:\"" + ns + "\", local:\"i\")")
                    .hasMessageContaining("Expected elements are text,<{" + ns + "}b>")
                    .hasMessageNotContaining("\u0000");
        }
    }

    /** JAXB stops reporting errors after ten per unmarshaller; the eleventh unknown element must not slip through. */
    @Test
    void theThirtiethUnknownElementIsRejectedLikeTheFirst() {
        StringBuilder records = new StringBuilder();
        for (int i = 0; i < 30; i++) {
            records.append(person(Integer.toString(i), GOOD_BODY.replace("<active>", "<nickname>Z</nickname><active>")));
            records.append(person(Integer.toString(100 + i), GOOD_BODY));
        }
        List<Object> bound = bindAll(records.toString());
        for (int i = 0; i < 60; i += 2) {
            assertThat(bound.get(i)).as("record %d", i).isInstanceOfSatisfying(RecordRejectedException.class,
                    e -> assertThat(e.getMessage()).contains("unexpected element", "nickname"));
            assertThat(bound.get(i + 1)).as("record %d", i + 1).isInstanceOf(Person.class);
        }
    }

    @Test
    void aMissingRequiredElementRejectsTheRecord() {
        assertThat(bindAll(person("1", GOOD_BODY.replace("<city>Berlin</city>", ""))).get(0))
                .isInstanceOfSatisfying(RecordRejectedException.class,
                        e -> assertThat(e.getMessage()).contains("address/city"));
        assertThat(bindAll(person("1", GOOD_BODY.replace("<active>true</active>", ""))).get(0))
                .isInstanceOfSatisfying(RecordRejectedException.class,
                        e -> assertThat(e.getMessage()).contains("active"));
    }

    @Test
    void aMissingRequiredAttributeRejectsTheRecord() {
        assertThat(bindAll(person(null, GOOD_BODY)).get(0))
                .isInstanceOfSatisfying(RecordRejectedException.class, e -> assertThat(e.getMessage()).contains("@id"));
    }

    @Test
    void aMissingRepeatedElementRejectsTheRecord() {
        String noPhones = GOOD_BODY.replaceAll("<phone[^>]*>[^<]*</phone>", "");
        assertThat(bindAll(person("1", noPhones)).get(0))
                .isInstanceOfSatisfying(RecordRejectedException.class, e -> assertThat(e.getMessage()).contains("phone"));
    }

    @Test
    void anInvalidEnumValueRejectsTheRecord() {
        assertThat(bindAll(person("1", GOOD_BODY.replace("type=\"work\"", "type=\"fax\""))).get(0))
                .isInstanceOfSatisfying(RecordRejectedException.class, e -> assertThat(e.getMessage())
                        .contains("'fax' is not a value of the enumeration PhoneType: mobile, home, work")
                        .contains("(in attribute type of <phone>)"));
    }

    /**
     * With record.schema, the validator refuses an attribute's value at its start tag, before JAXB converts it, and its
     * message named the element alone ("cvc-datatype-valid.1.2.1: 'x' is not a valid value for 'integer'. (in element
     * <person>)").
     */
    @Test
    void anAttributeValueTheValidatorRefusesNamesTheAttribute() throws Exception {
        javax.xml.validation.Schema schema = javax.xml.validation.SchemaFactory
                .newInstance(javax.xml.XMLConstants.W3C_XML_SCHEMA_NS_URI)
                .newSchema(JaxbRecordBinderTest.class.getResource("/xsd/persons.xsd"));
        assertThat(bindAll(person("x", GOOD_BODY), schema).get(0))
                .isInstanceOfSatisfying(RecordRejectedException.class, e -> assertThat(e.getMessage())
                        .contains("record is not valid against the schema: ").contains("'x'")
                        .contains("(in attribute id of <person>)"));
        assertThat(bindAll(person("1", GOOD_BODY), schema).get(0)).isInstanceOf(Person.class);
    }

    /** An attribute's value refused named the element alone: "'' is not an xs:long (in element <person>)". */
    @Test
    void aRefusedAttributeValueNamesTheAttribute() {
        assertThat(bindAll(person("", GOOD_BODY)).get(0))
                .isInstanceOfSatisfying(RecordRejectedException.class, e -> assertThat(e.getMessage())
                        .contains("is not an xs:long").contains("(in attribute id of <person>)"));
        // An element's text is refused at its end tag, and named as before.
        assertThat(bindAll(person("1", GOOD_BODY.replaceFirst("<salary>[^<]*</salary>", "<salary>abc</salary>"))).get(0))
                .isInstanceOfSatisfying(RecordRejectedException.class, e -> assertThat(e.getMessage())
                        .contains("(in element <salary>)"));
    }

    @Test
    void aLimitMetWhileBindingNamesTheSetting() {
        String huge = person("1", GOOD_BODY.replace("Berlin", "B".repeat(16_800_000)));
        assertThatThrownBy(() -> bindAll(huge))
                .isInstanceOf(FileFailedException.class)
                .hasMessageContaining("xml.max.text.size")
                .hasMessageContaining("record index 0");
    }

    @Test
    void xmlThatBreaksInsideARecordFailsTheFile() {
        String broken = person("1", GOOD_BODY.replace("</street>", "</strete>"));
        assertThatThrownBy(() -> bindAll(broken))
                .isInstanceOf(FileFailedException.class)
                .hasMessageContaining("p.xml")
                .hasMessageContaining("record index 0");
    }
}
