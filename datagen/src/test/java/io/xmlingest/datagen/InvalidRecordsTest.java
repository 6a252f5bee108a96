package io.xmlingest.datagen;

import static org.assertj.core.api.Assertions.assertThat;

import io.xmlingest.core.bind.JaxbRecordBinder;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.RecordRejectedException;
import io.xmlingest.core.split.StaxRecordSplitter;
import io.xmlingest.core.split.XmlLimits;
import io.xmlingest.sample.persons.Person;
import jakarta.xml.bind.JAXBContext;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class InvalidRecordsTest {

    private static byte[] generate(long records, long seed, double rate) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        DatagenCommand.write(out, records, seed, rate, DatagenCommand.Progress.NONE);
        return out.toByteArray();
    }

    @Test
    void aRateOfZeroWritesExactlyWhatDatagenAlwaysWrote() {
        ByteArrayOutputStream plain = new ByteArrayOutputStream();
        DatagenCommand.write(plain, 500, 42, DatagenCommand.Progress.NONE);
        assertThat(generate(500, 42, 0)).isEqualTo(plain.toByteArray());
    }

    @Test
    void theStrictBinderRejectsExactlyTheRecordsDatagenMadeInvalid() throws Exception {
        long seed = 9;
        double rate = 0.1;
        byte[] xml = generate(2000, seed, rate);
        JaxbRecordBinder<Person> binder = new JaxbRecordBinder<>(JAXBContext.newInstance(Person.class), Person.class);
        TreeSet<Long> rejected = new TreeSet<>();
        Map<InvalidRecords.Fault, String> reasons = new EnumMap<>(InvalidRecords.Fault.class);
        try (StaxRecordSplitter s = new StaxRecordSplitter(new ByteArrayInputStream(xml), "invalid.xml",
                DatagenCommand.RECORD, XmlLimits.DEFAULTS)) {
            while (s.next()) {
                long i = s.position().recordIndex();
                try {
                    binder.bind(s.record(), ErrorLocation.ofFile("invalid.xml").withRecordIndex(i));
                } catch (RecordRejectedException e) {
                    rejected.add(i);
                    reasons.putIfAbsent(InvalidRecords.fault(i, seed), e.reason());
                }
            }
        }
        TreeSet<Long> expected = new TreeSet<>();
        for (long i = 0; i < 2000; i++) {
            if (DatagenCommand.isInvalid(i, seed, rate)) {
                expected.add(i);
            }
        }
        assertThat(expected.size()).isBetween(150, 250);
        assertThat(rejected).isEqualTo(expected);
        // Every kind of fault occurs, and each is rejected for its own reason.
        assertThat(reasons).containsOnlyKeys(InvalidRecords.Fault.values());
        assertThat(reasons.get(InvalidRecords.Fault.MISSING_REQUIRED)).contains("email");
        assertThat(reasons.get(InvalidRecords.Fault.UNKNOWN_ELEMENT)).contains("nickname");
        assertThat(new String(xml, StandardCharsets.UTF_8)).contains("<salary>n/a</salary>", "<birthDate>1970-13-45</birthDate>");
    }

    @Test
    void theChoiceIsAPureFunctionOfSeedAndIndex() {
        assertThat(DatagenCommand.isInvalid(17, 3, 0.5)).isEqualTo(DatagenCommand.isInvalid(17, 3, 0.5));
        assertThat(DatagenCommand.isInvalid(17, 3, 0)).isFalse();
        assertThat(DatagenCommand.isInvalid(17, 3, 1)).isTrue();
        assertThat(generate(300, 4, 0.2)).isEqualTo(generate(300, 4, 0.2));
    }
}
