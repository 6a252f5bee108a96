package io.xmlingest.core.bind;

import static io.xmlingest.core.bind.JaxbRecordBinderTest.GOOD_BODY;
import static io.xmlingest.core.bind.JaxbRecordBinderTest.person;
import static org.assertj.core.api.Assertions.assertThat;

import io.xmlingest.core.bind.adapted.Money;
import io.xmlingest.core.bind.adapted.Order;
import io.xmlingest.core.bind.shapes.Drawing;
import io.xmlingest.core.encode.JsonRecordEncoder;
import io.xmlingest.core.encode.model.Parcel;
import io.xmlingest.core.encode.open.Contact;
import io.xmlingest.core.encode.open.Envelope;
import io.xmlingest.core.encode.open.Forward;
import io.xmlingest.core.encode.open.Relay;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.RecordRejectedException;
import io.xmlingest.core.split.StaxRecordSplitter;
import io.xmlingest.core.split.XmlLimits;
import io.xmlingest.sample.persons.Person;
import jakarta.xml.bind.JAXBContext;
import java.io.StringReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.namespace.QName;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Content the model has no place for. JAXB drops it without an event, so before, each of these
 * records was published with a value missing and nothing said.
 */
class UnmappedContentTest {

    private static final QName PERSON = new QName("urn:xmlingest:sample:persons", "person");
    private static final String GOOD_JSON = "{\"id\":1,\"firstName\":\"Zoë\",\"lastName\":\"O'Brien\","
            + "\"email\":\"zoe.obrien@example.com\",\"birthDate\":\"1980-02-29\",\"active\":true,\"salary\":1234.50,"
            + "\"phone\":[{\"type\":\"mobile\",\"value\":\"+4912345678\"},{\"type\":\"work\",\"value\":\"+4987654321\"}],"
            + "\"address\":{\"street\":\"1 Main Street\",\"city\":\"Berlin\",\"postalCode\":\"10115\",\"country\":\"DE\"}}";
    private static JAXBContext context;

    @BeforeAll
    static void context() throws Exception {
        context = JAXBContext.newInstance(Person.class);
    }

    @TempDir
    Path dir;

    /**
     * Each record bound from the live cursor and from the copy the pipeline's binder threads read; both must
     * agree, positions included (the copy finds them in the file's text).
     */
    private List<String> bindAll(boolean drop, String... records) throws Exception {
        String xml = "<persons xmlns=\"urn:xmlingest:sample:persons\" xmlns:o=\"urn:other\""
                + " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n" + String.join("\n", records) + "\n</persons>";
        List<String> live = new ArrayList<>();
        List<String> copied = new ArrayList<>();
        JaxbRecordBinder<Person> binder = new JaxbRecordBinder<>(context, Person.class, null, drop);
        Path file = Files.writeString(dir.resolve("p.xml"), xml);
        for (List<String> out : List.of(live, copied)) {
            try (var s = StaxRecordSplitter.open(file, PERSON, XmlLimits.DEFAULTS)) {
                while (s.next()) {
                    ErrorLocation where = new ErrorLocation(file.getFileName().toString(), s.position().recordIndex(), s.position().line(),
                            s.position().column(), s.position().byteOffset());
                    try {
                        Person p = binder.bind(out == live ? s.record() : s.capture().reader(), where);
                        out.add(new String(new JsonRecordEncoder().encode(p), StandardCharsets.UTF_8));
                    } catch (RecordRejectedException e) {
                        out.add(e.getMessage());
                    }
                }
            }
        }
        assertThat(copied).isEqualTo(live);
        return live;
    }

    private static final String[] UNMAPPED = {
        person("1", GOOD_BODY).replace("id=\"1\"", "id=\"1\" nickname=\"Zo\""),
        person("1", GOOD_BODY).replace("id=\"1\"", "id=\"1\" xml:lang=\"de\""),
        person("1", GOOD_BODY).replace("id=\"1\"", "id=\"1\" o:flag=\"yes\""),
        person("1", "IMPORTANT: deceased " + GOOD_BODY),
        person("1", GOOD_BODY.replace("<street>", "Apartment 4B, <street>")),
        person("1", "<firstName>Maria</firstName>" + GOOD_BODY),
        person("1", GOOD_BODY.replace("<firstName>", "<firstName lang=\"de\">")),
        person("1", GOOD_BODY.replace("<city>", "<city o:code=\"B\">")),
        person("1", GOOD_BODY.replace("<phone type=\"mobile\">", "<phone type=\"mobile\" primary=\"true\">")),
        person("1", GOOD_BODY.replace("<address>", "<address><![CDATA[c/o Ana]]>")),
        person("1", GOOD_BODY.replace("<firstName>Zoë</firstName>", "<firstName xsi:nil=\"true\"/>")),
    };

