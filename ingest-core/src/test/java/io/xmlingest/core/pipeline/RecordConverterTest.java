package io.xmlingest.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.ctc.wstx.stax.WstxInputFactory;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.RecordRejectedException;
import io.xmlingest.core.page.OutgoingRecord;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import javax.xml.stream.util.StreamReaderDelegate;
import org.junit.jupiter.api.Test;

class RecordConverterTest {

    private static final String NS = "urn:xmlingest:test:items";

    private static RecordConverter converter() {
        IngestConfig config = IngestConfig.of(IngestSettings.ALL, Map.of("topic", "t",
                "record.element", "{" + NS + "}item", "record.class", "-", "record.key", "sku"));
        return new RecordConverter(RecordModel.of(config), 1 << 20, 100, false);
    }

    private static XMLStreamReader item(String sku) throws XMLStreamException {
        XMLStreamReader reader = new WstxInputFactory().createXMLStreamReader(new StringReader(
                "<item xmlns='" + NS + "'><sku>" + sku + "</sku><name>a lamp</name></item>"));
        reader.nextTag();
        return reader;
    }

    /** A reader that fails as no reader should, standing in for a bug anywhere in the conversion. */
    private static XMLStreamReader broken(XMLStreamReader reader) {
        return new StreamReaderDelegate(reader) {
            @Override
            public int next() {
                throw new IllegalStateException("a fault no stage expects");
            }
        };
    }

    /**
     * Before, such a fault stopped the worker with the file in hand, and every start met it again:
     * no other file in the inbox was taken. It now rejects the record alone, which the worker sends to
     * the dead letters with its raw XML.
     */
    @Test
    void anUnexpectedFaultRejectsTheRecordAloneNamingItAndTheFault() throws Exception {
        RecordConverter converter = converter();
        ErrorLocation where = new ErrorLocation("items.xml", 7, 12, 3, 400);

        assertThatThrownBy(() -> converter.convert(broken(item("A-1")), 7, where, "items.xml", "id"))
                .isInstanceOfSatisfying(RecordRejectedException.class, e -> {
                    assertThat(e.getMessage()).contains("record cannot be converted: an unexpected "
                                    + "java.lang.IllegalStateException: a fault no stage expects")
                            .contains("a fault in xmlingest or in the record model's code")
                            .contains("file items.xml, record index 7, line 12, column 3");
                    assertThat(e.getCause()).isInstanceOf(IllegalStateException.class);
                });

        // The converter goes on with the next record.
        OutgoingRecord next = converter.convert(item("A-2"), 8, new ErrorLocation("items.xml", 8, 13, 3, 480),
                "items.xml", "id");
        assertThat(new String(next.key(), StandardCharsets.UTF_8)).isEqualTo("A-2");
        assertThat(new String(next.value(), StandardCharsets.UTF_8)).isEqualTo("{\"sku\":\"A-2\",\"name\":\"a lamp\"}");
    }

    @Test
    void aRecordWhoseXmlBreaksOffStillStopsTheFile() throws Exception {
        XMLStreamReader cut = new StreamReaderDelegate(item("A-1")) {
            @Override
            public int next() throws XMLStreamException {
                throw new XMLStreamException("Unexpected EOF; was expecting a close tag for element <item>");
            }
        };
        assertThatThrownBy(() -> converter().convert(cut, 0, new ErrorLocation("items.xml", 0, 1, 1, 0), "items.xml",
                "id")).isInstanceOf(io.xmlingest.core.error.FileFailedException.class)
                .hasMessageContaining("XML is not readable: Unexpected EOF");
    }

    @Test
    void errorsOfTheVirtualMachineStillStopTheFile() throws Exception {
        // Out of memory, say: the JVM may be in no state to go on, so it is not taken for the record's fault.
        XMLStreamReader failing = new StreamReaderDelegate(item("A-1")) {
            @Override
            public int next() {
                throw new OutOfMemoryError("stand-in");
            }
        };
        assertThatThrownBy(() -> converter().convert(failing, 0, new ErrorLocation("items.xml", 0, 1, 1, 0),
                "items.xml", "id")).isInstanceOf(OutOfMemoryError.class);
    }
}
