package io.xmlingest.bench.formats;

import static org.assertj.core.api.Assertions.assertThat;

import io.xmlingest.sample.persons.Person;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

class JaxbAvroSchemasTest {

    private final Schema person = JaxbAvroSchemas.of(Person.class);

    @Test
    void fieldsFollowTheJsonValueInNameAndOrder() {
        assertThat(person.getFields()).extracting(Schema.Field::name).containsExactly("id", "firstName", "lastName",
                "email", "birthDate", "active", "salary", "phone", "address");
        assertThat(person.getFullName()).isEqualTo("io.xmlingest.sample.persons.Person");
    }

    @Test
    void xmlSchemaTypesMapToAvroTypesThatKeepEveryValue() {
        assertThat(type("id")).isEqualTo(Schema.Type.LONG);
        assertThat(type("active")).isEqualTo(Schema.Type.BOOLEAN);
        // Decimals and dates stay text: no fixed scale, and an optional time zone.
        assertThat(type("salary")).isEqualTo(Schema.Type.STRING);
        assertThat(type("birthDate")).isEqualTo(Schema.Type.STRING);
        Schema phone = person.getField("phone").schema();
        assertThat(phone.getType()).isEqualTo(Schema.Type.ARRAY);
        Schema phoneType = phone.getElementType().getField("type").schema();
        assertThat(phoneType.getType()).isEqualTo(Schema.Type.ENUM);
        assertThat(phoneType.getEnumSymbols()).containsExactly("mobile", "home", "work");
        assertThat(person.getField("address").schema().getType()).isEqualTo(Schema.Type.RECORD);
    }

    @Test
    void onlyOptionalValuesAreNullable() {
        // Every person value is required by persons.xsd except the phone's text, which xjc does not mark.
        assertThat(person.getFields()).allMatch(f -> f.schema().getType() != Schema.Type.UNION);
        Schema text = person.getField("phone").schema().getElementType().getField("value").schema();
        assertThat(text.getType()).isEqualTo(Schema.Type.UNION);
        assertThat(text.getTypes()).extracting(Schema::getType).containsExactly(Schema.Type.NULL, Schema.Type.STRING);
    }

    private Schema.Type type(String field) {
        return person.getField(field).schema().getType();
    }
}