    @Test
    void contentTheModelHasNoPlaceForRejectsTheRecordSayingWhatAndWhere() throws Exception {
        List<String> out = bindAll(false, UNMAPPED);

        assertThat(out).allSatisfy(m -> assertThat(m).startsWith("record does not bind: ")
                .contains("[file p.xml, record index ").contains("line ").endsWith("(setting: record.unmapped.content)"));
        assertThat(out.get(0)).contains("attribute nickname of <person> is not in the model");
        assertThat(out.get(1)).contains("attribute xml:lang of <person> is not in the model");
        assertThat(out.get(2)).contains("attribute {urn:other}flag of <person> is not in the model");
        assertThat(out.get(3)).contains("text \"IMPORTANT: deceased\" inside <person> is not in the model, "
                + "which holds only elements there");
        assertThat(out.get(4)).contains("text \"Apartment 4B,\" inside <address>");
        assertThat(out.get(5)).contains("element <firstName> appears again, and the model holds one");
        assertThat(out.get(6)).contains("attribute lang of <firstName> is not in the model");
        assertThat(out.get(7)).contains("attribute {urn:other}code of <city> is not in the model");
        assertThat(out.get(8)).contains("attribute primary of <phone> is not in the model");
        assertThat(out.get(9)).contains("text \"c/o Ana\" inside <address>");
        // JAXB bound it as "": a first name the file never gave.
        assertThat(out.get(10)).contains("element <firstName> is nil (xsi:nil), and the model does not let it be");
        assertThat(out.get(3)).contains("line 5, column 16");
        assertThat(out.get(5)).contains("line 7, column 44");
    }

    @Test
    void whatTheModelDoesHoldStillBindsAndTheBinderGoesOn() throws Exception {
        String pretty = person("1", "\n  " + GOOD_BODY.replace("><", ">\n  <")
                .replace("<email>zoe.obrien@example.com</email>", "<email xsi:nil=\"false\">zoe.obrien@example.com</email>")
                + "\n");
        List<String> out = bindAll(false, UNMAPPED[0], pretty, person("1", GOOD_BODY).replace("id=\"1\"",
                "id=\"1\" xsi:type=\"Person\" xsi:schemaLocation=\"urn:xmlingest:sample:persons persons.xsd\""),
                UNMAPPED[5], person("1", GOOD_BODY));

        assertThat(out.get(0)).contains("nickname");
        assertThat(out.get(1)).isEqualTo(GOOD_JSON);
        assertThat(out.get(2)).isEqualTo(GOOD_JSON);
        assertThat(out.get(3)).contains("appears again");
        assertThat(out.get(4)).isEqualTo(GOOD_JSON);
    }

    /**
     * The record element's own xsi:nil and xsi:type, an xsi:type JAXB does not know, and an attribute
     * of a declared local name in another namespace: each was published without a word (JAXB ignores
     * the first three and drops the last), though the file said something the message then did not.
     */
    @Test
    void markupOnTheRecordElementUnknownTypesAndAttributesOfAnotherNamespaceRejectTheRecord() throws Exception {
        List<String> out = bindAll(false,
                person("1", GOOD_BODY).replace("id=\"1\"", "id=\"1\" xsi:nil=\"true\""),
                person("1", GOOD_BODY).replace("id=\"1\"", "id=\"1\" xsi:type=\"Bogus\""),
                person("1", GOOD_BODY).replace("id=\"1\"", "id=\"1\" xsi:type=\"Address\""),
                person("1", GOOD_BODY.replace("<address>", "<address xsi:type=\"Bogus\">")),
                person("1", GOOD_BODY).replace("id=\"1\"", "id=\"1\" o:id=\"9\""),
                person("1", GOOD_BODY.replace("<address>", "<address xsi:type=\"Address\">")),
                person("1", GOOD_BODY).replace("id=\"1\"", "id=\"1\" xsi:nil=\"false\" xsi:type=\"Person\""),
                person("1", GOOD_BODY.replace("<birthDate>1980-02-29</birthDate>", "<birthDate xsi:nil=\"true\"/>")));

        assertThat(out.subList(0, 5)).allSatisfy(m -> assertThat(m).startsWith("record does not bind: ")
                .contains("[file p.xml, record index "));
        assertThat(out.get(0)).contains("the record element <person> is nil (xsi:nil), and a record cannot be")
                .endsWith("(setting: record.unmapped.content)");
        assertThat(out.get(1)).contains("element <person> has xsi:type=\"Bogus\", which names no type the model "
                + "knows as a kind of its declared type Person");
        assertThat(out.get(2)).contains("element <person> has xsi:type=\"Address\"");
        assertThat(out.get(3)).contains("Bogus");
        assertThat(out.get(4)).contains("attribute {urn:other}id of <person> is not in the model");
        assertThat(out.get(5)).isEqualTo(GOOD_JSON);
        assertThat(out.get(6)).isEqualTo(GOOD_JSON);
        // Said as the cause, not as JAXB's refusal of the "" it then bound, a value the file never had.
        assertThat(out.get(7)).contains("element <birthDate> is nil (xsi:nil), and the model does not let it be")
                .endsWith("(setting: record.unmapped.content)");
    }

