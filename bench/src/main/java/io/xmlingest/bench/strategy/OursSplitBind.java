package io.xmlingest.bench.strategy;

import io.xmlingest.core.bind.JaxbRecordBinder;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.split.SplitPosition;
import io.xmlingest.core.split.StaxRecordSplitter;
import io.xmlingest.core.split.XmlLimits;
import io.xmlingest.datagen.DatagenCommand;
import io.xmlingest.sample.persons.Person;
import jakarta.xml.bind.JAXBContext;
import java.nio.file.Path;

/** Ours, split and bind only: the hardened splitter and the strict binder, no serialization, no Kafka. */
final class OursSplitBind implements Strategy {

    private final JaxbRecordBinder<Person> binder;

    OursSplitBind() {
        try {
            binder = new JaxbRecordBinder<>(JAXBContext.newInstance(Person.class), Person.class);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public Outcome run(Path file, Context context) {
        long records = 0;
        long checksum = 0;
        try (StaxRecordSplitter s = StaxRecordSplitter.open(file, DatagenCommand.RECORD, XmlLimits.DEFAULTS)) {
            while (s.next()) {
                SplitPosition pos = s.position();
                Person p = binder.bind(s.record(), new ErrorLocation(file.toString(), pos.recordIndex(), pos.line(),
                        pos.column(), pos.byteOffset()));
                records++;
                checksum += p.getId();
            }
        }
        return new Outcome(records, checksum, null);
    }
}
