package io.xmlingest.core.dos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.FileFailedException;
import io.xmlingest.core.page.OutgoingRecord;
import io.xmlingest.core.pipeline.FileSummary;
import io.xmlingest.core.pipeline.IngestListener;
import io.xmlingest.core.pipeline.IngestionPipeline;
import io.xmlingest.core.publish.InMemoryPagePublisher;
import io.xmlingest.core.split.StaxRecordSplitter;
import io.xmlingest.core.split.XmlLimits;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.namespace.QName;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import io.xmlingest.core.error.XmlFaults;
import io.xmlingest.core.error.ErrorLocation;
import javax.xml.stream.XMLStreamReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Attacks and broken files, each with: a clear error naming the file, the position and, for a
 * limit, the setting; nothing invalid published; bounded memory (this JVM runs with a small heap,
 * see the Surefire configuration) and bounded time (a hang guard, not a speed target).
 */
class HostileInputTest {

    private static final String NS = "urn:xmlingest:sample:persons";
    private static final Duration HANG_GUARD = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private ConnectionCounter counter;

    @BeforeEach
    void listen() throws Exception {
        counter = new ConnectionCounter();
    }

    @AfterEach
    void close() throws Exception {
        counter.close();
    }

    private String url() {
        return counter.url();
    }

    static String person(long id) {
        return "<person id=\"" + id + "\"><firstName>F</firstName><lastName>L</lastName><email>f@example.com</email>"
                + "<birthDate>1970-01-01</birthDate><active>true</active><salary>1.00</salary>"
                + "<phone type=\"home\">+1234567</phone><address><street>s</street><city>c</city>"
                + "<postalCode>12345</postalCode><country>DE</country></address></person>\n";
    }

    private static IngestConfig config() {
        return IngestConfig.of(IngestSettings.ALL, Map.of("topic", "t", "page.max.records", "2"));
    }

    private record Outcome(FileSummary summary, FileFailedException failure, List<OutgoingRecord> published) {
    }

    private Outcome ingest(Path file) {
        InMemoryPagePublisher publisher = new InMemoryPagePublisher();
        long started = System.nanoTime();
        FileSummary summary = null;
        FileFailedException failure = null;
        try {
            summary = IngestionPipeline.create(config(), publisher, IngestListener.NONE).ingest(file);
        } catch (FileFailedException e) {
            failure = e;
        }
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("hang guard").isLessThan(HANG_GUARD);
        List<OutgoingRecord> out = new ArrayList<>();
        publisher.pages().forEach(p -> out.addAll(p.records()));
        return new Outcome(summary, failure, out);
    }

    private Path write(String name, String content) throws Exception {
        return Files.writeString(dir.resolve(name), content);
    }

    private Path write(String name, byte[] content) throws Exception {
        return Files.write(dir.resolve(name), content);
    }

    private static String doc(String doctype, String records) {
        return "<?xml version=\"1.0\"?>\n" + doctype + "<persons xmlns=\"" + NS + "\">\n" + records + "</persons>\n";
    }

    private static void assertFailed(Outcome o, String... contains) {
        assertThat(o.failure()).as("the file fails").isNotNull();
        assertThat(o.failure().getMessage()).contains(contains);
    }

    // --- entities and external resources -------------------------------------------------------

    @Test
    void billionLaughsFailsFastWithoutExpanding() throws Exception {
        StringBuilder dtd = new StringBuilder("<!DOCTYPE persons [<!ENTITY lol \"lol\">");
        dtd.append("<!ENTITY lol1 \"").append("&lol;".repeat(10)).append("\">");
        for (int i = 2; i <= 9; i++) {
            dtd.append("<!ENTITY lol").append(i).append(" \"").append(("&lol" + (i - 1) + ";").repeat(10)).append("\">");
        }
        dtd.append("]>\n");
        Outcome o = ingest(write("laughs.xml", doc(dtd.toString(), person(1).replace(">F<", ">&lol9;<"))));
        assertFailed(o, "laughs.xml", "&lol9;", "line");
        assertThat(o.published()).isEmpty();
    }

    @Test
    void quadraticBlowUpFailsFast() throws Exception {
        String dtd = "<!DOCTYPE persons [<!ENTITY a \"" + "x".repeat(50_000) + "\">]>\n";
        Outcome o = ingest(write("quadratic.xml", doc(dtd, person(1).replace(">F<", ">" + "&a;".repeat(50_000) + "<"))));
        assertFailed(o, "quadratic.xml", "&a;");
        assertThat(o.published()).isEmpty();
    }

