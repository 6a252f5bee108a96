package io.xmlingest.datagen;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.SchemaFactory;
import javax.xml.validation.Validator;
import org.junit.jupiter.api.Test;

class DatagenTest {

    private static byte[] generate(long records, long seed) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        DatagenCommand.write(out, records, seed, DatagenCommand.Progress.NONE);
        return out.toByteArray();
    }

    @Test
    void theSameSeedGivesIdenticalBytes() {
        assertThat(generate(2000, 42)).isEqualTo(generate(2000, 42));
    }

    @Test
    void anotherSeedGivesOtherData() {
        assertThat(generate(200, 1)).isNotEqualTo(generate(200, 2));
    }

    @Test
    void theFileIsValidAgainstTheSchema() throws Exception {
        byte[] xml = generate(1000, 42);
        SchemaFactory factory = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
        Validator validator = factory.newSchema(DatagenTest.class.getResource("/xsd/persons.xsd")).newValidator();
        validator.validate(new StreamSource(new StringReader(new String(xml, StandardCharsets.UTF_8))));
    }

    @Test
    void idsRunFromOneAndEveryRecordHasOneToThreePhones() {
        String xml = new String(generate(500, 7), StandardCharsets.UTF_8);
        Matcher ids = Pattern.compile("<person id=\"(\\d+)\"").matcher(xml);
        long expected = 1;
        while (ids.find()) {
            assertThat(Long.parseLong(ids.group(1))).isEqualTo(expected++);
        }
        assertThat(expected - 1).isEqualTo(500);
        for (String record : xml.split("<person ")) {
            if (record.contains("</person>")) {
                int phones = record.split("<phone ", -1).length - 1;
                assertThat(phones).isBetween(1, 3);
            }
        }
    }

    @Test
    void zeroRecordsIsAnEmptyButValidDocument() {
        String xml = new String(generate(0, 1), StandardCharsets.UTF_8);
        assertThat(xml).contains("<persons xmlns=\"urn:xmlingest:sample:persons\">").contains("</persons>")
                .doesNotContain("<person ");
    }
}
