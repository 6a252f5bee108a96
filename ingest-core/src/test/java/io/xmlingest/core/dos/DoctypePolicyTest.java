package io.xmlingest.core.dos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.FileFailedException;
import io.xmlingest.core.page.OutgoingRecord;
import io.xmlingest.core.pipeline.IngestListener;
import io.xmlingest.core.pipeline.IngestionPipeline;
import io.xmlingest.core.publish.InMemoryPagePublisher;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The three xml.doctype policies; under none is anything external ever opened. */
class DoctypePolicyTest {

    private static final String NS = "urn:xmlingest:sample:persons";

    @TempDir
    Path dir;

    private static String doc(String doctype, String firstName) {
        return "<?xml version=\"1.0\"?>\n" + doctype + "<persons xmlns=\"" + NS + "\">\n"
                + HostileInputTest.person(1).replace(">F<", ">" + firstName + "<") + HostileInputTest.person(2)
                + "</persons>\n";
    }

    private List<OutgoingRecord> ingest(String policy, String xml) throws Exception {
        Path file = Files.writeString(dir.resolve("doc.xml"), xml);
        InMemoryPagePublisher publisher = new InMemoryPagePublisher();
        IngestConfig config = IngestConfig.of(IngestSettings.ALL, Map.of("topic", "t", "xml.doctype", policy));
        IngestionPipeline.create(config, publisher, IngestListener.NONE).ingest(file);
        List<OutgoingRecord> out = new ArrayList<>();
        publisher.pages().forEach(p -> out.addAll(p.records()));
        return out;
    }

    private static String value(OutgoingRecord r) {
        return new String(r.value(), StandardCharsets.UTF_8);
    }

    @Test
    void rejectFailsAnyDoctypeNamingTheSetting() {
        assertThatThrownBy(() -> ingest("reject", doc("<!DOCTYPE persons>\n", "F")))
                .isInstanceOf(FileFailedException.class)
                .hasMessageContaining("DOCTYPE").hasMessageContaining("xml.doctype").hasMessageContaining("doc.xml");
    }

    @Test
    void rejectAcceptsAFileWithoutDoctype() throws Exception {
        assertThat(ingest("reject", doc("", "F"))).hasSize(2);
    }

    @Test
    void ignoreSkipsTheDtdButFailsOnItsEntities() throws Exception {
        assertThat(ingest("ignore", doc("<!DOCTYPE persons [<!ELEMENT persons ANY>]>\n", "F"))).hasSize(2);
        assertThatThrownBy(() -> ingest("ignore", doc("<!DOCTYPE persons [<!ENTITY e \"é\">]>\n", "Ren&e;")))
                .isInstanceOf(FileFailedException.class).hasMessageContaining("&e;");
    }

    /**
     * An attribute default in the internal subset is a value the file means wherever a record leaves the
     * attribute out: under ignore it was lost without a word. Defaults the records never need (on the root,
     * on an attribute every record writes), declarations without one, and one inside a comment or a literal
     * lose nothing, and the file is read.
     */
    @Test
    void ignoreFailsAFileWhereARecordLeavesOutAnAttributeTheInternalSubsetGivesADefault() throws Exception {
        String quiet = "<!DOCTYPE persons [<!-- <!ATTLIST phone type CDATA \"home\"> -->"
                + "<!ENTITY note \"<!ATTLIST x y CDATA 'z'>\"><!ATTLIST phone type (mobile|home|work) #REQUIRED"
                + " kind NOTATION (a|b) #IMPLIED><!ATTLIST address verified CDATA #IMPLIED>"
                + "<!ATTLIST persons source CDATA \"crm\"><!ATTLIST person id CDATA #FIXED '1'>]>\n";
        assertThat(ingest("ignore", doc(quiet, "F"))).hasSize(2);

        String phoneDefault = "<!DOCTYPE persons [<!ELEMENT persons ANY>\n<!ATTLIST phone\n note CDATA #IMPLIED\n"
                + " type CDATA \"work\">]>\n";
        // The second record's phone leaves its type out, on line 8 (the DOCTYPE takes lines 2 to 5).
        String xml = doc(phoneDefault, "F").replace(HostileInputTest.person(2),
                HostileInputTest.person(2).replace("<phone type=\"home\">", "<phone>"));
        assertThatThrownBy(() -> ingest("ignore", xml)).isInstanceOf(FileFailedException.class)
                .hasMessageContaining("the record leaves out attribute type of <phone>, to which the DOCTYPE's "
                        + "internal subset gives the default \"work\", and xml.doctype=ignore does not apply it")
                .hasMessageContaining("xml.doctype=internal applies the defaults")
                .hasMessageContaining("record index 1, line 8").hasMessageContaining("(setting: xml.doctype)");
        List<OutgoingRecord> applied = ingest("internal", xml);
        assertThat(applied).hasSize(2);
        assertThat(value(applied.get(0))).contains("\"type\":\"home\"");
        assertThat(value(applied.get(1))).as("the default, applied").contains("\"type\":\"work\"");
    }

