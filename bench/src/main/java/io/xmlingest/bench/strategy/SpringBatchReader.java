package io.xmlingest.bench.strategy;

import io.xmlingest.datagen.DatagenCommand;
import io.xmlingest.sample.persons.Person;
import jakarta.xml.bind.JAXBElement;
import java.nio.file.Path;
import org.springframework.batch.item.ExecutionContext;
import org.springframework.batch.item.xml.StaxEventItemReader;
import org.springframework.core.io.FileSystemResource;
import org.springframework.oxm.jaxb.Jaxb2Marshaller;

/** The peer: Spring Batch's StaxEventItemReader with a JAXB (spring-oxm) unmarshaller, read to the end. */
final class SpringBatchReader implements Strategy {
    @Override
    public Outcome run(Path file, Context context) throws Exception {
        Jaxb2Marshaller marshaller = new Jaxb2Marshaller();
        marshaller.setClassesToBeBound(Person.class);
        marshaller.setMappedClass(Person.class);
        marshaller.afterPropertiesSet();
        StaxEventItemReader<Object> reader = new StaxEventItemReader<>();
        reader.setName("persons");
        reader.setResource(new FileSystemResource(file));
        reader.setFragmentRootElementName(DatagenCommand.RECORD.toString());
        reader.setUnmarshaller(marshaller);
        reader.afterPropertiesSet();
        reader.open(new ExecutionContext());
        long records = 0;
        long checksum = 0;
        try {
            for (Object item = reader.read(); item != null; item = reader.read()) {
                Person p = item instanceof JAXBElement<?> e ? (Person) e.getValue() : (Person) item;
                records++;
                checksum += p.getId();
            }
        } finally {
            reader.close();
        }
        return new Outcome(records, checksum, null);
    }
}
