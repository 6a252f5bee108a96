package io.xmlingest.bench.strategy;

import io.xmlingest.sample.persons.Person;
import io.xmlingest.sample.persons.Persons;
import jakarta.xml.bind.JAXBContext;
import java.nio.file.Path;

/** The study's first strategy: unmarshal the whole document into one object tree. Memory grows with the file. */
final class WholeDocumentJaxb implements Strategy {
    @Override
    public Outcome run(Path file, Context context) throws Exception {
        Persons all = (Persons) JAXBContext.newInstance(Persons.class).createUnmarshaller().unmarshal(file.toFile());
        long checksum = 0;
        for (Person p : all.getPerson()) {
            checksum += p.getId();
        }
        return new Outcome(all.getPerson().size(), checksum, null);
    }
}
