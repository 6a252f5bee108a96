package io.xmlingest.bench.formats;

import io.xmlingest.core.bind.JaxbRecordBinder;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.split.RawRecord;
import io.xmlingest.core.split.SplitPosition;
import io.xmlingest.core.split.StaxRecordSplitter;
import io.xmlingest.core.split.XmlLimits;
import io.xmlingest.datagen.DatagenCommand;
import io.xmlingest.sample.persons.Person;
import jakarta.xml.bind.JAXBContext;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Reads a datagen persons file as the pipeline does, giving each record bound by the strict
 * binder and with its bytes from the file. Two splitters run in step: one binds, the other only
 * locates each record's bytes, since a splitter cannot both hand a record to JAXB and skip it.
 */
public final class FileRecords {

    private FileRecords() {
    }

    public static long forEach(Path file, long max, Consumer<ValueFormat.Source> action) throws Exception {
        JaxbRecordBinder<Person> binder = new JaxbRecordBinder<>(JAXBContext.newInstance(Person.class), Person.class);
        long count = 0;
        try (StaxRecordSplitter binding = StaxRecordSplitter.open(file, DatagenCommand.RECORD, XmlLimits.DEFAULTS);
             StaxRecordSplitter locating = StaxRecordSplitter.open(file, DatagenCommand.RECORD, XmlLimits.DEFAULTS);
             InputStream bytes = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            long at = 0;
            while (count < max && binding.next()) {
                if (!locating.next()) {
                    throw new IllegalStateException(file + ": the two splitters disagree at record " + count);
                }
                SplitPosition pos = binding.position();
                Person person = binder.bind(binding.record(), new ErrorLocation(file.toString(), pos.recordIndex(),
                        pos.line(), pos.column(), pos.byteOffset()));
                RawRecord raw = locating.raw(0);
                at += skip(bytes, raw.byteOffset() - at);
                byte[] xml = bytes.readNBytes((int) raw.byteLength());
                at += xml.length;
                action.accept(new ValueFormat.Source(person, xml));
                count++;
            }
        }
        return count;
    }

    private static long skip(InputStream in, long n) throws IOException {
        if (n < 0) {
            throw new IllegalStateException("records out of order in the file");
        }
        in.skipNBytes(n);
        return n;
    }
}