    @Test
    void aRecursiveEntityFails() throws Exception {
        String dtd = "<!DOCTYPE persons [<!ENTITY a \"&b;\"><!ENTITY b \"&a;\">]>\n";
        Outcome o = ingest(write("recursive.xml", doc(dtd, person(1).replace(">F<", ">&a;<"))));
        assertFailed(o, "recursive.xml");
        assertThat(o.published()).isEmpty();
    }

    @Test
    void anExternalEntityToALocalFileIsNeverRead() throws Exception {
        Path secret = write("secret.txt", "TOP-SECRET");
        String dtd = "<!DOCTYPE persons [<!ENTITY x SYSTEM \"" + secret.toUri() + "\">]>\n";
        Outcome o = ingest(write("local-entity.xml", doc(dtd, person(1).replace(">F<", ">&x;<"))));
        assertFailed(o, "local-entity.xml", "&x;");
        assertThat(o.published()).isEmpty();
        assertThat(o.failure().getMessage()).doesNotContain("TOP-SECRET");
    }

    @Test
    void anExternalEntityOverHttpMakesNoConnection() throws Exception {
        String dtd = "<!DOCTYPE persons [<!ENTITY x SYSTEM \"" + url() + "\">]>\n";
        Outcome o = ingest(write("http-entity.xml", doc(dtd, person(1).replace(">F<", ">&x;<"))));
        assertFailed(o, "http-entity.xml", "&x;");
        assertThat(counter.connections()).as("connections to the listener").isZero();
    }

    @Test
    void anExternalDtdIsNeverFetchedAndTheRecordsStillIngest() throws Exception {
        String dtd = "<!DOCTYPE persons SYSTEM \"" + url() + "\">\n";
        Outcome o = ingest(write("external-dtd.xml", doc(dtd, person(1) + person(2))));
        assertThat(o.failure()).isNull();
        assertThat(o.published()).hasSize(2);
        assertThat(counter.connections()).isZero();
    }

    @Test
    void anExternalParameterEntityIsNeverFetched() throws Exception {
        String dtd = "<!DOCTYPE persons [<!ENTITY % p SYSTEM \"" + url() + "\"> %p;]>\n";
        Outcome o = ingest(write("parameter-entity.xml", doc(dtd, person(1))));
        assertThat(o.published()).hasSize(o.failure() == null ? 1 : 0);
        assertThat(counter.connections()).isZero();
    }

    @Test
    void anXIncludeStaysDataAndIsNeverResolved() throws Exception {
        String include = "<xi:include xmlns:xi=\"http://www.w3.org/2001/XInclude\" href=\"" + url() + "\"/>";
        Outcome o = ingest(write("xinclude.xml", doc("", person(1) + person(2).replace("<active>", include + "<active>")
                + person(3))));
        assertThat(o.failure()).isNull();
        assertThat(o.summary().rejected()).isEqualTo(1);
        assertThat(o.published()).extracting(OutgoingRecord::index).containsExactly(0L, 2L);
        assertThat(counter.connections()).isZero();
    }

    // --- structure limits -------------------------------------------------------------------------

    private static FileFailedException splitAll(InputStream in, XmlLimits limits) {
        try (StaxRecordSplitter s = new StaxRecordSplitter(in, "generated.xml", new QName(NS, "person"), limits)) {
            while (s.next()) {
                // Read every event's text as a binder does: Woodstox checks the text limit as it reads text.
                XMLStreamReader r = s.record();
                try {
                    while (r.hasNext()) {
                        if (r.next() == XMLStreamConstants.CHARACTERS) {
                            r.getTextLength();
                        }
                    }
                } catch (XMLStreamException e) {
                    // What a binder turns such a fault into.
                    return XmlFaults.notReadable(e, ErrorLocation.ofFile("generated.xml"), r.getLocation());
                }
            }
        } catch (FileFailedException e) {
            return e;
        }
        return null;
    }

    @Test
    void hundredThousandNestedElementsTripTheDepthLimit() {
        FileFailedException e = splitAll(new GeneratedInput("<persons xmlns=\"" + NS + "\"><person id=\"1\">", "<a>",
                100_000, "</person></persons>"), XmlLimits.DEFAULTS);
        assertThat(e).isNotNull();
        assertThat(e.getMessage()).contains("generated.xml", "xml.max.depth", "line 1");
    }