    /**
     * JAXB ignores an xsi:type on an element bound to a plain value: {@code <salary xsi:type="xs:string">} was
     * published as the decimal. A built-in type that can be no kind of the declared one (as far as the model
     * tells: its {@code @XmlSchemaType}, else its Java type) rejects the record; one that may be, or a type of
     * the schema's own, binds.
     */
    @Test
    void aBuiltinXsiTypeThatCanBeNoKindOfAPlainValuesDeclaredTypeIsRejected() throws Exception {
        String xs = " xmlns:xs=\"http://www.w3.org/2001/XMLSchema\"";
        String[] refused = {
            person("1", GOOD_BODY.replace("<firstName>", "<firstName" + xs + " xsi:type=\"xs:int\">")),
            person("1", GOOD_BODY.replace("<salary>", "<salary" + xs + " xsi:type=\"xs:string\">")),
            person("1", GOOD_BODY.replace("<salary>", "<salary" + xs + " xsi:type=\"xs:double\">")),
            person("1", GOOD_BODY.replace("<active>", "<active" + xs + " xsi:type=\"xs:int\">")),
            person("1", GOOD_BODY.replace("<birthDate>", "<birthDate" + xs + " xsi:type=\"xs:dateTime\">")),
            person("1", GOOD_BODY.replace("<firstName>", "<firstName" + xs + " xsi:type=\"xs:anyType\">")),
            person("1", GOOD_BODY.replace("<firstName>", "<firstName" + xs + " xsi:type=\"xs:nosuchType\">")),
        };
        String[] bound = {
            person("1", GOOD_BODY.replace("<firstName>", "<firstName" + xs + " xsi:type=\"xs:token\">")),
            person("1", GOOD_BODY.replace("<salary>", "<salary" + xs + " xsi:type=\"xs:decimal\">")),
            person("1", GOOD_BODY.replace("<salary>", "<salary" + xs + " xsi:type=\"xs:int\">")),
            person("1", GOOD_BODY.replace("<active>", "<active" + xs + " xsi:type=\"xs:boolean\">")),
            person("1", GOOD_BODY.replace("<firstName>", "<firstName xsi:type=\"Name\">")),
        };
        List<String> all = new ArrayList<>(List.of(refused));
        all.addAll(List.of(bound));
        List<String> out = bindAll(false, all.toArray(String[]::new));

        assertThat(out.subList(0, refused.length)).allSatisfy(m -> assertThat(m).startsWith("record does not bind: ")
                .contains("[file p.xml, record index ").endsWith("(setting: record.unmapped.content)"));
        assertThat(out.get(0)).contains("element <firstName> has xsi:type=\"xs:int\", which is not a kind of its "
                + "declared type (a kind of xs:anyURI or xs:string)");
        assertThat(out.get(1)).contains("element <salary> has xsi:type=\"xs:string\", which is not a kind of its "
                + "declared type (a kind of xs:decimal)");
        assertThat(out.get(2)).contains("<salary> has xsi:type=\"xs:double\"");
        assertThat(out.get(3)).contains("<active> has xsi:type=\"xs:int\"").contains("(a kind of xs:boolean)");
        assertThat(out.get(4)).contains("<birthDate> has xsi:type=\"xs:dateTime\"").contains("(a kind of xs:date)");
        assertThat(out.get(5)).contains("xs:anyType");
        assertThat(out.get(6)).contains("xs:nosuchType");
        assertThat(out.subList(refused.length, out.size())).allSatisfy(m -> assertThat(m).isEqualTo(GOOD_JSON));
        assertThat(bindAll(true, refused)).as("drop: as JAXB binds it").allSatisfy(m -> assertThat(m).isEqualTo(GOOD_JSON));
    }

    /** Binds records of one model, each given as a document of its own, with one binder as a binder thread does. */
    private static final class Documents<T> {
        private final JaxbRecordBinder<T> binder;

        Documents(Class<T> type, Class<?>... registries) throws Exception {
            List<Class<?>> classes = new ArrayList<>(List.of(registries));
            classes.add(0, type);
            binder = new JaxbRecordBinder<>(JAXBContext.newInstance(classes.toArray(Class<?>[]::new)), type, null, false);
        }

        /** The bound record, or the message of its rejection. */
        Object bind(String xml) throws Exception {
            XMLStreamReader r = XMLInputFactory.newFactory().createXMLStreamReader(new StringReader(xml));
            r.nextTag();
            try {
                return binder.bind(r, ErrorLocation.ofFile("r.xml"));
            } catch (RecordRejectedException e) {
                return e.getMessage();
            }
        }

