package io.xmlingest.bench;

import io.xmlingest.core.bind.JaxbRecordBinder;
import io.xmlingest.core.encode.JsonRecordEncoder;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.split.StaxRecordSplitter;
import io.xmlingest.core.split.XmlLimits;
import io.xmlingest.datagen.DatagenCommand;
import io.xmlingest.sample.persons.Person;
import jakarta.xml.bind.JAXBContext;
import java.nio.file.Path;

/**
 * How far down the pipeline one run goes. Each stage includes the ones before it, so the gap
 * between two stages is what the later one costs.
 */
enum Stage {
    /** The Woodstox cursor finds every record and skips its content: the parsing ceiling. */
    SCAN,
    /** Each record is unmarshalled by JAXB from the cursor. */
    BIND,
    /** Each bound record is also written as the JSON message value. */
    SERIALIZE;

    /** Runs this stage over the file once and returns the number of records and a checksum, so no work is dead. */
    long[] run(Path file, JAXBContext context) {
        JaxbRecordBinder<Person> binder = new JaxbRecordBinder<>(context, Person.class);
        JsonRecordEncoder encoder = new JsonRecordEncoder();
        long records = 0;
        long checksum = 0;
        try (StaxRecordSplitter s = StaxRecordSplitter.open(file, DatagenCommand.RECORD, XmlLimits.DEFAULTS)) {
            ErrorLocation where = ErrorLocation.ofFile(file.toString());
            while (s.next()) {
                records++;
                if (this == SCAN) {
                    checksum += s.position().line();
                    continue;
                }
                Person p = binder.bind(s.record(), where);
                checksum += p.getId();
                if (this == SERIALIZE) {
                    checksum += encoder.encode(p).length;
                }
            }
        }
        return new long[] {records, checksum};
    }
}