    @Test
    void tenThousandAttributesTripTheAttributeLimit() {
        StringBuilder attrs = new StringBuilder();
        for (int i = 0; i < 10_000; i++) {
            attrs.append(" a").append(i).append("=\"v\"");
        }
        FileFailedException e = splitAll(new GeneratedInput("<persons xmlns=\"" + NS + "\"><person id=\"1\"" + attrs + ">",
                "", 0, "</person></persons>"), XmlLimits.DEFAULTS);
        assertThat(e).isNotNull();
        assertThat(e.getMessage()).contains("xml.max.attributes");
    }

    @Test
    void aHundredMegabyteAttributeTripsTheAttributeSizeLimitWithoutBufferingIt() {
        FileFailedException e = splitAll(new GeneratedInput("<persons xmlns=\"" + NS + "\"><person id=\"",
                "0123456789".repeat(100), 100_000, "\"/></persons>"), XmlLimits.DEFAULTS);
        assertThat(e).isNotNull();
        assertThat(e.getMessage()).contains("xml.max.attribute.size");
    }

    @Test
    void aTwoHundredMegabyteTextNodeTripsTheTextLimitWithoutBufferingIt() {
        FileFailedException e = splitAll(new GeneratedInput("<persons xmlns=\"" + NS + "\"><person id=\"1\"><firstName>",
                "abcdefghij".repeat(100), 200_000, "</firstName></person></persons>"), XmlLimits.DEFAULTS);
        assertThat(e).isNotNull();
        assertThat(e.getMessage()).contains("xml.max.text.size");
    }