        /**
         * The record inside {@code outer} (its first child), bound from a reader that goes on past the record's end
         * tag, as a reader over a record wrapped in a start tag declaring the file's namespaces does.
         */
        Object bindInside(String outer) throws Exception {
            // Woodstox, the splitter's parser: JAXB reads one event past the record's end tag from it.
            XMLStreamReader r = new com.ctc.wstx.stax.WstxInputFactory().createXMLStreamReader(new StringReader(outer));
            r.nextTag();
            r.nextTag();
            try {
                return binder.bind(r, ErrorLocation.ofFile("r.xml"));
            } catch (RecordRejectedException e) {
                return e.getMessage();
            }
        }

        /** The record as its message's JSON, or the message of its rejection. */
        String json(String xml) throws Exception {
            Object bound = bind(xml);
            return bound instanceof String rejected ? rejected
                    : new String(new JsonRecordEncoder().encode(bound), StandardCharsets.UTF_8);
        }
    }

    @Test
    void anElementOfTheSameLocalNameFromAnotherNamespaceIsTheWildcardsNotARepeat() throws Exception {
        // Envelope holds one <from> and a lax wildcard; o:from, in another namespace, is the wildcard's, with its
        // attribute. Matched by local name alone, it was rejected as a second <from> or an attribute with no place.
        Documents<Envelope> envelopes = new Documents<>(Envelope.class);
        String head = "<envelope xmlns='urn:xmlingest:test:contact' xmlns:o='urn:o'><from>me</from>";
        assertThat(envelopes.json(head + "<o:from a='1'>x</o:from></envelope>"))
                .isEqualTo("{\"from\":\"me\",\"any\":[{\"{urn:o}from\":{\"a\":\"1\",\"value\":\"x\"}}]}");
        assertThat(envelopes.json(head + "<from>you</from></envelope>")).contains("element <from> appears again");
    }

    @Test
    void aKnownElementALaxWildcardLetsInHasItsAttributesAndNilMarkChecked() throws Exception {
        // <channel> is a global element of xs:string: in the wildcard JAXB binds it by that declaration, to a plain
        // value, where the checks did not look. Its attribute went, and so did the text of a nil one.
        Documents<Envelope> envelopes = new Documents<>(Envelope.class);
        String head = "<envelope xmlns='urn:xmlingest:test:contact' xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance'>"
                + "<from>me</from>";
        assertThat(envelopes.json(head + "<channel>x</channel></envelope>"))
                .isEqualTo("{\"from\":\"me\",\"any\":[{\"channel\":\"x\"}]}");
        assertThat(envelopes.json(head + "<channel xsi:nil='true'/></envelope>"))
                .isEqualTo("{\"from\":\"me\",\"any\":[{\"channel\":null}]}");
        assertThat(envelopes.json(head + "<channel a='1'>x</channel></envelope>"))
                .contains("attribute a of <channel> would be lost: a wildcard lets the element in, and the model binds "
                        + "it by its declaration to a plain value");
        assertThat(envelopes.json(head + "<channel xsi:nil='true'>x</channel></envelope>"))
                .contains("element <channel> is nil (xsi:nil) but holds text \"x\", which would be lost");
    }

    @Test
    void aSecondItemOfAChoiceHeldOnceIsRejectedWhateverItsName() throws Exception {
        // Contact holds one <channel>, for which <fax> and <pager> may stand (a substitution group): JAXB kept the last
        // of them and published the record without the others.
        Documents<Contact> contacts = new Documents<>(Contact.class);
        List<String> out = new ArrayList<>();
        for (String content : List.of("<fax>1</fax>", "<channel>a</channel><fax>1</fax>", "<pager>2</pager><pager>3</pager>",
                "<fax>1</fax><o:fax>x</o:fax>", "<channel xsi:nil='true'>kept?</channel>", "<channel xsi:nil='true'/>",
                "<count xsi:nil='true'>5</count>", "<weight unit='kg'>5</weight>")) {
            out.add(contacts.json("<contact xmlns='urn:xmlingest:test:contact' xmlns:o='urn:o' id='c'"
                    + " xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance'><email>e</email>" + content + "</contact>"));
        }
        assertThat(out.get(0)).isEqualTo("{\"id\":\"c\",\"emailOrPhone\":[{\"email\":\"e\"}],\"channel\":{\"fax\":\"1\"}}");
        assertThat(out.get(1)).contains("element <fax> is a second item of channel, and the model holds one of them");
        assertThat(out.get(2)).contains("element <pager> is a second item of channel");
        // Another namespace's fax is the wildcard's, not a second channel.
        assertThat(out.get(3)).startsWith("{").contains("\"channel\":{\"fax\":\"1\"}", "{urn:o}fax");
        // JAXB bound a nil element with content as null and dropped the content; empty, it is null indeed.
        assertThat(out.get(4)).contains("element <channel> is nil (xsi:nil) but holds text \"kept?\", which would be lost");
        assertThat(out.get(5)).contains("\"channel\":null");
        // Items of a repeated choice are checked as other elements are.
        assertThat(out.get(6)).contains("element <count> is nil (xsi:nil) but holds text \"5\"");
        assertThat(out.get(7)).contains("attribute unit of <weight> is not in the model");
    }

