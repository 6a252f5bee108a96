package io.xmlingest.core.bind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.core.encode.JsonRecordEncoder;
import io.xmlingest.core.encode.XmlTreeJsonEncoder;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.FileFailedException;
import io.xmlingest.core.error.RecordRejectedException;
import io.xmlingest.core.split.DoctypePolicy;
import io.xmlingest.core.split.StaxRecordSplitter;
import io.xmlingest.core.split.XmlLimits;
import io.xmlingest.sample.persons.Person;
import jakarta.xml.bind.JAXBContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Schema-less conversion: each documented rule, on the live cursor and on the copy binder
 * threads replay, which must give the same bytes.
 */
class XmlTreeBinderTest {

    private static final XmlLimits LIMITS = new XmlLimits(500, 500, 65536, 1 << 20, DoctypePolicy.INTERNAL, 100, 4,
            1 << 20);

    @TempDir
    Path dir;

    /** Converts every {@code element} record of {@code xml}, from the live cursor and from the copy; both must agree. */
    private List<String> convert(String xml, QName element) throws Exception {
        return convert(xml, element, LIMITS);
    }

    private List<String> convert(String xml, QName element, XmlLimits limits) throws Exception {
        Path f = Files.writeString(dir.resolve("f.xml"), xml);
        List<String> live = new ArrayList<>();
        List<String> copied = new ArrayList<>();
        XmlTreeBinder binder = new XmlTreeBinder();
        XmlTreeJsonEncoder encoder = new XmlTreeJsonEncoder();
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, element, limits)) {
            while (s.next()) {
                live.add(new String(encoder.encode(binder.bind(s.record(), where(s))), StandardCharsets.UTF_8));
            }
        }
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, element, limits)) {
            while (s.next()) {
                ErrorLocation at = where(s);
                copied.add(new String(encoder.encode(binder.bind(s.capture().reader(), at)), StandardCharsets.UTF_8));
            }
        }
        assertThat(copied).isEqualTo(live);
        return live;
    }

    private static ErrorLocation where(StaxRecordSplitter s) {
        return new ErrorLocation("f.xml", s.position().recordIndex(), s.position().line(), s.position().column(), -1);
    }

    private List<String> items(String body) throws Exception {
        return convert("<root xmlns=\"urn:t\">" + body + "</root>", new QName("urn:t", "item"));
    }

    /** The README's example, byte for byte. */
    static final String README_XML = "<catalog xmlns=\"urn:example:catalog\" xmlns:ext=\"urn:example:ext\">\n"
            + "  <item sku=\"A-01234\" xml:lang=\"en\">\n"
            + "    <name>Desk lamp</name>\n"
            + "    <price currency=\"EUR\">24.90</price>\n"
            + "    <tag>office</tag>\n"
            + "    <tag>lighting</tag>\n"
            + "    <zip>01234</zip>\n"
            + "    <note xsi:nil=\"true\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"/>\n"
            + "    <ext:rating>4.5</ext:rating>\n"
            + "  </item>\n"
            + "</catalog>\n";
    static final String README_JSON = "{\"sku\":\"A-01234\",\"xml:lang\":\"en\",\"name\":\"Desk lamp\","
            + "\"price\":{\"currency\":\"EUR\",\"value\":\"24.90\"},\"tag\":[\"office\",\"lighting\"],\"zip\":\"01234\","
            + "\"note\":null,\"{urn:example:ext}rating\":\"4.5\"}";

    @Test
    void theReadmeExample() throws Exception {
        assertThat(convert(README_XML, new QName("urn:example:catalog", "item"))).containsExactly(README_JSON);
        String readme = Files.readString(Path.of("../README.md"));
        assertThat(readme).as("the README shows this example").contains(README_XML).contains(README_JSON);
    }

    @Test
    void attributesFirstThenElementsInOrderOfFirstAppearanceRepeatsAsArrays() throws Exception {
        assertThat(items("<item b=\"2\" a=\"1\"><y>1</y><x>2</x><y>3</y><z/><y>4</y></item>"))
                .containsExactly("{\"b\":\"2\",\"a\":\"1\",\"y\":[\"1\",\"3\",\"4\"],\"x\":\"2\",\"z\":\"\"}");
    }

    @Test
    void textIsKeptExactlyAndNeverTyped() throws Exception {
        assertThat(items("<item><n> 007 </n><b>true</b><d>1.50</d><s>a&amp;b &lt;c&gt;</s><c><![CDATA[<x>]]></c></item>"))
                .containsExactly("{\"n\":\" 007 \",\"b\":\"true\",\"d\":\"1.50\",\"s\":\"a&b <c>\",\"c\":\"<x>\"}");
    }

    @Test
    void mixedContentKeepsItsTextUnderValueAndDropsIndentation() throws Exception {
        // (q has no children, so its whitespace is its value, not indentation: see below.)
        assertThat(items("<item>\n  <p>one <em>two</em> three</p>\n  <q k=\"v\">  </q>\n</item>"))
                .containsExactly("{\"p\":{\"em\":\"two\",\"value\":\"one  three\"},\"q\":{\"k\":\"v\",\"value\":\"  \"}}");
    }

    @Test
    void namespacesByTheDocumentedRuleNotByPrefix() throws Exception {
        String a = items("<item xmlns:p=\"urn:other\" p:at=\"1\"><name>n</name><p:name>o</p:name></item>").get(0);
        String b = items("<item xmlns:q=\"urn:other\" q:at=\"1\"><name>n</name><q:name>o</q:name></item>").get(0);
        assertThat(a).isEqualTo(b)
                .isEqualTo("{\"{urn:other}at\":\"1\",\"name\":\"n\",\"{urn:other}name\":\"o\"}");
        // Elements in no namespace inside a namespaced record keep their local names too.
        assertThat(items("<item><plain xmlns=\"\">x</plain></item>")).containsExactly("{\"plain\":\"x\"}");
    }

    @Test
    void xsiAttributesAreNotDataButNilIsNull() throws Exception {
        String xsi = "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"";
        assertThat(items("<item " + xsi + " xsi:type=\"T\"><a xsi:nil=\"true\"/><b xsi:nil=\"false\">x</b>"
                + "<c xsi:nil=\"1\" k=\"v\"/></item>"))
                .containsExactly("{\"a\":null,\"b\":\"x\",\"c\":{\"k\":\"v\",\"value\":null}}");
        // A nil element's attributes are data: before, c was a bare null and k was gone. A nil record keeps
        // its own attributes too, so a key among them is still found.
        List<String> records = items("<item " + xsi + " xsi:nil=\"true\" id=\"3\"/>");
        assertThat(records).containsExactly("{\"id\":\"3\",\"value\":null}");
    }

    @Test
    void aNilElementWithContentIsRejectedRatherThanWrittenAsNull() throws Exception {
        // Before, <b> was written as null and its text or child was gone.
        String xsi = "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"";
        for (String b : List.of("<b xsi:nil=\"true\">lost?</b>", "<b xsi:nil=\"true\"><c>1</c></b>")) {
            assertThatThrownBy(() -> items("<item " + xsi + ">\n<a/>" + b + "</item>"))
                    .isInstanceOf(RecordRejectedException.class)
                    .hasMessageContaining("element <b> is nil (xsi:nil) but holds " + (b.contains("<c>") ? "elements" : "text")
                            + ", which would be lost: a nil element has no content")
                    .hasMessageContaining("line 2, column ");
        }
        assertThat(items("<item " + xsi + "><b xsi:nil=\"true\">  </b></item>")).containsExactly("{\"b\":null}");
        // An xsi:nil that is no boolean was taken for false, and the mark the file set was gone without a word.
        assertThatThrownBy(() -> items("<item " + xsi + ">\n<b xsi:nil=\"yes\"/></item>"))
                .isInstanceOf(RecordRejectedException.class)
                .hasMessageContaining("attribute xsi:nil of <b> is 'yes', which is not an xs:boolean (true, false, 1 or 0)")
                .hasMessageContaining("line 2, column ");
    }

    @Test
    void anAttributeNamedLikeAChildElementIsMarked() throws Exception {
        assertThat(items("<item id=\"1\" value=\"v\"><id>2</id>text</item>"))
                .containsExactly("{\"@id\":\"1\",\"value\":\"v\",\"id\":\"2\",\"#value\":\"text\"}");
    }

    @Test
    void aRecordOfTextAloneIsStillAnObject() throws Exception {
        assertThat(items("<item>just text</item><item/>")).containsExactly("{\"value\":\"just text\"}",
                "{\"value\":\"\"}");
    }

    @Test
    void charactersOutsideTheBasicPlaneAreWrittenAsUtf8() throws Exception {
        String json = items("<item><e>\uD83D\uDE00 &#x1F600;</e></item>").get(0);
        assertThat(json).isEqualTo("{\"e\":\"\uD83D\uDE00 \uD83D\uDE00\"}");
    }

    @Test
    void whitespaceOnlyPiecesBetweenChildrenAreDroppedButTextPiecesKeepTheirSpaces() throws Exception {
        assertThat(items("<item><p>one <em>two</em>\n    <b>x</b> three</p><q>\n  </q><r k=\"v\">\n  <s/>\n</r></item>"))
                .containsExactly("{\"p\":{\"em\":\"two\",\"b\":\"x\",\"value\":\"one  three\"},\"q\":\"\\n  \","
                        + "\"r\":{\"k\":\"v\",\"s\":\"\"}}");
    }

    /**
     * An element with attributes and no children has only its own text, as a leaf has: whitespace there is the value,
     * not indentation. It was dropped, so <code type="x"> </code> read as <code type="x"/>, CDATA or not.
     */
    @Test
    void theWhitespaceTextOfAnElementWithAttributesAndNoChildrenIsKept() throws Exception {
        assertThat(items("<item><a t=\"x\"> </a><b t=\"x\"><![CDATA[  ]]></b><c t=\"x\">&#32;</c><d t=\"x\"/>"
                + "<e t=\"x\"></e><f t=\"x\"> 1 </f></item>"))
                .containsExactly("{\"a\":{\"t\":\"x\",\"value\":\" \"},\"b\":{\"t\":\"x\",\"value\":\"  \"},"
                        + "\"c\":{\"t\":\"x\",\"value\":\" \"},\"d\":{\"t\":\"x\"},\"e\":{\"t\":\"x\"},"
                        + "\"f\":{\"t\":\"x\",\"value\":\" 1 \"}}");
    }

    @Test
    void theSameLocalNameInTwoForeignNamespacesAndInNoneStaysApart() throws Exception {
        assertThat(items("<item xmlns:a=\"urn:a\" xmlns:b=\"urn:b\" a:k=\"1\" b:k=\"2\" k=\"3\">"
                + "<a:n>1</a:n><b:n>2</b:n><a:n>3</a:n></item>"))
                .containsExactly("{\"{urn:a}k\":\"1\",\"{urn:b}k\":\"2\",\"k\":\"3\","
                        + "\"{urn:a}n\":[\"1\",\"3\"],\"{urn:b}n\":\"2\"}");
    }

    @Test
    void anAttributeInTheRecordsNamespaceIsPlainUnlessThatWouldDuplicateAProperty() throws Exception {
        assertThat(items("<item xmlns:t=\"urn:t\" t:a=\"1\" b=\"2\"/>")).containsExactly("{\"a\":\"1\",\"b\":\"2\"}");
        // Either order: JSON with the same property twice would lose one value in most readers.
        assertThat(items("<item xmlns:t=\"urn:t\" t:a=\"1\" a=\"2\"/><item xmlns:t=\"urn:t\" a=\"2\" t:a=\"1\"/>"))
                .containsExactly("{\"{urn:t}a\":\"1\",\"a\":\"2\"}", "{\"a\":\"2\",\"{urn:t}a\":\"1\"}");
        // Elements in no namespace and in the record's are one name, as documented.
        assertThat(items("<item><n>1</n><n xmlns=\"\">2</n></item>")).containsExactly("{\"n\":[\"1\",\"2\"]}");
    }

    @Test
    void recordsInNoNamespaceGetTheSameNames() throws Exception {
        // Most exports use no namespace at all. Before, each of their attributes was written "{}name".
        String plain = README_XML.replace(" xmlns=\"urn:example:catalog\"", "");
        assertThat(convert(plain, new QName("item"))).containsExactly(README_JSON);
        List<String> items = convert("<root xmlns:o=\"urn:o\"><item sku=\"A2\"><sku>inner</sku></item>"
                + "<item sku=\"C1\"><o:sku>x</o:sku></item></root>", new QName("item"));
        assertThat(items).containsExactly("{\"@sku\":\"A2\",\"sku\":\"inner\"}",
                "{\"sku\":\"C1\",\"{urn:o}sku\":\"x\"}");
        Path f = Files.writeString(dir.resolve("k.xml"), "<root xmlns:o=\"urn:o\"><item sku=\"C1\"><o:sku>x</o:sku></item></root>");
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, new QName("item"), LIMITS)) {
            assertThat(s.next()).isTrue();
            assertThat(new XmlTreeBinder().bind(s.record(), where(s)).keyOf("sku")).isEqualTo("C1");
        }
    }

    @Test
    void aNilRecordIsAnEmptyObject() throws Exception {
        assertThat(items("<item xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:nil=\"true\"/>"))
                .containsExactly("{}");
    }

    @Test
    void aRecordAsDeepAsTheDepthLimitAllowsIsConvertedWithoutRecursion() throws Exception {
        int depth = 20_000;
        XmlLimits deep = new XmlLimits(depth + 10, 500, 65536, 1 << 20, DoctypePolicy.INTERNAL, 100, 4, 1 << 20);
        String xml = "<root xmlns=\"urn:t\"><item>" + "<d>".repeat(depth) + "x" + "</d>".repeat(depth) + "</item></root>";
        String expected = "{" + "\"d\":{".repeat(depth - 1) + "\"d\":\"x\"" + "}".repeat(depth);
        assertThat(convert(xml, new QName("urn:t", "item"), deep)).containsExactly(expected);
    }

    @Test
    void aWideRecordKeepsEveryNameInOrder() throws Exception {
        int width = 200_000;
        StringBuilder body = new StringBuilder("<item a=\"x\">");
        for (int i = 0; i < width; i++) {
            body.append("<f").append(i).append("/>");
        }
        body.append("<f0>again</f0><a>child</a></item>");
        XmlLimits wide = new XmlLimits(500, 500, 65536, 1 << 20, DoctypePolicy.INTERNAL, 100, 4, 1 << 24);
        String json = convert("<root xmlns=\"urn:t\">" + body + "</root>", new QName("urn:t", "item"), wide).get(0);
        var tree = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json);
        assertThat(tree.size()).isEqualTo(width + 2);
        List<String> names = new ArrayList<>();
        tree.fieldNames().forEachRemaining(names::add);
        assertThat(names.subList(0, 3)).containsExactly("@a", "f0", "f1");
        assertThat(names.get(names.size() - 1)).isEqualTo("a");
        assertThat(tree.get("f0").toString()).isEqualTo("[\"\",\"again\"]");
        assertThat(tree.get("f" + (width - 1)).asText()).isEmpty();
    }

    @Test
    void brokenXmlInsideARecordFailsTheFileAndSaysWhere() throws Exception {
        Path f = Files.writeString(dir.resolve("broken.xml"),
                "<root xmlns=\"urn:t\">\n<item><a>1</a></item>\n<item>\n  <a>1</b>\n</item></root>");
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, new QName("urn:t", "item"), LIMITS)) {
            XmlTreeBinder binder = new XmlTreeBinder();
            assertThat(s.next()).isTrue();
            assertThat(binder.bind(s.record(), where(s)).get("a")).isEqualTo("1");
            assertThat(s.next()).isTrue();
            ErrorLocation at = where(s);
            assertThatThrownBy(() -> binder.bind(s.record(), at))
                    .isInstanceOf(FileFailedException.class)
                    .hasMessageContaining("XML is not readable")
                    .satisfies(e -> {
                        ErrorLocation where = ((FileFailedException) e).location().orElseThrow();
                        assertThat(where.recordIndex()).isEqualTo(1);
                        assertThat(where.line()).isEqualTo(4);
                    });
        }
    }

    @Test
    void aRecordOverTheSizeLimitIsRejectedNamingTheSetting() throws Exception {
        XmlLimits small = new XmlLimits(500, 500, 65536, 1 << 20, DoctypePolicy.INTERNAL, 100, 4, 200);
        Path f = Files.writeString(dir.resolve("big.xml"), "<root xmlns=\"urn:t\"><item>"
                + "<a>0123456789</a>".repeat(50) + "</item><item><a>small</a></item></root>");
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, new QName("urn:t", "item"), small)) {
            XmlTreeBinder binder = new XmlTreeBinder();
            assertThat(s.next()).isTrue();
            ErrorLocation at = where(s);
            assertThatThrownBy(() -> binder.bind(s.record(), at))
                    .isInstanceOf(RecordRejectedException.class)
                    // One line, the limit's own words: before, Woodstox's "ParseError at [row,col]" lines came first.
                    .hasMessageStartingWith("record is too large: record larger than 200 characters (it is past that at "
                            + "line 1, column ")
                    // Located where the record starts (the test gives no byte offset), where a reader finds it.
                    .hasMessageContaining("[file f.xml, record index 0, line 1, column 21]")
                    .hasMessageNotContaining("\n")
                    .hasMessageContaining("xml.max.record.size");
        }
    }

    @Test
    void keysAreSingleValuesOnly() throws Exception {
        Path f = Files.writeString(dir.resolve("k.xml"),
                "<root xmlns=\"urn:t\"><item id=\"7\"><tag>a</tag><tag>b</tag><sub><x>1</x></sub></item></root>");
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, new QName("urn:t", "item"), LIMITS)) {
            s.next();
            XmlTree tree = new XmlTreeBinder().bind(s.record(), where(s));
            assertThat(tree.keyOf("id")).isEqualTo("7");
            assertThat(tree.keyOf("missing")).isNull();
            assertThatThrownBy(() -> tree.keyOf("tag")).hasMessageContaining("tag is repeated");
            assertThatThrownBy(() -> tree.keyOf("sub")).hasMessageContaining("sub is a structure");
        }
    }

    @Test
    void aKeyIsAnAttributeOrElementByLocalNameNeverTheElementsOwnText() throws Exception {
        Path f = Files.writeString(dir.resolve("k2.xml"), "<root xmlns=\"urn:t\" xmlns:o=\"urn:o\" xmlns:p=\"urn:p\">"
                + "<item id=\"a\"><id>e</id>text</item>"
                + "<item>text<o:no>7</o:no></item>"
                + "<item><o:no>1</o:no><p:no>2</p:no></item></root>");
        List<XmlTree> trees = new ArrayList<>();
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, new QName("urn:t", "item"), LIMITS)) {
            XmlTreeBinder binder = new XmlTreeBinder();
            while (s.next()) {
                trees.add(binder.bind(s.record(), where(s)));
            }
        }
        assertThat(trees.get(0).keyOf("id")).as("the element, as in the JSON").isEqualTo("e");
        assertThat(trees.get(0).keyOf("value")).as("text is no attribute or element").isNull();
        assertThat(trees.get(1).keyOf("no")).isEqualTo("7");
        assertThatThrownBy(() -> trees.get(2).keyOf("no")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no is in more than one namespace ({urn:o}no, {urn:p}no)");
    }

    /**
     * Generated persons bound by the model and without it: every value the model binds appears,
     * as its XML text, under the same name in the schema-less record.
     */
    @Test
    void schemaLessKeepsEveryValueTheModelBinds() throws Exception {
        Random random = new Random(3);
        StringBuilder xml = new StringBuilder("<persons xmlns=\"urn:xmlingest:sample:persons\">\n");
        for (int i = 0; i < 200; i++) {
            xml.append("<person id=\"").append(i).append("\"><firstName>F").append(random.nextInt(1000))
                    .append("</firstName><lastName>L &amp; ").append(i).append("</lastName><email>e").append(i)
                    .append("@example.org</email><birthDate>19").append(10 + random.nextInt(89)).append("-0")
                    .append(1 + random.nextInt(9)).append("-1").append(random.nextInt(10))
                    .append("</birthDate><active>").append(random.nextBoolean()).append("</active><salary>")
                    .append(random.nextInt(100000)).append('.').append(10 + random.nextInt(89)).append("</salary>");
            for (int p = 0; p < 1 + random.nextInt(3); p++) {
                xml.append("<phone type=\"mobile\">+").append(random.nextInt(1_000_000)).append("</phone>");
            }
            xml.append("<address><street>").append(i).append(" Main St</street><city>C</city><postalCode>0")
                    .append(random.nextInt(9999)).append("</postalCode><country>DE</country></address></person>\n");
        }
        Path f = Files.writeString(dir.resolve("persons.xml"), xml.append("</persons>\n").toString());
        JaxbRecordBinder<Person> jaxb = new JaxbRecordBinder<>(JAXBContext.newInstance(Person.class), Person.class);
        JsonRecordEncoder typed = new JsonRecordEncoder();
        XmlTreeBinder generic = new XmlTreeBinder();
        com.fasterxml.jackson.databind.ObjectMapper mapper = new com.fasterxml.jackson.databind.ObjectMapper()
                .enable(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .setNodeFactory(com.fasterxml.jackson.databind.node.JsonNodeFactory.withExactBigDecimals(true));
        int compared = 0;
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, new QName("urn:xmlingest:sample:persons", "person"), LIMITS);
             StaxRecordSplitter t = StaxRecordSplitter.open(f, new QName("urn:xmlingest:sample:persons", "person"), LIMITS)) {
            while (s.next() && t.next()) {
                var model = mapper.readTree(typed.encode(jaxb.bind(s.record(), where(s))));
                var loose = mapper.readTree(new XmlTreeJsonEncoder().encode(generic.bind(t.record(), where(t))));
                assertSameText(model, loose, "person " + compared);
                compared++;
            }
        }
        assertThat(compared).isEqualTo(200);
    }

    private static void assertSameText(com.fasterxml.jackson.databind.JsonNode model,
                                       com.fasterxml.jackson.databind.JsonNode loose, String where) {
        if (model.isObject()) {
            model.fieldNames().forEachRemaining(name -> {
                assertThat(loose.has(name)).as(where + " has " + name).isTrue();
                assertSameText(model.get(name), loose.get(name), where + "." + name);
            });
        } else if (model.isArray()) {
            // The model always writes arrays; schema-less, a single occurrence is the value itself.
            if (model.size() == 1 && !loose.isArray()) {
                assertSameText(model.get(0), loose, where);
                return;
            }
            assertThat(loose.size()).as(where).isEqualTo(model.size());
            for (int i = 0; i < model.size(); i++) {
                assertSameText(model.get(i), loose.get(i), where + "[" + i + "]");
            }
        } else {
            assertThat(loose.asText()).as(where).isEqualTo(model.asText());
        }
    }
}
