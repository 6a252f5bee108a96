package io.xmlingest.core.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.core.error.FileFailedException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.namespace.QName;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Resuming at any record must read exactly what reading from the start reads from there on:
 * the same records, the same namespaces, the same positions, whatever encloses the record.
 */
class StaxRecordSplitterResumeTest {

    @TempDir
    Path dir;

    private static final String NS = "urn:test:items";
    private static final QName ITEM = new QName(NS, "item");

    /** Records at two depths, under prefixed and default namespaces, with multi-byte text and a CDATA section. */
    private static String document() {
        StringBuilder s = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- Zoë's export -->\n"
                + "<r:root xmlns:r=\"urn:test:root\" xmlns:i=\"" + NS + "\" version=\"2\">\n");
        for (int g = 0; g < 4; g++) {
            s.append("  <r:group n=\"").append(g).append("\" xmlns=\"urn:test:default\">\n");
            for (int k = 0; k < 5; k++) {
                int n = g * 5 + k;
                s.append("    <i:item id=\"").append(n).append("\"><i:name>Łukasz 中文 😀 ").append(n)
                        .append("</i:name><plain>x</plain><![CDATA[<i:item id=\"fake\">]]></i:item>\n");
            }
            s.append("  </r:group>\n  <i:item id=\"top").append(g).append("\"><i:name>top</i:name></i:item>\n");
        }
        return s.append("</r:root>\n").toString();
    }

    private record Seen(long index, int line, int column, long byteOffset, String id, String nameText, String plainNs) {
    }

    private static List<Seen> readAll(StaxRecordSplitter s) throws Exception {
        List<Seen> out = new ArrayList<>();
        while (s.next()) {
            SplitPosition p = s.position();
            XMLStreamReader r = s.record();
            String id = r.getAttributeValue(null, "id");
            String name = null;
            String plainNs = null;
            while (r.hasNext()) {
                int e = r.next();
                if (e == XMLStreamConstants.START_ELEMENT && r.getLocalName().equals("name")) {
                    name = r.getElementText();
                } else if (e == XMLStreamConstants.START_ELEMENT && r.getLocalName().equals("plain")) {
                    plainNs = r.getNamespaceURI();
                }
            }
            out.add(new Seen(p.recordIndex(), p.line(), p.column(), p.byteOffset(), id, name, plainNs));
        }
        return out;
    }

    @Test
    void resumingAtEveryRecordReadsWhatTheFullReadReadsFromThere() throws Exception {
        Path f = Files.writeString(dir.resolve("items.xml"), document());
        byte[] bytes = Files.readAllBytes(f);
        List<Seen> full;
        List<ResumePoint> points = new ArrayList<>();
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, ITEM, XmlLimits.DEFAULTS)) {
            full = new ArrayList<>();
            while (s.next()) {
                points.add(s.resumePoint());
            }
        }
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, ITEM, XmlLimits.DEFAULTS)) {
            full = readAll(s);
        }
        assertThat(full).hasSize(24);
        for (Seen seen : full) {
            assertThat(new String(bytes, (int) seen.byteOffset(), 16, StandardCharsets.UTF_8)).startsWith("<i:item id=\"");
        }
        assertThat(full.get(1).plainNs()).isEqualTo("urn:test:default");
        assertThat(points.get(5).openElements()).isEqualTo("<r:root xmlns:r=\"urn:test:root\" xmlns:i=\"" + NS + "\">");
        assertThat(points.get(6).openElements()).endsWith("<r:group xmlns=\"urn:test:default\">");
        for (ResumePoint at : points) {
            try (StaxRecordSplitter s = StaxRecordSplitter.resume(f, "items.xml", ITEM, XmlLimits.DEFAULTS, at,
                    at.recordIndex())) {
                assertThat(readAll(s)).as("resumed at record %d", at.recordIndex())
                        .isEqualTo(full.subList((int) at.recordIndex(), full.size()));
            }
        }
    }

    @Test
    void resumingBeforeTheNextRecordSkipsTheRecordsBetween() throws Exception {
        Path f = Files.writeString(dir.resolve("items.xml"), document());
        ResumePoint at;
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, ITEM, XmlLimits.DEFAULTS)) {
            for (int i = 0; i < 4; i++) {
                s.next();
            }
            at = s.resumePoint();
        }
        try (StaxRecordSplitter s = StaxRecordSplitter.resume(f, "items.xml", ITEM, XmlLimits.DEFAULTS, at, 9)) {
            assertThat(readAll(s)).extracting(Seen::index).startsWith(9L, 10L).hasSize(15);
        }
    }

    @Test
    void errorsAfterAResumeGiveTheFilesOwnLines() throws Exception {
        String doc = document().replace("<i:item id=\"17\">", "<i:item id=\"17\"><broken></i:item>");
        Path f = Files.writeString(dir.resolve("broken.xml"), doc);
        ResumePoint at;
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, ITEM, XmlLimits.DEFAULTS)) {
            for (int i = 0; i < 12; i++) {
                s.next();
            }
            at = s.resumePoint();
        }
        int line = doc.substring(0, doc.indexOf("<broken>")).split("\n", -1).length;
        try (StaxRecordSplitter s = StaxRecordSplitter.resume(f, "broken.xml", ITEM, XmlLimits.DEFAULTS, at, 12)) {
            assertThatThrownBy(() -> {
                while (s.next()) {
                    // skipping reads every tag
                }
            }).isInstanceOf(FileFailedException.class).hasMessageContaining("line " + line + ",");
        }
    }

    /**
     * A fault in an entity's text, whose position the parser gives in the DOCTYPE, is put at the record; the DOCTYPE's
     * line is the parser's own, which a resume replays the prolog for, not one worked out for the lines after it.
     */
    @Test
    void afterAResumeAnEntitysFaultNamesTheDoctypesOwnLine() throws Exception {
        StringBuilder doc = new StringBuilder("<?xml version='1.0'?>\n<!DOCTYPE root [\n<!ENTITY l0 'lol'>\n"
                + "<!ENTITY l1 '" + "&l0;".repeat(200) + "'>\n<!ENTITY l2 '" + "&l1;".repeat(200) + "'>\n]>\n"
                + "<root xmlns='urn:test:items'>\n");
        for (int i = 0; i < 30; i++) {
            doc.append("<item>").append(i == 25 ? "&l2;" : "x").append("</item>\n");
        }
        doc.append("</root>\n");
        Path f = Files.writeString(dir.resolve("ent.xml"), doc);
        XmlLimits internal = new XmlLimits(100, 100, 1_000_000, 1_000_000, DoctypePolicy.INTERNAL, 10_000, 4, 1 << 20);
        ResumePoint at;
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, ITEM, internal)) {
            for (int i = 0; i < 20; i++) {
                s.next();
            }
            at = s.resumePoint();
        }
        for (boolean resumed : new boolean[] {false, true}) {
            try (StaxRecordSplitter s = resumed ? StaxRecordSplitter.resume(f, "ent.xml", ITEM, internal, at, 20)
                    : StaxRecordSplitter.open(f, ITEM, internal)) {
                assertThatThrownBy(() -> {
                    while (s.next()) {
                        s.capture();
                    }
                }).as(resumed ? "resumed" : "from the start").isInstanceOf(FileFailedException.class)
                        .hasMessageContaining("which the DOCTYPE declares at line 3, column 15)")
                        .hasMessageContaining("record index 25, line 33,");
            }
        }
    }

    @Test
    void aBadByteAfterAResumeHasTheFilesLineAndColumn() throws Exception {
        String doc = document().replace("😀 17<", "😀 1#7<");
        byte[] bytes = doc.getBytes(StandardCharsets.UTF_8);
        int bad = new String(bytes, StandardCharsets.ISO_8859_1).indexOf('#');
        bytes[bad] = (byte) 0xFF;
        Path f = Files.write(dir.resolve("bad.xml"), bytes);
        ResumePoint at;
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, ITEM, XmlLimits.DEFAULTS)) {
            for (int i = 0; i < 12; i++) {
                s.next();
            }
            at = s.resumePoint();
        }
        int hash = doc.indexOf('#');
        int line = doc.substring(0, hash).split("\n", -1).length;
        // Columns count chars as the parser does: the emoji before it is two.
        int column = hash - doc.lastIndexOf('\n', hash);
        try (StaxRecordSplitter s = StaxRecordSplitter.resume(f, "bad.xml", ITEM, XmlLimits.DEFAULTS, at, 12)) {
            assertThatThrownBy(() -> {
                while (s.next()) {
                    // skipping reads every tag
                }
            }).isInstanceOfSatisfying(FileFailedException.class, e -> assertThat(e.getMessage())
                    .endsWith(", line " + line + ", column " + column + ", byte offset " + bad + "]"));
        }
    }

    @Test
    void internalEntitiesStillExpandAfterAResume() throws Exception {
        String doc = "<?xml version=\"1.0\"?>\n<!DOCTYPE root [<!ENTITY who \"Zoë\">]>\n<root xmlns:i=\"" + NS + "\">"
                + "<i:item id=\"a\"><i:name>&who; 1</i:name></i:item>\n<i:item id=\"b\"><i:name>&who; 2</i:name></i:item>"
                + "</root>";
        Path f = Files.writeString(dir.resolve("ent.xml"), doc);
        XmlLimits internal = new XmlLimits(500, 500, 65536, 1 << 20, DoctypePolicy.INTERNAL, 100, 4, 1 << 20);
        ResumePoint at;
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, ITEM, internal)) {
            s.next();
            s.next();
            at = s.resumePoint();
        }
        try (StaxRecordSplitter s = StaxRecordSplitter.resume(f, "ent.xml", ITEM, internal, at, 1)) {
            assertThat(readAll(s)).extracting(Seen::nameText).containsExactly("Zoë 2");
        }
    }

    @Test
    void utf16FilesResumeToo() throws Exception {
        Charset utf16 = StandardCharsets.UTF_16LE;
        String doc = "\uFEFF" + document().replace("encoding=\"UTF-8\"", "encoding=\"UTF-16\"");
        Path f = Files.write(dir.resolve("u16.xml"), doc.getBytes(utf16));
        List<ResumePoint> points = new ArrayList<>();
        List<Seen> full;
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, ITEM, XmlLimits.DEFAULTS)) {
            while (s.next()) {
                points.add(s.resumePoint());
            }
        }
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, ITEM, XmlLimits.DEFAULTS)) {
            full = readAll(s);
        }
        ResumePoint at = points.get(13);
        try (StaxRecordSplitter s = StaxRecordSplitter.resume(f, "u16.xml", ITEM, XmlLimits.DEFAULTS, at, 13)) {
            assertThat(readAll(s)).isEqualTo(full.subList(13, full.size()));
        }
    }

    @Test
    void rawRecordsAreTheFilesBytes() throws Exception {
        Path f = Files.writeString(dir.resolve("items.xml"), document());
        String text = Files.readString(f);
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, ITEM, XmlLimits.DEFAULTS)) {
            s.next();
            s.next();
            RawRecord raw = s.raw(1 << 20);
            String expected = text.substring(text.indexOf("<i:item id=\"1\""), text.indexOf("</i:item>", text.indexOf("<i:item id=\"1\"")) + 9);
            assertThat(raw.xml()).isEqualTo(expected);
            assertThat(raw.byteLength()).isEqualTo(expected.getBytes(StandardCharsets.UTF_8).length);
            assertThat(s.raw(10).xml()).isNull();
            assertThat(s.next()).isTrue();
            assertThat(s.position().recordIndex()).isEqualTo(2);
        }
    }
}