    @Test
    void aSubstituteTheModelAlsoNamesOnItsOwnIsCheckedWhereJaxbPutsIt() throws Exception {
        // Relay holds one <channel> and, after it, one <fax> and one <pager>, which may also stand for the channel.
        // JAXB puts every <fax> and <pager> in the channel, the first place the class has for them, so
        // <channel/><fax/> was published with the channel lost.
        Documents<Relay> relays = new Documents<>(Relay.class);
        List<String> out = new ArrayList<>();
        for (String content : List.of("<channel>c</channel>", "<fax>f</fax>", "<channel>c</channel><fax>f</fax>",
                "<fax>f</fax><channel>c</channel>", "<channel>c</channel><pager>p</pager>", "<fax>f</fax><pager>p</pager>",
                "<fax>f1</fax><fax>f2</fax>")) {
            out.add(relays.json("<relay xmlns='urn:xmlingest:test:contact'>" + content + "</relay>"));
        }
        assertThat(out.get(0)).isEqualTo("{\"channel\":{\"channel\":\"c\"}}");
        assertThat(out.get(1)).isEqualTo("{\"channel\":{\"fax\":\"f\"}}");
        assertThat(out.get(2)).contains("element <fax> is a second item of channel, and the model holds one of them; "
                + "the model has 2 places for <fax>, and JAXB puts every one in channel");
        assertThat(out.get(3)).contains("element <channel> is a second item of channel, and the model holds one of them [");
        assertThat(out.get(4)).contains("element <pager> is a second item of channel, and the model holds one of them; "
                + "the model has 3 places for <pager>, and JAXB puts every one in channel");
        assertThat(out.get(5)).contains("element <pager> is a second item of channel", "3 places for <pager>");
        assertThat(out.get(6)).contains("element <fax> is a second item of channel", "2 places for <fax>");

        // The other way round, the member's own place first and a list: JAXB keeps every <fax> there, nothing is lost.
        Documents<Forward> forwards = new Documents<>(Forward.class);
        String head = "<forward xmlns='urn:xmlingest:test:contact'>";
        assertThat(forwards.json(head + "<fax>1</fax><pager>2</pager><fax>3</fax><channel>c</channel></forward>"))
                .isEqualTo("{\"fax\":[{\"fax\":\"1\"},{\"pager\":\"2\"},{\"fax\":\"3\"}],\"channel\":{\"channel\":\"c\"}}");
        assertThat(forwards.json(head + "<channel>c</channel><channel>d</channel></forward>"))
                .contains("element <channel> is a second item of channel");
    }

    @Test
    void anXsiTypeThatIsNoKindOfTheDeclaredTypeIsRejected() throws Exception {
        // JAXB bound <to xsi:type="ExpressParcel"> as an ExpressParcel in a Place field: a message the model's
        // JSON Schema has no room for.
        Documents<Parcel> parcels = new Documents<>(Parcel.class);
        List<String> out = new ArrayList<>();
        for (String to : List.of("<to xsi:type='Locker'><city>B</city><locker>3</locker></to><via xsi:type='HeatedLocker'>"
                        + "<city>C</city><locker>4</locker></via>",
                "<to xsi:type='ExpressParcel'><id>q</id><to><city>x</city></to><by>air</by></to>",
                "<to><city>B</city></to><via xsi:type='ExpressParcel'><id>q</id></via>")) {
            out.add(parcels.json("<parcel xmlns='urn:xmlingest:test:parcel' "
                    + "xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance'><id>p</id>" + to + "</parcel>"));
        }
        assertThat(out.get(0)).startsWith("{\"id\":\"p\",\"to\":{");
        assertThat(out.get(1)).contains("element <to> has xsi:type=\"ExpressParcel\", which is not a kind of its "
                + "declared type Place");
        assertThat(out.get(2)).contains("element <via> has xsi:type=\"ExpressParcel\"");
    }

    @Test
    void anAdaptedFieldOrAChoiceOfThePropertysTypeBindsAndANilElementsAttributesAreNotLostSilently() throws Exception {
        Documents<Order> orders = new Documents<>(Order.class);
        String head = "<order xmlns='urn:xmlingest:test:adapted' xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance' id='1'>";
        // JAXB makes a MoneyXml for the adapter and an Item for each alternative: the xsi:type check, armed for
        // every element, took them for elements of a foreign type and rejected the record.
        assertThat(orders.bind(head + "<price currency='GBP'>9.99</price><item><name>a</name></item><gift><name>b</name>"
                + "</gift><note xsi:nil='true'/></order>")).isInstanceOfSatisfying(Order.class, o -> {
                    assertThat(o.price).isEqualTo(new Money(new BigDecimal("9.99"), "GBP"));
                    assertThat(o.items).extracting(i -> i.name).containsExactly("a", "b");
                });
        // A nil element not held in a JAXBElement binds as null: its attribute went with it, without a word.
        assertThat(orders.bind(head + "<note xsi:nil='true' lang='en'/></order>")).asString()
                .contains("attribute lang of <note> would be lost: the element is nil (xsi:nil)");
    }

