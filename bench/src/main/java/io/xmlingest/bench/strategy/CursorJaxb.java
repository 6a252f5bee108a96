package io.xmlingest.bench.strategy;

import io.xmlingest.datagen.DatagenCommand;
import io.xmlingest.sample.persons.Person;
import jakarta.xml.bind.JAXBContext;
import jakarta.xml.bind.Unmarshaller;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamReader;

/**
 * The study's StAX strategies: a cursor from the given StAX implementation, and JAXB's default
 * unmarshaller on each record, as the study and most tutorials write it (no strictness, no
 * limits). What is done with each bound record is given, so the same loop can also serialize it.
 */
final class CursorJaxb implements Strategy {

    private final Supplier<XMLInputFactory> factory;
    private final Unmarshaller unmarshaller;
    private final ToLongFunction<Person> perRecord;

    /** @param perRecord the work done on each bound record; its result feeds a checksum, so the JIT cannot drop it */
    CursorJaxb(Supplier<XMLInputFactory> factory, ToLongFunction<Person> perRecord) {
        this.factory = factory;
        this.perRecord = perRecord;
        try {
            this.unmarshaller = JAXBContext.newInstance(Person.class).createUnmarshaller();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public Outcome run(Path file, Context context) throws Exception {
        String ns = DatagenCommand.RECORD.getNamespaceURI();
        String local = DatagenCommand.RECORD.getLocalPart();
        long records = 0;
        long checksum = 0;
        try (InputStream in = Files.newInputStream(file)) {
            XMLStreamReader r = factory.get().createXMLStreamReader(in);
            int event = r.next();
            while (event != XMLStreamConstants.END_DOCUMENT) {
                if (event == XMLStreamConstants.START_ELEMENT && local.equals(r.getLocalName())
                        && ns.equals(r.getNamespaceURI())) {
                    Person p = unmarshaller.unmarshal(r, Person.class).getValue();
                    records++;
                    checksum += perRecord.applyAsLong(p);
                    // JAXB leaves the cursor on the event after the record's end tag.
                    event = r.getEventType();
                } else {
                    event = r.next();
                }
            }
            r.close();
        }
        return new Outcome(records, checksum, null);
    }
}