    /**
     * XHTML-style: the records' namespace is an attribute default of the DTD. Applied, its URI is not interned as
     * the parser's own names are, and JAXB, told they all were, refused every record; not applied, the file
     * holds no record of that namespace, which is said with the policy that would apply it.
     */
    @Test
    void aNamespaceTheDtdDeclaresAsADefaultIsAppliedUnderInternalAndNamedUnderIgnore() throws Exception {
        String xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE persons [<!ATTLIST persons xmlns CDATA #FIXED \"" + NS
                + "\">]>\n<persons>\n" + HostileInputTest.person(1) + HostileInputTest.person(2) + "</persons>\n";
        List<OutgoingRecord> out = ingest("internal", xml);
        assertThat(out).hasSize(2);
        assertThat(value(out.get(1))).contains("\"id\":2", "\"firstName\":\"F\"");
        // Declared through a parameter entity, whose text is not read here, it is applied all the same.
        String throughEntity = xml.replace("<!ATTLIST persons xmlns CDATA #FIXED \"" + NS + "\">",
                "<!ENTITY % ns '<!ATTLIST persons xmlns CDATA #FIXED \"" + NS + "\">'> %ns;");
        assertThat(throughEntity).contains("%ns;");
        assertThat(ingest("internal", throughEntity)).hasSize(2);
        assertThatThrownBy(() -> ingest("ignore", xml)).isInstanceOf(FileFailedException.class)
                .hasMessageContaining("the DOCTYPE's internal subset declares a namespace as an attribute default, "
                        + "which xml.doctype=ignore does not apply: xml.doctype=internal applies it")
                .hasMessageContaining("(setting: xml.doctype)");
    }

    @Test
    void internalExpandsEntitiesOfTheInternalSubset() throws Exception {
        List<OutgoingRecord> out = ingest("internal",
                doc("<!DOCTYPE persons [<!ENTITY eacute \"é\"><!ENTITY name \"Ren&eacute;e\">]>\n", "&name; &amp; co"));
        assertThat(out).hasSize(2);
        assertThat(value(out.get(0))).contains("\"firstName\":\"Renée & co\"");
    }

    @Test
    void internalStopsABillionLaughsAtTheEntityLimit() {
        StringBuilder dtd = new StringBuilder("<!DOCTYPE persons [<!ENTITY l0 \"lol\">");
        for (int i = 1; i <= 9; i++) {
            dtd.append("<!ENTITY l").append(i).append(" \"").append(("&l" + (i - 1) + ";").repeat(10)).append("\">");
        }
        dtd.append("]>\n");
        assertThatThrownBy(() -> ingest("internal", doc(dtd.toString(), "&l9;")))
                .isInstanceOf(FileFailedException.class).hasMessageContaining("xml.max.entity");
    }

    /**
     * The parser places a fault in an entity's text at the entity's declaration, in the DOCTYPE: every such error
     * named line 2 of a file whose record was on line 4. It now names the record's line and says where the DOCTYPE
     * declares the entity.
     */
    @Test
    void aFaultInAnEntitysTextIsPlacedInTheRecordThatUsesIt() {
        String recursive = "<!DOCTYPE persons [<!ENTITY a \"&b;\"><!ENTITY b \"&a;\">]>\n";
        assertThatThrownBy(() -> ingest("internal", doc(recursive, "&a;"))).isInstanceOf(FileFailedException.class)
                .hasMessageContaining("expands itself recursively")
                .hasMessageContaining("which the DOCTYPE declares at line 2, column ")
                .hasMessageContaining("record index 0, line 4, column ");
        StringBuilder laughs = new StringBuilder("<!DOCTYPE persons [<!ENTITY l0 \"lol\">");
        for (int i = 1; i <= 2; i++) {
            laughs.append("<!ENTITY l").append(i).append(" \"").append(("&l" + (i - 1) + ";").repeat(200)).append("\">");
        }
        laughs.append("]>\n");
        assertThatThrownBy(() -> ingest("internal", doc(laughs.toString(), "&l2;"))).isInstanceOf(FileFailedException.class)
                .hasMessageContaining("xml.max.entity.expansions")
                .hasMessageContaining("which the DOCTYPE declares at line 2, column ")
                .hasMessageContaining("record index 0, line 4, column ");
    }

    @Test
    void internalStopsAQuadraticBlowUpAtTheTextLimit() {
        // 20,000 references to a 10,000-character entity would expand to 200 MB; the text limit stops it at 16 MB.
        String dtd = "<!DOCTYPE persons [<!ENTITY a \"" + "x".repeat(10_000) + "\">]>\n";
        assertThatThrownBy(() -> ingest("internal", doc(dtd, "&a;".repeat(20_000))))
                .isInstanceOf(FileFailedException.class).hasMessageContaining("xml.max.text.size");
    }

    @Test
    void internalStopsManySmallExpansionsAtTheExpansionLimit() {
        String dtd = "<!DOCTYPE persons [<!ENTITY a \"x\">]>\n";
        assertThatThrownBy(() -> ingest("internal", doc(dtd, "&a;".repeat(20_000))))
                .isInstanceOf(FileFailedException.class).hasMessageContaining("xml.max.entity.expansions");
    }

    /**
     * The count is the file's: records that each stay far under it fail once their references add up
     * past it, with an error saying so (before, it read as if one record had passed it), and the file
     * is read whole with the limit raised.
     */
    @Test
    void theExpansionLimitCountsTheWholeFileAndSaysSo() throws Exception {
        String dtd = "<!DOCTYPE persons [<!ENTITY a \"x\">]>\n";
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n" + dtd + "<persons xmlns=\"" + NS + "\">\n");
        for (int i = 0; i < 30; i++) {
            xml.append(HostileInputTest.person(i).replace(">F<", ">" + "&a;".repeat(400) + "<"));
        }
        xml.append("</persons>\n");
        // 12,000 references, 400 a record: the 10,001st is in record 25.
        assertThatThrownBy(() -> ingest("internal", xml.toString()))
                .isInstanceOf(FileFailedException.class)
                .hasMessageContaining("xml.max.entity.expansions counts every expansion of the file from where this "
                        + "run began reading it, not of one record; raise it for a file that uses entities in many records")
                .hasMessageContaining("record index 25")
                .hasMessageEndingWith("(setting: xml.max.entity.expansions)");
        Path file = Files.writeString(dir.resolve("doc.xml"), xml.toString());
        InMemoryPagePublisher publisher = new InMemoryPagePublisher();
        IngestConfig raised = IngestConfig.of(IngestSettings.ALL, Map.of("topic", "t", "xml.doctype", "internal",
                "xml.max.entity.expansions", "12000"));
        IngestionPipeline.create(raised, publisher, IngestListener.NONE).ingest(file);
        assertThat(publisher.pages().stream().mapToInt(p -> p.records().size()).sum()).isEqualTo(30);
    }