    @Test
    void anAdaptedValueAndEachAlternativeOfAChoiceAreWrittenUnderTheirXmlNames() throws Exception {
        Documents<Order> orders = new Documents<>(Order.class);
        String head = "<order xmlns='urn:xmlingest:test:adapted' xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance' id='1'>";
        // Before: the item, of the alternative that leaves its type to the property, was "cannot tell which element a
        // ...Item in this property was", so every such record went to the dead letters; the price was Money's
        // toString(), "Money[amount=9.99, currency=GBP]", where the adapter gives JAXB's MoneyXml.
        assertThat(orders.json(head + "<price currency='GBP'>9.99</price><item><name>a</name></item><gift><name>b</name>"
                + "<wrapping>red</wrapping></gift><note xsi:nil='true'/></order>"))
                .isEqualTo("{\"id\":\"1\",\"price\":{\"currency\":\"GBP\",\"value\":9.99},\"items\":[{\"item\":{\"name\":\"a\"}},"
                        + "{\"gift\":{\"name\":\"b\",\"wrapping\":\"red\"}}]}");
        // An item keeps only its class: <item xsi:type='gift'> would be published as a <gift>.
        assertThat(orders.json(head + "<item xsi:type='gift'><name>a</name></item><note xsi:nil='true'/></order>"))
                .contains("element <item> has xsi:type=\"gift\", the type of <gift>, another alternative of items; "
                        + "the model keeps only each item's class, so it would be published as <gift>");
        // JAXB said "java.lang.IllegalArgumentException: prefix zz is not bound to a namespace", at the record's start.
        assertThat(orders.json(head + "<item xsi:type='zz:gift'><name>a</name></item><note xsi:nil='true'/></order>"))
                .contains("element <item> has xsi:type=\"zz:gift\", whose prefix zz is bound to no namespace")
                .contains("line 1, column 104");
    }

    /** A record holding xs:anyType elements, which JAXB binds to DOM, a bound class, or a value its xsi:type names. */
    @jakarta.xml.bind.annotation.XmlRootElement(name = "bag")
    @jakarta.xml.bind.annotation.XmlAccessorType(jakarta.xml.bind.annotation.XmlAccessType.FIELD)
    @jakarta.xml.bind.annotation.XmlType(name = "Bag")
    public static class Bag {
        protected List<Object> any;
        @jakarta.xml.bind.annotation.XmlElement(nillable = true)
        protected List<Object> open;
        @jakarta.xml.bind.annotation.XmlSchemaType(name = "anySimpleType")
        protected Object simple;
    }

    /** A choice one of whose alternatives is the record's own class. */
    @jakarta.xml.bind.annotation.XmlRootElement(name = "node")
    @jakarta.xml.bind.annotation.XmlAccessorType(jakarta.xml.bind.annotation.XmlAccessType.FIELD)
    @jakarta.xml.bind.annotation.XmlType(name = "Node")
    public static class Node {
        @jakarta.xml.bind.annotation.XmlElements({@jakarta.xml.bind.annotation.XmlElement(name = "leaf", type = Leaf.class),
                @jakarta.xml.bind.annotation.XmlElement(name = "node", type = Node.class)})
        protected List<Object> items;
    }

    @jakarta.xml.bind.annotation.XmlAccessorType(jakarta.xml.bind.annotation.XmlAccessType.FIELD)
    @jakarta.xml.bind.annotation.XmlType(name = "Leaf")
    public static class Leaf {
        @jakarta.xml.bind.annotation.XmlAttribute
        protected String x;
    }

    @Test
    void whatOneRecordsChoiceItemLeftIsNotCarriedIntoTheNext() throws Exception {
        // The last start tag of the middle record is a typed choice item: its choice was still armed for the next
        // record's own xsi:type, and a valid record was rejected as "the type of <node>, another alternative".
        Documents<Node> nodes = new Documents<>(Node.class);
        String xsi = " xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance'";
        assertThat(nodes.json("<node" + xsi + " xsi:type='Node'><leaf/></node>")).isEqualTo("{\"items\":[{\"leaf\":{}}]}");
        assertThat(nodes.json("<node" + xsi + "><leaf xsi:type='Leaf'/></node>")).isEqualTo("{\"items\":[{\"leaf\":{}}]}");
        assertThat(nodes.json("<node" + xsi + " xsi:type='Node'><leaf/></node>")).isEqualTo("{\"items\":[{\"leaf\":{}}]}");
    }

