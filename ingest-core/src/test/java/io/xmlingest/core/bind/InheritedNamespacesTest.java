package io.xmlingest.core.bind;

import static org.assertj.core.api.Assertions.assertThat;

import io.xmlingest.core.bind.qname.Tagged;
import io.xmlingest.core.encode.JsonRecordEncoder;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.RecordRejectedException;
import io.xmlingest.core.split.StaxRecordSplitter;
import io.xmlingest.core.split.XmlLimits;
import jakarta.xml.bind.JAXBContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.namespace.QName;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A record may use, in its values, a prefix or default namespace that an element around it
 * declares. JAXB resolved these, but the schema validator it runs is shown only the declarations
 * it reads, so before, every such record was rejected as not valid when record.schema was set.
 */
class InheritedNamespacesTest {

    @TempDir
    Path dir;

    private List<String> bindAll(String body) throws Exception {
        Schema schema = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI)
                .newSchema(Path.of("src/test/resources/tagged/tagged.xsd").toFile());
        JaxbRecordBinder<Tagged> binder = new JaxbRecordBinder<>(JAXBContext.newInstance(Tagged.class), Tagged.class, schema);
        Path file = Files.writeString(dir.resolve("t.xml"), "<batch xmlns=\"" + Tagged.NS + "\" xmlns:k=\"urn:kinds\">\n"
                + body + "</batch>\n");
        List<String> live = new ArrayList<>();
        List<String> copied = new ArrayList<>();
        for (List<String> out : List.of(live, copied)) {
            try (var s = StaxRecordSplitter.open(file, new QName(Tagged.NS, "tagged"), XmlLimits.DEFAULTS)) {
                while (s.next()) {
                    ErrorLocation where = ErrorLocation.ofFile("t.xml").withRecordIndex(s.position().recordIndex());
                    try {
                        Tagged t = binder.bind(out == live ? s.record() : s.capture().reader(), where);
                        out.add(new String(new JsonRecordEncoder().encode(t), StandardCharsets.UTF_8));
                    } catch (RecordRejectedException e) {
                        out.add(e.getMessage());
                    }
                }
            }
        }
        assertThat(copied).isEqualTo(live);
        return live;
    }

    @Test
    void bindingsFromAroundTheRecordReachTheValidator() throws Exception {
        List<String> out = bindAll("""
                <tagged id="1"><kind>k:big</kind></tagged>
                <tagged id="2"><kind>small</kind></tagged>
                <group xmlns:g="urn:groups" xmlns:k="urn:inner">
                  <tagged id="3"><kind>g:x</kind></tagged>
                  <tagged id="4"><kind>k:big</kind></tagged>
                </group>
                <tagged id="5" xmlns:k="urn:own"><kind>k:big</kind></tagged>
                <tagged id="6"><kind>g:x</kind></tagged>
                """);

        assertThat(out.subList(0, 5)).containsExactly(
                "{\"id\":\"1\",\"kind\":\"{urn:kinds}big\"}",
                "{\"id\":\"2\",\"kind\":\"{" + Tagged.NS + "}small\"}",
                "{\"id\":\"3\",\"kind\":\"{urn:groups}x\"}",
                "{\"id\":\"4\",\"kind\":\"{urn:inner}big\"}",
                "{\"id\":\"5\",\"kind\":\"{urn:own}big\"}");
        // g is declared only on the group, which has ended.
        assertThat(out.get(5)).contains("prefix g is not bound to a namespace", "record index 5");
    }
}
