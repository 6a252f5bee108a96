package io.xmlingest.bench.strategy;

import com.ctc.wstx.stax.WstxInputFactory;
import io.xmlingest.datagen.DatagenCommand;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamReader;

/** Ceiling: a plain Woodstox cursor over every event, counting record start tags; no binding. */
final class WoodstoxScan implements Strategy {
    @Override
    public Outcome run(Path file, Context context) throws Exception {
        WstxInputFactory factory = new WstxInputFactory();
        String ns = DatagenCommand.RECORD.getNamespaceURI();
        String local = DatagenCommand.RECORD.getLocalPart();
        long records = 0;
        try (InputStream in = Files.newInputStream(file)) {
            XMLStreamReader r = factory.createXMLStreamReader(in);
            while (r.hasNext()) {
                if (r.next() == XMLStreamConstants.START_ELEMENT && local.equals(r.getLocalName())
                        && ns.equals(r.getNamespaceURI())) {
                    records++;
                }
            }
            r.close();
        }
        return new Outcome(records, records, null);
    }
}