    @Test
    void internalNeverFetchesAnExternalSubsetOrEntity() throws Exception {
        try (ConnectionCounter counter = new ConnectionCounter()) {
            String url = counter.url();

            assertThat(ingest("internal", doc("<!DOCTYPE persons SYSTEM \"" + url + "\">\n", "F"))).hasSize(2);
            String external = "<!DOCTYPE persons [<!ENTITY x SYSTEM \"" + url + "\">]>\n";
            // Said in the sender's terms, with the setting, rather than in Woodstox's (which named its own switch).
            assertThatThrownBy(() -> ingest("internal", doc(external, "&x;")))
                    .isInstanceOf(FileFailedException.class)
                    .hasMessageContaining("a reference to the external entity 'x' (a SYSTEM or PUBLIC entity of the "
                            + "DOCTYPE), and external entities are never read")
                    .hasMessageEndingWith("(setting: xml.doctype)");
            String parameter = "<!DOCTYPE persons [<!ENTITY % p SYSTEM \"" + url + "\"> %p;]>\n";
            try {
                ingest("internal", doc(parameter, "F"));
            } catch (FileFailedException e) {
                assertThat(e.getMessage()).contains("doc.xml");
            }
            assertThat(counter.connections()).as("connections to the listener").isZero();
        }
    }
}