    @Test
    void anAnyTypeElementWhoseXsiTypeIsBuiltInHasItsTextCheckedStrictlyAndKeepsNoAttribute() throws Exception {
        Documents<Bag> bags = new Documents<>(Bag.class);
        String head = "<bag xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance' xmlns:xs='http://www.w3.org/2001/XMLSchema'>";
        assertThat(bags.json(head + "<any xsi:type='xs:int'> 5 </any><any xsi:type='xs:boolean'>1</any>"
                + "<any xsi:type='xs:string'> s </any><any xsi:type='xs:decimal'>1.50</any></bag>"))
                .isEqualTo("{\"any\":[5,true,\" s \",1.50]}");
        // JAXB's own converters published each of these changed: null, 1215752191, "notbase6", 12, 5 without a="1".
        assertThat(bags.json(head + "<any xsi:type='xs:boolean'>yes</any></bag>"))
                .contains("element <any> has xsi:type=\"xs:boolean\", and 'yes' is not an xs:boolean");
        assertThat(bags.json(head + "<any xsi:type='xs:int'>99999999999</any></bag>"))
                .contains("'99999999999' is not an xs:int");
        assertThat(bags.json(head + "<any xsi:type='xs:base64Binary'>!!!notbase64</any></bag>"))
                .contains("'!!!notbase64' is not an xs:base64Binary");
        // JAXB read hexadecimal as base64: "0A" was published as no bytes, "0aff" as three others.
        assertThat(bags.json(head + "<any xsi:type='xs:base64Binary'>Cv8=</any></bag>")).isEqualTo("{\"any\":[\"Cv8=\"]}");
        for (String hex : new String[] {"<any xsi:type='xs:hexBinary'>0A</any>", "<any xsi:type=' xs:hexBinary'>0aff</any>",
                "<simple xsi:type='xs:hexBinary'>0A</simple>"}) {
            assertThat(bags.json(head + hex + "</bag>")).as(hex).contains("has xsi:type=\"").contains("xs:hexBinary\" where "
                    + "the model holds any value (xs:anyType or xs:anySimpleType), and JAXB would read its hexadecimal "
                    + "text as base64");
        }
        assertThat(bags.json(head + "<any xsi:type='xs:int'>1 2</any></bag>")).contains("'1 2' is not an xs:int");
        assertThat(bags.json(head + "<any xsi:type='xs:int' a='1'>5</any></bag>"))
                .contains("attribute a of <any> would be lost: its xsi:type=\"xs:int\" binds it to a plain value");
        assertThat(bags.json(head + "<any xsi:type='xs:int'>5<x/></any></bag>"))
                .contains("element <x> is inside <any>, whose xsi:type=\"xs:int\" holds text only");
        // Without a built-in xsi:type it is open content, kept whole; so it is with xs:anyType's own.
        assertThat(bags.json(head + "<any a='1'>t<x>u</x></any></bag>")).startsWith("{\"any\":[{");
        assertThat(bags.json(head + "<any xsi:type='xs:anyType' a='1'>t<x>u</x></any></bag>"))
                .isEqualTo("{\"any\":[{\"a\":\"1\",\"x\":\"u\",\"value\":\"t\"}]}");
        // Read on past the record's end, to the wrapper's: the end tag at depth 0 was taken for the checked element's
        // (a NullPointerException rejected every record of the bench's re-parsing binders).
        assertThat(new Documents<>(Bag.class).bindInside("<w>" + head + "<any>5</any></bag></w>")).isInstanceOf(Bag.class);
        assertThat(bags.bindInside("<w>" + head + "<any xsi:type='xs:int'>5</any></bag></w>")).isInstanceOf(Bag.class);
        // A nil one has no text to check.
        assertThat(bags.json(head + "<open xsi:type='xs:int' xsi:nil='true'/><open xsi:type='xs:int'>7</open></bag>"))
                .isEqualTo("{\"open\":[null,7]}");
    }

    /** A repeated nillable xs:int, and an optional nillable element with a required child, as xjc binds them. */
    @jakarta.xml.bind.annotation.XmlRootElement(name = "box")
    @jakarta.xml.bind.annotation.XmlAccessorType(jakarta.xml.bind.annotation.XmlAccessType.FIELD)
    @jakarta.xml.bind.annotation.XmlType(name = "Box", propOrder = {"n", "m", "sizes", "lid"})
    public static class Box {
        @jakarta.xml.bind.annotation.XmlElement(nillable = true)
        protected List<Integer> n;
        /** Through a strict parser, as a compiled model binds every xs:int. */
        @jakarta.xml.bind.annotation.XmlElement(nillable = true)
        @jakarta.xml.bind.annotation.adapters.XmlJavaTypeAdapter(StrictInt.class)
        protected List<Integer> m;
        /** An xs:list: its items are never nil, only the element. */
        @jakarta.xml.bind.annotation.XmlList
        @jakarta.xml.bind.annotation.XmlElement(nillable = true)
        protected List<Integer> sizes;
        @jakarta.xml.bind.annotation.XmlElementRef(name = "lid", type = jakarta.xml.bind.JAXBElement.class, required = false)
        protected jakarta.xml.bind.JAXBElement<Lid> lid;
    }