    @Test
    void aRecordOverTheSizeLimitIsRejectedWithoutBeingHeldAndTheFileGoesOn() throws Exception {
        // 20 MB of small, valid-looking elements inside one record: no text node is large, the record is.
        Path file = dir.resolve("huge-record.xml");
        try (var out = new java.io.BufferedOutputStream(Files.newOutputStream(file))) {
            out.write(("<persons xmlns=\"" + NS + "\">\n" + person(1)).getBytes(StandardCharsets.UTF_8));
            out.write("<person id=\"2\"><firstName>F</firstName>".getBytes(StandardCharsets.UTF_8));
            byte[] filler = "<lastName>padding-padding-padding</lastName>\n".getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < 20_000_000 / filler.length; i++) {
                out.write(filler);
            }
            out.write(("</person>\n" + person(3) + "</persons>\n").getBytes(StandardCharsets.UTF_8));
        }
        InMemoryPagePublisher publisher = new InMemoryPagePublisher();
        List<String> rejections = new ArrayList<>();
        FileSummary s = IngestionPipeline.create(IngestConfig.of(IngestSettings.ALL, Map.of("topic", "t",
                "xml.max.record.size", "1MiB")), publisher, new IngestListener() {
                    @Override
                    public void rejected(io.xmlingest.core.error.RecordRejectedException e) {
                        rejections.add(e.getMessage());
                    }
                }).ingest(file);
        assertThat(s.records()).isEqualTo(2);
        assertThat(rejections).singleElement().satisfies(m -> assertThat(m)
                .contains("huge-record.xml", "record index 1", "xml.max.record.size", "1048576"));
    }

    // --- not well-formed --------------------------------------------------------------------------

    @Test
    void anUnclosedTagMidFileFailsThereAndKeepsEarlierPages() throws Exception {
        Outcome o = ingest(write("unclosed.xml", doc("", person(1) + person(2) + person(3) + person(4)
                + "<person id=\"5\"><firstName>F</person>\n" + person(6))));
        assertFailed(o, "unclosed.xml", "record index 4", "line 7");
        assertThat(o.published()).extracting(OutgoingRecord::index).containsExactly(0L, 1L, 2L, 3L);
    }

    @Test
    void twoRootElementsFail() throws Exception {
        Outcome o = ingest(write("two-roots.xml", doc("", person(1)) + "<persons xmlns=\"" + NS + "\">" + person(2)
                + "</persons>"));
        assertFailed(o, "two-roots.xml", "line");
    }

    @Test
    void trailingGarbageFails() throws Exception {
        Outcome o = ingest(write("garbage.xml", doc("", person(1)) + "this is not xml"));
        assertFailed(o, "garbage.xml");
    }

    @Test
    void aFileCutInTheMiddleOfARecordFails() throws Exception {
        String full = doc("", person(1) + person(2) + person(3));
        Outcome o = ingest(write("truncated.xml", full.substring(0, full.indexOf("<person id=\"3\"") + 40)));
        assertFailed(o, "truncated.xml", "record index 2");
        assertThat(o.published()).extracting(OutgoingRecord::index).containsExactly(0L, 1L);
    }

    /**
     * A file cut short between records has no next record for the fault to be in: it is said to end after
     * the last one (it named record index 2 of a file holding two). Cut within the next start tag, the fault
     * is said to come after the last record: the splitter cannot tell that the tag was a record's.
     */
    @Test
    void aFileCutBetweenRecordsSaysItEndsAfterTheLastRecord() throws Exception {
        String full = doc("", person(1) + person(2) + person(3));
        int third = full.indexOf("<person id=\"3\"");
        Outcome o = ingest(write("cut.xml", full.substring(0, third)));
        assertThat(o.failure()).isNotNull();
        assertThat(o.failure().getMessage()).startsWith("the file ends after record index 1 without closing the "
                + "elements around its records (was it cut short?); XML is not readable: Unexpected EOF")
                .contains("[file ").doesNotContain("record index 2");
        assertThat(o.published()).extracting(OutgoingRecord::index).containsExactly(0L, 1L);
        for (int cut : new int[] {1, 5, 12}) {
            Outcome inTag = ingest(write("cut" + cut + ".xml", full.substring(0, third + cut)));
            assertThat(inTag.failure()).as("cut %d into the start tag", cut).isNotNull();
            assertThat(inTag.failure().getMessage()).as("cut %d into the start tag", cut)
                    .contains("(between records, after record index 1)")
                    .doesNotContain("record index 2");
        }
    }

    @Test
    void anEmptyFileFails() throws Exception {
        Outcome o = ingest(write("empty.xml", ""));
        assertFailed(o, "empty.xml");
    }

    @Test
    void aFileOfZeroRecordsPublishesNothingAndSucceeds() throws Exception {
        Outcome o = ingest(write("zero.xml", doc("", "")));
        assertThat(o.failure()).isNull();
        assertThat(o.summary().records()).isZero();
    }

    @Test
    void aBinaryFileWithAnXmlNameFails() throws Exception {
        byte[] junk = new byte[64 * 1024];
        new java.util.Random(1).nextBytes(junk);
        Outcome o = ingest(write("binary.xml", junk));
        assertFailed(o, "binary.xml");
        assertThat(o.published()).isEmpty();
    }

    // --- encodings --------------------------------------------------------------------------------

    @Test
    void invalidUtf8MidFileFailsWithItsPosition() throws Exception {
        byte[] good = doc("", person(1) + person(2) + person(3)).getBytes(StandardCharsets.UTF_8);
        String text = new String(good, StandardCharsets.UTF_8);
        int at = text.indexOf("<person id=\"3\"") + 30;
        good[at] = (byte) 0xC3;
        good[at + 1] = (byte) 0x28;
        Outcome o = ingest(write("bad-utf8.xml", good));
        // xmlingest decodes the bytes itself, so the fault is reported at its exact byte offset.
        assertFailed(o, "bad-utf8.xml", "invalid UTF-8", "byte offset " + at);
        assertThat(o.published()).extracting(OutgoingRecord::index).doesNotContain(2L);
    }

    @Test
    void anEncodingDeclarationThatLiesFails() throws Exception {
        String body = "<persons xmlns=\"" + NS + "\">\n" + person(1) + "</persons>\n";
        Outcome o = ingest(write("lying.xml", ("<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n" + body)
                .getBytes(StandardCharsets.UTF_8)));
        assertFailed(o, "lying.xml");
        assertThat(o.published()).isEmpty();
    }

    @Test
    void utf16WithByteOrderMarkIngestsAndNonAsciiRoundTripsExactly() throws Exception {
        String names = "Zoë Łukasz 中文 😀";
        String xml = "\uFEFF<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<persons xmlns=\"" + NS + "\">\n"
                + person(7).replace(">F<", ">" + names + "<") + "</persons>\n";
        Outcome o = ingest(write("utf16.xml", xml.getBytes(StandardCharsets.UTF_16BE)));
        assertThat(o.failure()).isNull();
        assertThat(o.published()).hasSize(1);
        assertThat(new String(o.published().get(0).value(), StandardCharsets.UTF_8))
                .contains("\"firstName\":\"" + names + "\"");
    }
}
