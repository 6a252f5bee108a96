package io.xmlingest.core.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.core.error.FileFailedException;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.namespace.QName;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StaxRecordSplitterTest {

    private static final String NS = "urn:test";
    private static final QName ITEM = new QName(NS, "item");

    private static StaxRecordSplitter splitter(String xml, QName record) {
        return splitter(xml, record, XmlLimits.DEFAULTS);
    }

    private static StaxRecordSplitter splitter(String xml, QName record, XmlLimits limits) {
        return new StaxRecordSplitter(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), "test.xml", record, limits);
    }

    /** Reads every record fully through its view and returns a compact text of each. */
    private static List<String> records(RecordSplitter s) throws XMLStreamException {
        List<String> out = new ArrayList<>();
        while (s.next()) {
            out.add(text(s.record()));
        }
        return out;
    }

    /** Start tags as name[attr=value], text trimmed, end tags as '/'. */
    private static String text(XMLStreamReader r) throws XMLStreamException {
        StringBuilder b = new StringBuilder();
        int event = r.getEventType();
        while (event != XMLStreamConstants.END_DOCUMENT) {
            if (event == XMLStreamConstants.START_ELEMENT) {
                b.append('<').append(r.getLocalName());
                for (int i = 0; i < r.getAttributeCount(); i++) {
                    b.append(' ').append(r.getAttributeLocalName(i)).append('=').append(r.getAttributeValue(i));
                }
                b.append('>');
            } else if (event == XMLStreamConstants.CHARACTERS) {
                b.append(r.getText().strip());
            } else if (event == XMLStreamConstants.END_ELEMENT) {
                b.append("</>");
            }
            event = r.next();
        }
        return b.toString();
    }

    /** Reads every record of {@code xml} and checks how many there were and what was passed over beside them. */
    private static void assertRecordsAndPassedOver(String xml, int records, Map<String, Long> passed)
            throws XMLStreamException {
        try (var s = splitter(xml, ITEM)) {
            assertThat(records(s)).hasSize(records);
            assertThat(s.passedOver()).isEqualTo(passed);
        }
    }

    private static void skipAll(RecordSplitter s) {
        while (s.next()) {
            // the splitter itself reads past each unread record
        }
    }

    /**
     * Found by fuzzing: an entity whose text is a bare "<?", referenced inside a record, made Woodstox
     * overrun an array, and the ArrayIndexOutOfBoundsException left the splitter as it was: no caller
     * takes that for a bad file. It fails the file as unreadable, naming the record.
     */
    @Test
    void aParserFaultThatIsNotAStreamExceptionFailsTheFile() throws Exception {
        XmlLimits internal = new XmlLimits(500, 500, 65536, 1 << 20, DoctypePolicy.INTERNAL, 100, 4, 1 << 20);
        String xml = "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY e \"<?\">]>\n<r xmlns=\"urn:test\">\n"
                + "<item id=\"1\"><a>x</a></item>\n<item id=\"2\"><a>&e;</a></item>\n</r>\n";
        try (StaxRecordSplitter s = splitter(xml, ITEM, internal)) {
            assertThat(s.next()).isTrue();
            s.capture();
            assertThat(s.next()).isTrue();
            assertThatThrownBy(s::capture).isInstanceOf(FileFailedException.class)
                    .hasMessageStartingWith("cannot read XML: java.lang.ArrayIndexOutOfBoundsException")
                    .hasMessageContaining("[file test.xml, record index 1, line 4");
        }
    }

    @Test
    void picksRecordsByNamespaceQualifiedNameOnly() throws Exception {
        String xml = """
                <root xmlns="urn:test" xmlns:o="urn:other">
                  <item id="1">a</item>
                  <o:item id="x">not a record</o:item>
                  <item id="2">b</item>
                </root>""";
        try (var s = splitter(xml, ITEM)) {
            assertThat(records(s)).containsExactly("<item id=1>a</>", "<item id=2>b</>");
        }
    }

    @Test
    void aNestedElementWithTheSameNameBelongsToItsRecord() throws Exception {
        String xml = """
                <root xmlns="urn:test"><item id="1"><item id="1.1">inner</item></item><item id="2"/></root>""";
        try (var s = splitter(xml, ITEM)) {
            assertThat(records(s)).containsExactly("<item id=1><item id=1.1>inner</></>", "<item id=2></>");
        }
    }

    @Test
    void findsRecordsAtAnyDepth() throws Exception {
        String xml = """
                <export xmlns="urn:test">
                  <batch><group><item id="deep"/></group></batch>
                  <item id="shallow"/>
                  <other><x><y><z><item id="deeper"/></z></y></x></other>
                </export>""";
        try (var s = splitter(xml, ITEM)) {
            assertThat(records(s)).containsExactly("<item id=deep></>", "<item id=shallow></>", "<item id=deeper></>");
        }
    }

    @Test
    void matchesRecordsWithoutNamespace() throws Exception {
        try (var s = splitter("<r><item a='1' b='2'/><item/></r>", new QName("item"))) {
            assertThat(records(s)).containsExactly("<item a=1 b=2></>", "<item></>");
        }
    }

    @Test
    void prefixedRecordsMatchByNamespaceNotPrefix() throws Exception {
        String xml = "<t:root xmlns:t='urn:test' xmlns:u='urn:test'><t:item id='1'/><u:item id='2'/></t:root>";
        try (var s = splitter(xml, ITEM)) {
            assertThat(records(s)).containsExactly("<item id=1></>", "<item id=2></>");
        }
    }

    @Test
    void reportsPositionOfEachRecordStart() throws Exception {
        String xml = "<root xmlns='urn:test'>\n  <item/>\n  <item>x</item>\n</root>";
        try (var s = splitter(xml, ITEM)) {
            assertThat(s.next()).isTrue();
            assertThat(s.position()).isEqualTo(new SplitPosition(0, 2, 3, xml.indexOf("<item/>")));
            assertThat(s.next()).isTrue();
            assertThat(s.position()).isEqualTo(new SplitPosition(1, 3, 3, xml.indexOf("<item>x")));
            assertThat(s.next()).isFalse();
        }
    }

    @Test
    void continuesAfterARecordThatWasOnlyPartlyRead() throws Exception {
        String xml = "<root xmlns='urn:test'><item id='1'><a><b>deep</b></a><c/></item><item id='2'/></root>";
        try (var s = splitter(xml, ITEM)) {
            assertThat(s.next()).isTrue();
            XMLStreamReader r = s.record();
            r.next(); // <a>
            r.next(); // <b>: abandon the record here, as a failing binder would
            assertThat(s.next()).isTrue();
            assertThat(text(s.record())).isEqualTo("<item id=2></>");
            assertThat(s.next()).isFalse();
        }
    }

    @Test
    void continuesAfterARecordThatWasNotReadAtAll() throws Exception {
        try (var s = splitter("<root xmlns='urn:test'><item id='1'><a/></item><item id='2'/></root>", ITEM)) {
            assertThat(s.next()).isTrue();
            assertThat(s.next()).isTrue();
            assertThat(s.position().recordIndex()).isEqualTo(1);
            assertThat(s.next()).isFalse();
        }
    }

    @Test
    void theRecordViewEndsWithTheRecord() throws Exception {
        try (var s = splitter("<root xmlns='urn:test'><item>a</item><item>b</item></root>", ITEM)) {
            assertThat(s.next()).isTrue();
            XMLStreamReader r = s.record();
            assertThat(r.getElementText()).isEqualTo("a");
            assertThat(r.next()).isEqualTo(XMLStreamConstants.END_DOCUMENT);
            assertThat(r.hasNext()).isFalse();
            assertThat(s.next()).isTrue();
            assertThat(text(s.record())).isEqualTo("<item>b</>");
        }
    }

    @Test
    void aFileWithoutRecordsHasNone() {
        try (var s = splitter("<root xmlns='urn:test'><other/></root>", ITEM)) {
            assertThat(s.next()).isFalse();
        }
    }

    @Test
    void aFileWithoutRecordsThatRepeatsAnotherElementFailsNamingTheSetting() {
        // Before, it completed with 0 records, and the worker took the same file dropped again after the fix as
        // already ingested: a record.element that matched nothing lost the whole file.
        try (var s = splitter("<root xmlns='urn:test'>\n  <person id='1'/>\n  <person id='2'/>\n</root>", ITEM)) {
            assertThatThrownBy(s::next).isInstanceOfSatisfying(FileFailedException.class, e -> assertThat(e.getMessage())
                    .isEqualTo("the file holds no {urn:test}item record, but it repeats {urn:test}person (the second at "
                            + "line 3, column 3): is record.element one of those? Then fix it and ingest the file again (a "
                            + "worker takes up a failed file dropped again); where files without records are expected, set "
                            + "file.require.records=false [file test.xml, line 3, column 3] (setting: record.element)"));
        }
        // At any depth, and only siblings count: a header beside a list, or elements of one name under different
        // parents, are no repetition.
        String deep = "<export xmlns='urn:test'><header><n/></header><list><a><n/></a><b><n/></b></list>"
                + "<rows><row/><row/></rows></export>";
        try (var s = splitter(deep, ITEM)) {
            assertThatThrownBy(s::next).hasMessageContaining("but it repeats {urn:test}row (the second at line 1, column ");
        }
        try (var s = splitter("<batch xmlns='urn:test'><header n='0'/><list><a><n/></a><b><n/></b></list><trailer/></batch>",
                ITEM)) {
            assertThat(s.next()).isFalse();
        }
        // Two kinds of record, interleaved, and neither of them record.element.
        try (var s = splitter("<shop xmlns='urn:test'><order/><invoice/><order/><invoice/></shop>", ITEM)) {
            assertThatThrownBy(s::next).hasMessageContaining("but it repeats {urn:test}order (the second at line 1, column ");
        }
        XmlLimits allowed = new XmlLimits(500, 500, 65536, 1 << 20, DoctypePolicy.IGNORE, 100, 4, 1 << 20, false);
        try (var s = splitter("<root xmlns='urn:test'><person/><person/></root>", ITEM, allowed)) {
            assertThat(s.next()).as("file.require.records=false").isFalse();
        }
        // Once a record is found, what repeats around it is no one's business.
        try (var s = splitter("<root xmlns='urn:test'><x/><x/><item/></root>", ITEM)) {
            assertThat(s.next()).isTrue();
            assertThat(s.next()).isFalse();
        }
    }

    @Test
    void aFileWhoseRecordsAreInAnotherNamespaceFailsNamingTheSetting() {
        // Before, such a file was done with nothing published, and a worker then took the fixed setting's
        // re-drop of it as already ingested.
        try (var s = splitter("<root>\n  <item id='1'/>\n  <item id='2'/>\n</root>", ITEM)) {
            assertThatThrownBy(s::next).isInstanceOfSatisfying(FileFailedException.class, e -> {
                assertThat(e.getMessage()).isEqualTo("the file holds no {urn:test}item record, but it has item elements: "
                        + "a namespace is part of the name, so record.element=item would take those "
                        + "[file test.xml, line 2, column 3] (setting: record.element)");
            });
        }
        // Names are case-sensitive too: a record element in the wrong case is named, not a repeated line of the records.
        try (var s = splitter("<root xmlns='urn:test'>\n  <Item><l/><l/></Item>\n  <Item id='2'/>\n</root>", ITEM)) {
            assertThatThrownBy(s::next).isInstanceOfSatisfying(FileFailedException.class, e -> {
                assertThat(e.getMessage()).isEqualTo("the file holds no {urn:test}item record, but it has {urn:test}Item "
                        + "elements: names differ in upper and lower case, so record.element={urn:test}Item would take "
                        + "those [file test.xml, line 2, column 3] (setting: record.element)");
            });
        }
        // A file without such records is just empty, and one that has them may hold the other kind too.
        try (var s = splitter("<root xmlns='urn:test' xmlns:o='urn:other'><item>a</item><o:item/></root>", ITEM)) {
            assertThat(s.next()).isTrue();
            assertThat(s.next()).isFalse();
        }
    }

    @Test
    void anEmptyFileFailsSayingItIsEmpty(@TempDir Path dir) throws Exception {
        Path empty = Files.write(dir.resolve("empty.xml"), new byte[0]);

        assertThatThrownBy(() -> StaxRecordSplitter.open(empty, "empty.xml", ITEM, XmlLimits.DEFAULTS))
                .isInstanceOf(FileFailedException.class)
                .hasMessage("the file is empty: it holds no XML document [file empty.xml]");
    }

    /** Before, each of these said the parser's "Unexpected EOF in prolog" (the DOCTYPE under xml.doctype's default). */
    @Test
    void aFileWithNoElementAtAllFailsSayingItHoldsNoXmlDocument(@TempDir Path dir) throws Exception {
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        Map<String, byte[]> files = new java.util.LinkedHashMap<>();
        files.put("blank.xml", " \n\t\r\n".getBytes(StandardCharsets.US_ASCII));
        files.put("bom.xml", bom);
        files.put("declaration.xml", "<?xml version='1.0' encoding='UTF-8'?>\n".getBytes(StandardCharsets.US_ASCII));
        files.put("comment.xml", "<!-- nothing today -->\n<?pi x?>\n".getBytes(StandardCharsets.US_ASCII));
        files.put("doctype.xml", "<!DOCTYPE items>\n".getBytes(StandardCharsets.US_ASCII));
        files.put("cut.xml", "<?xml version='1.0'?>\n<".getBytes(StandardCharsets.US_ASCII));
        for (Map.Entry<String, byte[]> f : files.entrySet()) {
            Path file = Files.write(dir.resolve(f.getKey()), f.getValue());
            assertThatThrownBy(() -> {
                try (var s = StaxRecordSplitter.open(file, f.getKey(), ITEM, XmlLimits.DEFAULTS)) {
                    s.next();
                }
            }).as(f.getKey()).isInstanceOf(FileFailedException.class)
                    .hasMessageStartingWith("the file holds no XML document: it ends before its first element "
                            + "(it holds nothing but white space, a byte order mark, an XML declaration, a DOCTYPE, "
                            + "comments or processing instructions, or breaks off in one of them or in its first tag) "
                            + "[file " + f.getKey());
        }
    }

    @Test
    void aBadByteGetsItsLineAndColumnAsWellAsItsByteOffset(@TempDir Path dir) throws Exception {
        // CR LF and a lone CR break lines as the parser counts them; the two-byte é is one column.
        String inRecord = "<root xmlns='urn:test'>\r\n<item>a</item>\r\n<item>\r\n  é\rb#</item></root>";
        FileFailedException e = failureAt(dir.resolve("in.xml"), inRecord);
        assertThat(e.getMessage()).endsWith("[file in.xml, record index 1, line 5, column 2, byte offset "
                + (inRecord.indexOf('#') + 1) + "]");
        // Before any record, counted from the file's start (after the byte order mark).
        String inProlog = "\uFEFF<?xml version='1.0'?>\n<!-- é# -->\n<root xmlns='urn:test'><item/></root>";
        e = failureAt(dir.resolve("prolog.xml"), inProlog);
        assertThat(e.getMessage()).endsWith("[file prolog.xml, line 2, column 7, byte offset "
                + (inProlog.indexOf('#') + 3) + "]");
    }

    /** Writes {@code xml} as UTF-8 with an invalid byte in place of its '#', and reads it to the fault. */
    private static FileFailedException failureAt(Path file, String xml) throws Exception {
        byte[] bytes = xml.getBytes(StandardCharsets.UTF_8);
        bytes[new String(bytes, StandardCharsets.ISO_8859_1).indexOf('#')] = (byte) 0xFF;
        Files.write(file, bytes);
        try (var s = StaxRecordSplitter.open(file, file.getFileName().toString(), ITEM, XmlLimits.DEFAULTS)) {
            Throwable t = org.assertj.core.api.Assertions.catchThrowable(() -> skipAll(s));
            assertThat(t).isInstanceOf(FileFailedException.class).hasMessageContaining("invalid UTF-8 byte sequence FF");
            return (FileFailedException) t;
        }
    }

    @Test
    void malformedXmlFailsTheFileWithItsPosition() {
        String xml = "<root xmlns='urn:test'>\n<item>a</item>\n<item>b</wrong>\n</root>";
        try (var s = splitter(xml, ITEM)) {
            assertThat(s.next()).isTrue();
            assertThat(s.next()).isTrue();
            assertThatThrownBy(s::next)
                    .isInstanceOfSatisfying(FileFailedException.class, e -> {
                        assertThat(e.location()).get().satisfies(l -> {
                            assertThat(l.file()).isEqualTo("test.xml");
                            assertThat(l.recordIndex()).isEqualTo(1);
                            assertThat(l.line()).isEqualTo(3);
                        });
                        assertThat(e.getMessage()).contains("test.xml", "record index 1", "line 3", "wrong");
                    });
        }
    }

    /**
     * A fault between records names the record it came after, and the line and column; it was counted to the next
     * record, one the file may not have: junk after the last record named a record past the end. A fault in a record's
     * own start tag (a bare &amp; in an attribute, an attribute twice) is that record's: it was reported as between
     * records, without the record's index.
     */
    @Test
    void aFaultBetweenRecordsNamesTheRecordBeforeItAndOneInARecordsStartTagThatRecord() {
        // After another namespace's element too: the parser's stack keeps that one's namespace until it resolves this.
        for (String tag : List.of("<item id='1' id='2'>", "<item name='A & B'>", "<t:item x>", "<item xmlns='urn:test' x>",
                "<x:meta/>\n<item name='A & B'>", "<x:meta/>\n<item name='" + "v".repeat(70_000) + "'>")) {
            String xml = "<root xmlns='urn:test' xmlns:t='urn:test' xmlns:x='urn:x'>\n<item>a</item>\n" + tag
                    + "b</item>\n</root>";
            int line = tag.startsWith("<x:") ? 4 : 3;
            try (var s = splitter(xml, ITEM)) {
                assertThat(s.next()).isTrue();
                assertThatThrownBy(s::next).as(tag).isInstanceOfSatisfying(FileFailedException.class, e -> {
                    assertThat(e.getMessage()).contains("(in the start tag of record index 1, <"
                            + (tag.startsWith("<t:") ? "t:" : "") + "item>)")
                            .doesNotContain("between records");
                    assertThat(e.location()).get().satisfies(l -> {
                        assertThat(l.recordIndex()).isEqualTo(1);
                        assertThat(l.line()).isEqualTo(line);
                    });
                });
            }
        }
        // Elements that are no records, their start tags broken between records: between records, as before, though
        // one has the records' local name (in another namespace, or none).
        for (String tag : List.of("<other a='1' a='2'/>", "<o:item a='A & B'/>", "<w><o:item a='A & B'/></w>",
                "<item xmlns='' a='1' a='2'/>")) {
            try (var s = splitter("<root xmlns='urn:test' xmlns:o='urn:other'>\n<item>a</item>\n" + tag + "\n</root>",
                    ITEM)) {
                assertThat(s.next()).isTrue();
                assertThatThrownBy(s::next).as(tag).isInstanceOfSatisfying(FileFailedException.class, e -> {
                    assertThat(e.getMessage()).contains("(between records, after record index 0)");
                    assertThat(e.location()).get().satisfies(l -> assertThat(l.recordIndex()).isEqualTo(-1));
                });
            }
        }
        try (var s = splitter("<root xmlns='urn:test'><item>a</item><item>b</item></root>junk", ITEM)) {
            assertThat(s.next()).isTrue();
            assertThat(s.next()).isTrue();
            assertThatThrownBy(s::next).isInstanceOfSatisfying(FileFailedException.class, e -> {
                assertThat(e.getMessage()).contains("epilog").contains("(between records, after record index 1)")
                        .doesNotContain("record index 2");
                assertThat(e.location()).get().satisfies(l -> assertThat(l.column()).isEqualTo(59));
            });
        }
        // Before the first record there is none to name.
        try (var s = splitter("<root xmlns='urn:test' a='1' a='2'><item>a</item></root>", ITEM)) {
            assertThatThrownBy(s::next).isInstanceOfSatisfying(FileFailedException.class,
                    e -> assertThat(e.location()).get().satisfies(l -> assertThat(l.recordIndex()).isEqualTo(-1)));
        }
    }

    /**
     * A misspelt or wrongly qualified record is no record, and was passed over without a word: the
     * elements beside the records that are none are counted by name, a header and a trailer too.
     */
    @Test
    void elementsBesideTheRecordsThatAreNoneAreCountedByName() {
        String xml = "<root xmlns='urn:test'><header/><item>a</item><itme>b</itme><o:item xmlns:o='urn:o'>c</o:item>"
                + "<item>d<inner/></item><itme/><trailer/></root>";
        try (var s = splitter(xml, ITEM)) {
            skipAll(s);
            assertThat(s.passedOver()).isEqualTo(Map.of("{urn:test}header", 1L, "{urn:test}itme", 2L, "{urn:o}item", 1L,
                    "{urn:test}trailer", 1L));
        }
    }

    /**
     * What comes before a path's first record is kept by the path, not by the parent element, nor only for the file's
     * first record: a misspelt record in an earlier {@code <items>}, or ahead of a second kind's first record, was
     * dropped without a word; and a long header took the names the records' siblings needed.
     */
    @Test
    void beforeAPathsFirstRecordItsSiblingsAreCountedWhateverCameFirst(@TempDir Path dir) throws Exception {
        try (var s = splitter("<root xmlns='urn:test'><items><itme/></items><items><item/><itme/></items></root>", ITEM)) {
            assertThat(records(s)).hasSize(1);
            assertThat(s.passedOver()).isEqualTo(Map.of("{urn:test}itme", 2L));
        }
        Path file = Files.writeString(dir.resolve("two.xml"), "<root xmlns='urn:test'><items><item/></items>"
                + "<people><persn xmlns='" + NS + "'/><person xmlns='" + NS + "'/></people></root>");
        try (var s = StaxRecordSplitter.open(file, "two.xml", RecordElements.of(List.of(ITEM, new QName(NS, "person"))),
                XmlLimits.DEFAULTS)) {
            assertThat(records(s)).hasSize(2);
            assertThat(s.passedOver()).isEqualTo(Map.of("{" + NS + "}persn", 1L));
        }
        StringBuilder header = new StringBuilder("<root xmlns='urn:test'>");
        for (int i = 0; i < 30; i++) {
            header.append("<h").append(i).append("/>");
        }
        try (var s = splitter(header + "<data><junk/><itme/><item/></data></root>", ITEM)) {
            assertThat(records(s)).hasSize(1);
            assertThat(s.passedOver()).isEqualTo(Map.of("{urn:test}junk", 1L, "{urn:test}itme", 1L));
        }
        // A wrapper that turns out to hold records is none of them.
        try (var s = splitter("<root xmlns='urn:test'><batch><item/></batch><item/><x/></root>", ITEM)) {
            assertThat(records(s)).hasSize(2);
            assertThat(s.passedOver()).isEqualTo(Map.of("{urn:test}x", 1L));
        }
    }

    /** One text is one, however many events the parser makes of it (at its buffer's end, a CDATA section, a comment). */
    @Test
    void aTextBesideTheRecordsCountsOnceWhateverItsPieces() throws Exception {
        String xml = "<root xmlns='urn:test'><item/>" + "x".repeat(10_000) + "<item/>a<![CDATA[b]]>c<!-- d -->e"
                + "<item/>Tom &amp; Jerry<item/></root>";
        assertRecordsAndPassedOver(xml, 4, Map.of(RecordSplitter.PASSED_TEXT, 3L));
    }

    /** Text beside the records was dropped without a word; white space, the layout between records, is not counted. */
    @Test
    void textBesideTheRecordsIsCountedAsPassedOver() throws Exception {
        String xml = "<root xmlns='urn:test'>\n lead <item>a</item>\n  <item>b</item> hello world\n<![CDATA[c]]>"
                + "<item>c</item>\n<meta>not beside</meta></root>";
        assertRecordsAndPassedOver(xml, 3, Map.of(RecordSplitter.PASSED_TEXT, 2L, "{urn:test}meta", 1L));
        try (var s = splitter("<root xmlns='urn:test'>\n  <item>a</item>\n  <item>b</item>\n</root>\n", ITEM)) {
            assertThat(records(s)).hasSize(2);
            assertThat(s.passedOver()).isEmpty();
        }
    }

    /**
     * Before the first record the splitter cannot know where records are, and the elements before it were not
     * counted: a misspelt first record, or one in another namespace, left the file without a word.
     */
    @Test
    void elementsBeforeTheFirstRecordBesideItAreCountedToo() throws Exception {
        String xml = "<root xmlns='urn:test'><meta><a/><b><c/></b></meta><o:item xmlns:o='urn:o'>x</o:item><itme>y</itme>"
                + "<items><junk/><item>a</item><item>b</item></items></root>";
        try (var s = splitter(xml, ITEM)) {
            assertThat(records(s)).hasSize(2);
            // Beside the first record: <junk/>. The root's children before <items> are not its siblings.
            assertThat(s.passedOver()).isEqualTo(Map.of("{urn:test}junk", 1L));
        }
        String first = "<root xmlns='urn:test'><itme>a</itme><o:item xmlns:o='urn:o'>b</o:item><item>c</item>"
                + "<item>d</item></root>";
        assertRecordsAndPassedOver(first, 2, Map.of("{urn:test}itme", 1L, "{urn:o}item", 1L));
    }

    /**
     * Counted by the depth of the records, an element at their depth under another parent was
     * taken for a misspelt record: only children of a records' parent are beside them.
     */
    @Test
    void anElementAtTheRecordsDepthUnderAnotherParentIsNotCounted() throws Exception {
        String xml = "<catalog xmlns='urn:test'><items><item>a</item><itme>b</itme><item>c</item></items>"
                + "<meta><entry/><item-note/></meta><items><itme/><item>d</item></items><trailer><x/></trailer></catalog>";
        try (var s = splitter(xml, ITEM)) {
            assertThat(records(s)).hasSize(3);
            // The second <items> is at the path of the first: its misspelt record counts, before a record in it too.
            assertThat(s.passedOver()).isEqualTo(Map.of("{urn:test}itme", 2L));
        }
    }

    /**
     * Records deep inside a long default namespace, as a 63 KB file can have: the records' parents were kept as
     * paths of text holding the namespace once per level, which ran a 2 GB heap out; the test JVM has 256 MB.
     */
    @Test
    void recordsDeepInsideALongNamespaceCostNoMemoryPerLevel(@TempDir Path dir) throws Exception {
        String ns = "urn:" + "x".repeat(60_000);
        int levels = 490;
        String xml = "<r xmlns='" + ns + "'>" + "<a>".repeat(levels) + "<rec/><rek/><rec/>" + "</a>".repeat(levels)
                + "<b><rek/></b></r>";
        Path file = Files.writeString(dir.resolve("deep.xml"), xml);
        try (var s = StaxRecordSplitter.open(file, new QName(ns, "rec"), XmlLimits.DEFAULTS)) {
            assertThat(records(s)).hasSize(2);
            assertThat(s.passedOver()).isEqualTo(Map.of("{" + ns + "}rek", 1L));
        }
    }

    /** Several record names at several depths: each one's parent has its siblings counted, and only those. */
    @Test
    void withSeveralRecordNamesOnlyTheirParentsChildrenAreCounted(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("mixed.xml"), "<export xmlns='urn:test'>"
                + "<items><item/><itme/></items>"
                + "<people><note/><group><person/><persn/></group><other><entry/></other></people>"
                + "<items><item/></items><summary><count/></summary></export>");
        RecordElements names = RecordElements.of(List.of(ITEM, new QName(NS, "person")));
        try (var s = StaxRecordSplitter.open(file, "mixed.xml", names, XmlLimits.DEFAULTS)) {
            assertThat(records(s)).hasSize(3);
            // note, group, other and count are at an item's depth, entry at a person's: none is under a records' parent.
            assertThat(s.passedOver()).isEqualTo(Map.of("{urn:test}itme", 1L, "{urn:test}persn", 1L));
        }
    }

    /**
     * Records at two depths: a misspelt one beside the first was not counted once a record was found deeper. The
     * element holding the deeper record is not passed over: it was counted, and the warning called a batch of
     * published records a misspelt record.
     */
    @Test
    void elementsBesideRecordsAtAnyDepthTheyWereFoundAtAreCounted() throws Exception {
        String xml = "<root xmlns='urn:test'><item>a</item><wrap><item>b</item></wrap><itme id='3'/><item>d</item>"
                + "<wrap><note/></wrap><wrap><x><item>e</item></x></wrap></root>";
        try (var s = splitter(xml, ITEM)) {
            assertThat(records(s)).hasSize(4);
            // The second wrap held no record; its note is beside where the first wrap's record was.
            assertThat(s.passedOver()).isEqualTo(Map.of("{urn:test}wrap", 1L, "{urn:test}itme", 1L, "{urn:test}note", 1L));
        }
    }

    @Test
    void aTruncatedFileFails() {
        String xml = "<root xmlns='urn:test'><item>a</item><item>b";
        try (var s = splitter(xml, ITEM)) {
            assertThatThrownBy(() -> {
                while (s.next()) {
                    // skip every record
                }
            }).isInstanceOf(FileFailedException.class).hasMessageContaining("test.xml");
        }
    }

    @Test
    void aDepthOverTheLimitNamesTheSetting() {
        String xml = "<root xmlns='urn:test'><item>" + "<a>".repeat(20) + "</a>".repeat(20) + "</item></root>";
        try (var s = splitter(xml, ITEM, new XmlLimits(10, 100, 1000, 1000))) {
            assertThatThrownBy(() -> {
                while (s.next()) {
                    // the splitter skips the unread record, meeting the depth limit on the way
                }
            }).isInstanceOf(FileFailedException.class)
                    .hasMessageContaining("xml.max.depth")
                    .hasMessageContaining("test.xml");
        }
    }

    @Test
    void aTextNodeOverTheLimitNamesTheSetting() {
        String xml = "<root xmlns='urn:test'><item>" + "x".repeat(5000) + "</item></root>";
        try (var s = splitter(xml, ITEM, new XmlLimits(10, 100, 1000, 1000))) {
            assertThatThrownBy(() -> skipAll(s))
                    .isInstanceOf(FileFailedException.class)
                    .hasMessageContaining("xml.max.text.size");
        }
    }

    /**
     * The parser's own limit bounds each of its text events, and a reference, a CDATA section or a comment starts a new
     * one: such a text of 1.5M characters passed a limit of 1MiB, bound and published whole.
     */
    @Test
    void aTextOverTheLimitInPiecesIsOverTheLimitAsOne() throws XMLStreamException {
        String[] texts = {("x".repeat(400) + "&amp;").repeat(3), "x".repeat(600) + "<![CDATA[" + "y".repeat(600) + "]]>",
            "x".repeat(600) + "<!-- c -->" + "y".repeat(600), ("x".repeat(300) + "&#120;").repeat(4)};
        for (String text : texts) {
            String xml = "<root xmlns='urn:test'><item>ok</item><item><a>" + text + "</a></item></root>";
            for (boolean capture : new boolean[] {false, true}) {
                try (var s = splitter(xml, ITEM, new XmlLimits(10, 100, 1000, 1000))) {
                    assertThat(s.next()).isTrue();
                    assertThat(s.next()).isTrue();
                    if (capture) {
                        assertThatThrownBy(s::capture).as(text.substring(0, 20))
                                .hasMessageContaining("Text size limit (1000) exceeded")
                                .hasMessageContaining("xml.max.text.size").hasMessageContaining("record index 1")
                                .hasMessageNotContaining("ParseError");
                    } else {
                        // Read off the parser, the binder is handed the parser's error, which the splitter then tells
                        // as it tells any fault in a record's XML.
                        XMLStreamReader r = s.record();
                        assertThatThrownBy(() -> {
                            while (r.hasNext()) {
                                r.next();
                            }
                        }).as(text.substring(0, 20)).hasMessageContaining("Text size limit (1000) exceeded");
                    }
                }
            }
            // Under the limit, the same pieces pass.
            try (var s = splitter(xml, ITEM, new XmlLimits(10, 100, 1000, 2000))) {
                assertThat(records(s)).hasSize(2);
            }
        }
    }

    /**
     * A record's size was its size in the file: 3,000 uses of a 100,000-character entity in a 30 KB record were held
     * whole and ran the heap out. Its text with the entities expanded counts too, and such a record is rejected as
     * too large, the file going on.
     */
    @Test
    void aRecordThatEntitiesMakeTooLargeIsRejectedAsTooLarge() throws Exception {
        java.util.function.IntFunction<String> uses = n -> "<?xml version='1.0'?><!DOCTYPE root [<!ENTITY e '"
                + "x".repeat(2_000) + "'>]><root xmlns='urn:test'><item>" + "<a>&e;</a>".repeat(n)
                + "</item><item>ok</item></root>";
        String xml = uses.apply(20);
        XmlLimits limits = new XmlLimits(100, 100, 1_000_000, 1_000_000, DoctypePolicy.INTERNAL, 1_000, 4, 10_000);
        try (var s = splitter(xml, ITEM, limits)) {
            assertThat(s.next()).isTrue();
            assertThatThrownBy(s::capture).isInstanceOf(io.xmlingest.core.error.RecordRejectedException.class)
                    .hasMessageContaining("record larger than 10000 characters once the entities in it are expanded")
                    .hasMessageContaining("xml.max.record.size");
            assertThat(s.next()).isTrue();
            assertThat(text(s.record())).isEqualTo("<item>ok</>");
            assertThat(s.next()).isFalse();
        }
        // Four uses, 8,000 characters, are under it.
        try (var s = splitter(uses.apply(4), ITEM, limits)) {
            assertThat(records(s)).hasSize(2);
        }
    }

    @Test
    void anExternalEntityIsNeverResolved() {
        String xml = "<?xml version='1.0'?><!DOCTYPE root [<!ENTITY x SYSTEM 'file:///etc/passwd'>]>"
                + "<root xmlns='urn:test'><item>&x;</item></root>";
        try (var s = splitter(xml, ITEM)) {
            assertThatThrownBy(() -> skipAll(s))
                    .isInstanceOf(FileFailedException.class)
                    .hasMessageContaining("test.xml")
                    // the DTD is never processed, so the entity stays undeclared and is never opened
                    .hasMessageContaining("undeclared entity reference &x;")
                    .hasMessageEndingWith("(setting: xml.doctype)");
        }
    }

    @Test
    void underTheInternalPolicyAnUndeclaredEntityIsNotBlamedOnThePolicy() {
        XmlLimits internal = new XmlLimits(500, 500, 65536, 1 << 20, DoctypePolicy.INTERNAL, 100, 4, 1 << 20);
        String xml = "<!DOCTYPE root [<!ENTITY a 'x'>]><root xmlns='urn:test'><item>&a;&nbsp;</item></root>";
        try (var s = splitter(xml, ITEM, internal)) {
            assertThatThrownBy(() -> skipAll(s)).isInstanceOf(FileFailedException.class)
                    .hasMessageContaining("undeclared entity reference &nbsp; (the internal subset does not declare it")
                    .hasMessageNotContaining("xml.doctype");
        }
    }

    @Test
    void anUndeclaredEntityReferenceFailsTheFile() {
        try (var s = splitter("<root xmlns='urn:test'><item>a &nbsp; b</item></root>", ITEM)) {
            assertThatThrownBy(() -> skipAll(s))
                    .isInstanceOf(FileFailedException.class)
                    .hasMessageContaining("test.xml")
                    .hasMessageContaining("line 1")
                    .hasMessageContaining("&nbsp;");
        }
    }

    @Test
    void anInternalEntityIsNotExpandedButFailsTheFile() {
        String xml = "<!DOCTYPE root [<!ENTITY a 'aaaaaaaaaa'><!ENTITY b '&a;&a;&a;&a;&a;&a;&a;&a;'>]>"
                + "<root xmlns='urn:test'><item>&b;</item></root>";
        try (var s = splitter(xml, ITEM)) {
            assertThatThrownBy(() -> skipAll(s)).isInstanceOf(FileFailedException.class);
        }
    }

    @Test
    void predefinedEntitiesAndCharacterReferencesAreText() throws Exception {
        try (var s = splitter("<root xmlns='urn:test'><item>&lt;a&gt; &amp; &#233;&#x4E2D;</item></root>", ITEM)) {
            assertThat(records(s)).containsExactly("<item><a> & é中</>");
        }
    }

    @Test
    void countsTheBytesTakenFromTheFile() {
        String xml = "<root xmlns='urn:test'>" + "<item>x</item>".repeat(10_000) + "</root>";
        try (var s = splitter(xml, ITEM)) {
            long records = 0;
            while (s.next()) {
                records++;
            }
            assertThat(records).isEqualTo(10_000);
            assertThat(s.bytesRead()).isEqualTo(xml.length());
        }
    }

    @Test
    void utf16WithByteOrderMarkIsRead() throws Exception {
        byte[] bytes = "\uFEFF<root xmlns='urn:test'><item>Zoë Łukasz</item></root>".getBytes(StandardCharsets.UTF_16BE);
        try (var s = new StaxRecordSplitter(new ByteArrayInputStream(bytes), "utf16.xml", ITEM, XmlLimits.DEFAULTS)) {
            assertThat(records(s)).containsExactly("<item>Zoë Łukasz</>");
        }
    }
}
