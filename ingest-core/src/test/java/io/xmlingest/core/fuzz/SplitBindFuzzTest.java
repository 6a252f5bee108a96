package io.xmlingest.core.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.xmlingest.core.bind.JaxbRecordBinder;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.FileFailedException;
import io.xmlingest.core.error.RecordRejectedException;
import io.xmlingest.core.split.DoctypePolicy;
import io.xmlingest.core.split.StaxRecordSplitter;
import io.xmlingest.core.split.XmlLimits;
import io.xmlingest.sample.persons.Person;
import jakarta.xml.bind.JAXBContext;
import jakarta.xml.bind.JAXBException;
import java.io.ByteArrayInputStream;
import javax.xml.namespace.QName;

/**
 * Coverage-guided fuzzing of the splitter and binder: whatever the bytes, the only exceptions
 * allowed out are ours (a rejected record, a failed file). Anything else, a hang, or memory
 * beyond the limits (the test JVM's heap is small) is a finding. Without JAZZER_FUZZ set, the
 * seeds and kept reproducers in SplitBindFuzzTestInputs run as plain regression tests; the build
 * sets it, so every build fuzzes for the bounded time below.
 */
class SplitBindFuzzTest {

    private static final QName PERSON = new QName("urn:xmlingest:sample:persons", "person");
    private static final XmlLimits LIMITS = new XmlLimits(64, 64, 4096, 65_536, DoctypePolicy.INTERNAL, 1000, 4, 1 << 20);
    private static final JAXBContext CONTEXT;

    static {
        try {
            CONTEXT = JAXBContext.newInstance(Person.class);
        } catch (JAXBException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final JaxbRecordBinder<Person> binder = new JaxbRecordBinder<>(CONTEXT, Person.class);

    @FuzzTest(maxDuration = "60s")
    void splitAndBindFailOnlyWithTypedErrors(byte[] input) {
        try (StaxRecordSplitter s = new StaxRecordSplitter(new ByteArrayInputStream(input), "fuzz.xml", PERSON, LIMITS)) {
            while (s.next()) {
                try {
                    binder.bind(s.record(), ErrorLocation.ofFile("fuzz.xml").withRecordIndex(s.position().recordIndex()));
                } catch (RecordRejectedException e) {
                    // a bad record: expected for most inputs
                }
            }
        } catch (FileFailedException e) {
            // a bad file: expected for most inputs
        }
    }
}
