package io.xmlingest.core.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.core.bind.JaxbRecordBinder;
import io.xmlingest.core.encode.JsonRecordEncoder;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.RecordRejectedException;
import io.xmlingest.sample.persons.Person;
import jakarta.xml.bind.JAXBContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.namespace.QName;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The copy of a record that binder threads read must be indistinguishable from the live cursor
 * the binder used to read: same events, names, namespaces, attributes and text, the same bound
 * values, and the same error positions.
 */
class CapturedRecordTest {

    private static final QName ITEM = new QName("urn:t", "item");
    private static final QName PERSON = new QName("urn:xmlingest:sample:persons", "person");
    private static JAXBContext context;

    @TempDir
    Path dir;

    @BeforeAll
    static void model() throws Exception {
        context = JAXBContext.newInstance(Person.class);
    }

    private static final XmlLimits INTERNAL = new XmlLimits(500, 500, 65536, 1 << 20, DoctypePolicy.INTERNAL, 100, 4,
            1 << 20);

    private static final String TRICKY = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<!DOCTYPE root [<!ENTITY co \"ACME &amp; Co\">]>\n"
            + "<root xmlns=\"urn:t\" xmlns:a=\"urn:a\">\n"
            + "  <group a:kind=\"g\">\n"
            + "    <item id=\"1\" a:flag=\"yes\"><name>plain</name><!-- a comment --><?pi data?></item>\n"
            + "    <item id=\"2\" xmlns:b=\"urn:b\"><b:x b:y=\"1\">&co;</b:x><text><![CDATA[<not a tag>]]> and &lt;more&gt;</text></item>\n"
            + "    <item id=\"3\"><item>nested same name</item><mixed>one <em>two</em> three</mixed></item>\n"
            + "    <item id=\"4\" xmlns=\"urn:t\">\n      <name>multi\nline</name>\n    </item>\n"
            + "  </group>\n"
            + "</root>\n";

    /** One record's events as text, text events merged as a parser may split them anywhere. */
    private static List<String> events(XMLStreamReader r) throws Exception {
        List<String> out = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        int event = r.getEventType();
        while (true) {
            if (event == XMLStreamConstants.CHARACTERS || event == XMLStreamConstants.CDATA
                    || event == XMLStreamConstants.SPACE) {
                text.append(r.getTextCharacters(), r.getTextStart(), r.getTextLength());
            } else if (event == XMLStreamConstants.START_ELEMENT || event == XMLStreamConstants.END_ELEMENT
                    || event == XMLStreamConstants.END_DOCUMENT) {
                if (!text.isEmpty()) {
                    out.add("text:" + text);
                    text.setLength(0);
                }
                if (event == XMLStreamConstants.END_DOCUMENT) {
                    return out;
                }
                StringBuilder e = new StringBuilder(event == XMLStreamConstants.START_ELEMENT ? "start:" : "end:")
                        .append(r.getName()).append(" prefix=").append(r.getPrefix());
                for (int i = 0; i < r.getNamespaceCount(); i++) {
                    e.append(" ns[").append(r.getNamespacePrefix(i)).append('=').append(r.getNamespaceURI(i)).append(']');
                }
                if (event == XMLStreamConstants.START_ELEMENT) {
                    for (int i = 0; i < r.getAttributeCount(); i++) {
                        e.append(" @").append(r.getAttributeName(i)).append('=').append(r.getAttributeValue(i))
                                .append(" type=").append(r.getAttributeType(i));
                    }
                }
                out.add(e.toString());
            }
            event = r.next();
        }
    }

    private Path write(String name, String xml) throws Exception {
        return Files.writeString(dir.resolve(name), xml, StandardCharsets.UTF_8);
    }

    @Test
    void theCopyReplaysWhatTheCursorShowed() throws Exception {
        Path f = write("tricky.xml", TRICKY);
        List<List<String>> live = new ArrayList<>();
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, ITEM, INTERNAL)) {
            while (s.next()) {
                live.add(events(s.record()));
            }
        }
        List<List<String>> copied = new ArrayList<>();
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, ITEM, INTERNAL)) {
            while (s.next()) {
                copied.add(events(s.capture().reader()));
            }
        }
        assertThat(copied).hasSize(4).isEqualTo(live);
        assertThat(String.join("\n", copied.get(1))).contains("ACME & Co", "<not a tag> and <more>", "ns[b=urn:b]");
    }

    @Test
    void theCopyResolvesPrefixesDeclaredAroundAndInsideTheRecord() throws Exception {
        Path f = write("ns.xml", TRICKY);
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, ITEM, INTERNAL)) {
            s.next();
            s.next();
            XMLStreamReader r = s.capture().reader();
            assertThat(r.getNamespaceContext().getNamespaceURI("a")).isEqualTo("urn:a");
            assertThat(r.getNamespaceContext().getNamespaceURI("")).isEqualTo("urn:t");
            assertThat(r.getNamespaceURI("b")).isEqualTo("urn:b");
            assertThat(r.getNamespaceURI("nope")).isNull();
        }
    }

    /**
     * At every event of records that bind, unbind and rebind prefixes at several depths, the copy
     * resolves each prefix as the live cursor does; a context taken at an event answers for that
     * event even when asked after the copy moved on.
     */
    @Test
    void theCopyResolvesEveryPrefixAtEveryEventAsTheCursorDoes() throws Exception {
        String xml = "<root xmlns=\"urn:t\" xmlns:p=\"urn:p0\"><group>"
                + "<item xmlns:p=\"urn:p1\"><a p:x=\"1\"><b xmlns:p=\"urn:p2\" xmlns:q=\"urn:q\"><p:c/></b><d/></a>"
                + "<e xmlns=\"\"><f xmlns=\"urn:f\"/><g/></e><h/></item>"
                + "<item><i xmlns:q=\"urn:q2\"/><j/></item>"
                + "</group></root>";
        Path f = write("scopes.xml", xml);
        List<String> prefixes = List.of("", "p", "q", "xml", "nope");
        List<List<String>> live = new ArrayList<>();
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, ITEM, INTERNAL)) {
            while (s.next()) {
                live.add(resolvedAtEachEvent(s.record(), prefixes, null));
            }
        }
        List<List<String>> copied = new ArrayList<>();
        List<List<String>> askedLate = new ArrayList<>();
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, ITEM, INTERNAL)) {
            while (s.next()) {
                CapturedRecord record = s.capture();
                copied.add(resolvedAtEachEvent(record.reader(), prefixes, null));
                List<javax.xml.namespace.NamespaceContext> contexts = new ArrayList<>();
                resolvedAtEachEvent(record.reader(), prefixes, contexts);
                List<String> late = new ArrayList<>();
                for (javax.xml.namespace.NamespaceContext c : contexts) {
                    for (String p : prefixes) {
                        late.add(p + "=" + c.getNamespaceURI(p));
                    }
                }
                askedLate.add(late);
            }
        }
        assertThat(live).hasSize(2);
        assertThat(copied).isEqualTo(live);
        assertThat(askedLate).isEqualTo(live);
        assertThat(String.join(" ", live.get(0))).contains("p=urn:p2", "q=urn:q", "=urn:f", " = p=urn:p1");
        assertThat(String.join(" ", live.get(1))).contains("p=urn:p0", "q=urn:q2");
    }

    /** Each prefix's namespace at each start and end tag; with {@code contexts}, only the contexts, for later. */
    private static List<String> resolvedAtEachEvent(XMLStreamReader r, List<String> prefixes,
                                                    List<javax.xml.namespace.NamespaceContext> contexts)
            throws Exception {
        List<String> out = new ArrayList<>();
        for (int event = r.getEventType(); event != XMLStreamConstants.END_DOCUMENT; event = r.next()) {
            if (event != XMLStreamConstants.START_ELEMENT && event != XMLStreamConstants.END_ELEMENT) {
                continue;
            }
            if (contexts != null) {
                contexts.add(r.getNamespaceContext());
                continue;
            }
            for (String p : prefixes) {
                out.add(p + "=" + r.getNamespaceURI(p));
            }
        }
        return out;
    }

    @Test
    void theCopyRecordsWhereTheRecordIsInTheFile() throws Exception {
        Path f = write("raw.xml", TRICKY);
        String text = Files.readString(f);
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, ITEM, INTERNAL)) {
            for (int i = 0; i < 4; i++) {
                s.next();
                CapturedRecord c = s.capture();
                RawRecord raw = c.raw(1 << 20);
                String expected = text.substring(text.indexOf("<item id=\"" + (i + 1) + "\""));
                expected = expected.substring(0, raw.xml().length());
                assertThat(raw.xml()).isEqualTo(expected).endsWith("</item>");
                assertThat(raw.byteOffset()).isEqualTo(text.indexOf("<item id=\"" + (i + 1) + "\""));
                assertThat(c.raw(10).xml()).isNull();
            }
        }
    }

    private static String person(int id, String salary) {
        return "<person id=\"" + id + "\">\n  <firstName>Zoë</firstName>\n  <lastName>L</lastName>\n"
                + "  <email>z@example.com</email>\n  <birthDate>1970-01-01</birthDate>\n  <active>true</active>\n"
                + "  <salary>" + salary + "</salary>\n  <phone type=\"home\">+1234567</phone>\n"
                + "  <address><street>s</street><city>c</city><postalCode>1</postalCode><country>DE</country></address>\n"
                + "</person>\n";
    }

    /** Binds every record of a file from the live cursor or from copies: JSON for a record, the message for a rejection. */
    private static List<String> bindAll(Path f, boolean copies) {
        List<String> out = new ArrayList<>();
        JaxbRecordBinder<Person> binder = new JaxbRecordBinder<>(context, Person.class);
        JsonRecordEncoder json = new JsonRecordEncoder();
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, PERSON, XmlLimits.DEFAULTS)) {
            while (s.next()) {
                SplitPosition p = s.position();
                ErrorLocation where = new ErrorLocation("p.xml", p.recordIndex(), p.line(), p.column(), p.byteOffset());
                try {
                    Person bound = binder.bind(copies ? s.capture().reader() : s.record(), where);
                    out.add(new String(json.encode(bound), StandardCharsets.UTF_8));
                } catch (RecordRejectedException e) {
                    out.add(e.getMessage());
                }
            }
        }
        return out;
    }

    @Test
    void bindingACopyGivesTheSameValuesAndTheSameErrorPositions() throws Exception {
        String body = person(1, "10.50") + person(2, "lots") + person(3, "1E5")
                + person(4, "2.00").replace("<active>true</active>", "<active>true</active><nick>x</nick>")
                + person(5, "3.00").replace("  <email>z@example.com</email>\n", "") + person(6, "4.00");
        Path f = write("persons.xml", "<?xml version=\"1.0\"?>\n<persons xmlns=\"urn:xmlingest:sample:persons\">\n"
                + body + "</persons>\n");
        List<String> copied = bindAll(f, true);
        assertThat(copied).isEqualTo(bindAll(f, false));
        assertThat(copied.get(0)).contains("\"salary\":10.50", "\"firstName\":\"Zoë\"");
        // The salary of record 2 is on the file's line 19: two lines of head, ten lines per record.
        assertThat(copied.get(1)).contains("record index 1", "line 19", "lots", "<salary>");
        assertThat(copied.get(3)).contains("record index 3", "nick");
        assertThat(copied.get(4)).contains("record index 4", "email");
        assertThat(copied.get(5)).contains("\"id\":6");
    }

    /**
     * The size is measured to the end of the record's end tag: checked only at each tag's start, a
     * record larger than the limit by less than its end tag was let through.
     */
    @Test
    void theSizeLimitCountsTheRecordsEndTag() throws Exception {
        String head = "<item id=\"2\"><name>";
        String tail = "</name></item>";
        // The end tag </item> starts at character 1000 - 1 and ends at 1006: over the limit by its last 6 characters.
        String over = head + "x".repeat(999 - head.length() - "</name>".length()) + tail;
        String fits = head + "x".repeat(1000 - head.length() - tail.length()) + tail;
        assertThat(over).hasSize(1006);
        assertThat(fits).hasSize(1000);
        Path f = write("edge.xml", "<root xmlns=\"urn:t\">" + over + fits.replace("id=\"2\"", "id=\"3\"") + "</root>");
        XmlLimits small = new XmlLimits(500, 500, 65536, 1 << 20, DoctypePolicy.IGNORE, 100, 4, 1000);
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, ITEM, small)) {
            assertThat(s.next()).isTrue();
            assertThatThrownBy(s::capture).isInstanceOfSatisfying(RecordRejectedException.class,
                    e -> assertThat(e.getMessage()).contains("record index 0", "record larger than 1000 characters"));
            assertThat(s.next()).isTrue();
            assertThat(s.capture().reader().getAttributeValue(null, "id")).isEqualTo("3");
            assertThat(s.next()).isFalse();
        }
    }

    @Test
    void aRecordOverTheSizeLimitIsRejectedAsItIsCopiedAndTheNextIsRead() throws Exception {
        String big = "<item id=\"2\"><name>" + "x".repeat(5000) + "</name><name>y</name></item>";
        Path f = write("big.xml", "<root xmlns=\"urn:t\"><item id=\"1\"/>" + big + "<item id=\"3\"/></root>");
        XmlLimits small = new XmlLimits(500, 500, 65536, 1 << 20, DoctypePolicy.IGNORE, 100, 4, 1000);
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, ITEM, small)) {
            assertThat(s.next()).isTrue();
            assertThat(s.capture().reader().getAttributeValue(null, "id")).isEqualTo("1");
            assertThat(s.next()).isTrue();
            assertThatThrownBy(s::capture).isInstanceOfSatisfying(RecordRejectedException.class, e -> {
                assertThat(e.getMessage()).contains("big.xml", "record index 1", "1000");
                assertThat(e.settingKey()).contains("xml.max.record.size");
            });
            assertThat(s.next()).isTrue();
            assertThat(s.capture().reader().getAttributeValue(null, "id")).isEqualTo("3");
            assertThat(s.next()).isFalse();
        }
    }
}