    @jakarta.xml.bind.annotation.XmlAccessorType(jakarta.xml.bind.annotation.XmlAccessType.FIELD)
    @jakarta.xml.bind.annotation.XmlType(name = "Lid", propOrder = {"z"})
    public static class Lid {
        @jakarta.xml.bind.annotation.XmlAttribute
        protected String u;
        @jakarta.xml.bind.annotation.XmlElement(required = true)
        protected Integer z;
    }

    public static class StrictInt extends jakarta.xml.bind.annotation.adapters.XmlAdapter<String, Integer> {
        @Override
        public Integer unmarshal(String text) {
            return XsdLexical.parseInt(text);
        }

        @Override
        public String marshal(Integer value) {
            return value.toString();
        }
    }

    @jakarta.xml.bind.annotation.XmlRegistry
    public static class BoxFactory {
        @jakarta.xml.bind.annotation.XmlElementDecl(name = "lid", scope = Box.class)
        public jakarta.xml.bind.JAXBElement<Lid> createBoxLid(Lid value) {
            return new jakarta.xml.bind.JAXBElement<>(new QName("", "lid"), Lid.class, Box.class, value);
        }
    }

    @Test
    void nilItemsOfAListOfValuesKeepTheirPlaceAndANilElementNeedsNoRequiredChild() throws Exception {
        Documents<Box> boxes = new Documents<>(Box.class, BoxFactory.class);
        String head = "<box xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance'>";
        // JAXB leaves nil items out of a list of plain values it binds through an adapter: [1,3], and [] for a lone
        // nil one. Without an adapter it keeps them.
        assertThat(boxes.json(head + "<m>1</m><m xsi:nil='true'/><m>3</m></box>")).isEqualTo("{\"m\":[1,null,3]}");
        assertThat(boxes.json(head + "<m xsi:nil='true'/><m xsi:nil='true'/><m>7</m><m xsi:nil='true'/></box>"))
                .isEqualTo("{\"m\":[null,null,7,null]}");
        assertThat(boxes.json(head + "<m xsi:nil='true'/></box>")).isEqualTo("{\"m\":[null]}");
        assertThat(boxes.json(head + "<n>1</n><n xsi:nil='true'/><n>3</n></box>")).isEqualTo("{\"n\":[1,null,3]}");
        assertThat(boxes.json(head + "<sizes xsi:nil='true'/></box>")).doesNotContain("[null]");
        assertThat(boxes.json(head + "<n xsi:nil='true'/><n xsi:nil='true'/><n>7</n><n xsi:nil='true'/></box>"))
                .isEqualTo("{\"n\":[null,null,7,null]}");
        assertThat(boxes.json(head + "<n xsi:nil='true'/></box>")).isEqualTo("{\"n\":[null]}");
        // A nil element has no content, so its required <z> is not missing: the record was rejected for it.
        assertThat(boxes.json(head + "<lid u='x' xsi:nil='true'/></box>")).isEqualTo("{\"lid\":{\"u\":\"x\"}}");
        assertThat(boxes.json(head + "<lid u='x'/></box>")).contains("required value lid/z is missing");
        // JAXB took an xsi:nil that is no boolean for false.
        assertThat(boxes.json(head + "<m xsi:nil='yes'/></box>"))
                .contains("attribute xsi:nil of <m> is 'yes', which is not an xs:boolean (true, false, 1 or 0)");
    }

    @Test
    void anAbstractTypeWithoutXsiTypeSaysWhatIsMissing() throws Exception {
        // JAXB said only 'Unable to create an instance of ...Shape'.
        assertThat(new Documents<>(Drawing.class).bind("<drawing xmlns='urn:xmlingest:test:shapes' "
                + "xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance'><shape xsi:type='Circle'><radius>1.5</radius>"
                + "</shape><shape><radius>2</radius></shape></drawing>")).asString()
                .contains("its type is abstract, so the element needs an xsi:type naming a type derived from it")
                .contains("(in element <shape>)");
    }

    @Test
    void dropLeavesItOutAsJaxbDoes() throws Exception {
        List<String> out = bindAll(true, UNMAPPED);

        assertThat(out).hasSize(UNMAPPED.length);
        // The repeated firstName keeps JAXB's choice: the last one; the nil one binds as JAXB binds it.
        assertThat(out.subList(0, UNMAPPED.length - 1)).allSatisfy(json -> assertThat(json).isEqualTo(GOOD_JSON));
        assertThat(out.get(UNMAPPED.length - 1)).isEqualTo(GOOD_JSON.replace("Zoë", ""));
    }
}
