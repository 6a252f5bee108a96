package io.xmlingest.core.encode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.xmlingest.core.encode.model.ExpressParcel;
import io.xmlingest.core.encode.model.Grade;
import io.xmlingest.core.encode.model.HeatedLocker;
import io.xmlingest.core.encode.model.Kitchen;
import io.xmlingest.core.encode.model.Locker;
import io.xmlingest.core.encode.model.Parcel;
import io.xmlingest.core.encode.model.Shelf;
import io.xmlingest.sample.persons.Address;
import io.xmlingest.sample.persons.Person;
import io.xmlingest.sample.persons.Phone;
import io.xmlingest.sample.persons.PhoneType;
import jakarta.xml.bind.JAXBContext;
import jakarta.xml.bind.JAXBElement;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;
import javax.xml.datatype.DatatypeConstants;
import javax.xml.datatype.DatatypeFactory;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.Test;

class JsonSchemaWriterTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonSchemaFactory SCHEMAS = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    private static final String[] TEXTS = {"Anna", "Zoë \"Z\"", "Łukasz", "O'Brien", "", "a\nb\tc", "😀 emoji", "<x>&amp;"};

    private final DatatypeFactory dates = DatatypeFactory.newInstance();

    JsonSchemaWriterTest() throws Exception {
    }

    @Test
    void theSchemasAreValidDraft202012Schemas() throws Exception {
        JsonSchema meta = SCHEMAS.getSchema(SchemaLocation.of(JsonSchemaWriter.DIALECT));
        for (Class<?> type : List.of(Person.class, Kitchen.class, Parcel.class)) {
            assertThat(meta.validate(MAPPER.readTree(JsonSchemaWriter.toJson(type)))).as(type.getName()).isEmpty();
        }
    }

    @jakarta.xml.bind.annotation.XmlRootElement(name = "rec")
    @jakarta.xml.bind.annotation.XmlAccessorType(jakarta.xml.bind.annotation.XmlAccessType.FIELD)
    static class ListRecord {
        @jakarta.xml.bind.annotation.XmlList
        @jakarta.xml.bind.annotation.XmlElement(required = true)
        List<Integer> lst;
        @jakarta.xml.bind.annotation.XmlElement(required = true)
        List<String> item;
    }

    @jakarta.xml.bind.annotation.XmlRootElement(name = "ranges")
    @jakarta.xml.bind.annotation.XmlAccessorType(jakarta.xml.bind.annotation.XmlAccessType.FIELD)
    static class Ranges {
        @jakarta.xml.bind.annotation.XmlSchemaType(name = "unsignedByte")
        @jakarta.xml.bind.annotation.adapters.XmlJavaTypeAdapter(Adapted.class)
        @jakarta.xml.bind.annotation.XmlElement
        Short ub;
        @jakarta.xml.bind.annotation.XmlSchemaType(name = "unsignedInt")
        @jakarta.xml.bind.annotation.adapters.XmlJavaTypeAdapter(Adapted.class)
        @jakarta.xml.bind.annotation.XmlElement
        Long ui;
        @jakarta.xml.bind.annotation.XmlSchemaType(name = "unsignedLong")
        @jakarta.xml.bind.annotation.adapters.XmlJavaTypeAdapter(Adapted.class)
        @jakarta.xml.bind.annotation.XmlElement
        BigInteger ul;
        @jakarta.xml.bind.annotation.XmlSchemaType(name = "positiveInteger")
        @jakarta.xml.bind.annotation.adapters.XmlJavaTypeAdapter(Adapted.class)
        @jakarta.xml.bind.annotation.XmlElement
        List<BigInteger> pi;
        @jakarta.xml.bind.annotation.XmlSchemaType(name = "negativeInteger")
        @jakarta.xml.bind.annotation.adapters.XmlJavaTypeAdapter(Adapted.class)
        @jakarta.xml.bind.annotation.XmlElement
        BigInteger ni;
        @jakarta.xml.bind.annotation.XmlElement
        Short plain;
        // Bound by JAXB's own conversion, as plain xjc leaves it: held to Short's range only.
        @jakarta.xml.bind.annotation.XmlElement
        @jakarta.xml.bind.annotation.XmlSchemaType(name = "unsignedByte")
        Short lenient;
    }

    /** A stand-in for strict binding's adapters: the schema writer asks only whether a field has one. */
    static class Adapted extends jakarta.xml.bind.annotation.adapters.XmlAdapter<String, Object> {
        public Object unmarshal(String v) {
            throw new UnsupportedOperationException("never bound");
        }

        public String marshal(Object v) {
            throw new UnsupportedOperationException("never written");
        }
    }

    /** xjc binds these XML integer types to wider Java types; the strict binding holds them to their own range. */
    @Test
    void integerTypesBoundToWiderJavaTypesKeepTheirXmlRange() throws Exception {
        JsonNode schema = MAPPER.readTree(JsonSchemaWriter.toJson(Ranges.class));
        JsonNode p = schema.get("properties");

        assertThat(p.get("ub").get("minimum").asLong()).isZero();
        assertThat(p.get("ub").get("maximum").asLong()).isEqualTo(255);
        assertThat(p.get("ui").get("maximum").asLong()).isEqualTo(4_294_967_295L);
        assertThat(p.get("ul").get("maximum").bigIntegerValue()).isEqualTo(new BigInteger("18446744073709551615"));
        assertThat(p.get("pi").get("items").get("minimum").asInt()).isEqualTo(1);
        assertThat(p.get("ni").get("maximum").asInt()).isEqualTo(-1);
        assertThat(p.get("plain").get("minimum").asInt()).isEqualTo(Short.MIN_VALUE);
        assertThat(p.get("lenient").get("maximum").asInt()).isEqualTo(Short.MAX_VALUE);
        JsonSchema meta = SCHEMAS.getSchema(SchemaLocation.of(JsonSchemaWriter.DIALECT));
        assertThat(meta.validate(schema)).isEmpty();
    }

    /** Written with its default when absent, such an attribute is in every value; a decimal says how to read it. */
    @Test
    void anAttributeWithADefaultIsRequiredAndADecimalSaysItIsExact() throws Exception {
        JsonNode schema = MAPPER.readTree(JsonSchemaWriter.toJson(io.xmlingest.core.jaxb.XjcStyleOrder.class));

        assertThat(texts(schema.get("required"))).contains("priority", "channel");
        assertThat(schema.at("/properties/total/description").asText()).contains("not a double");
        JsonSchema validator = SCHEMAS.getSchema(JsonSchemaWriter.toJson(io.xmlingest.core.jaxb.XjcStyleOrder.class));
        JsonNode written = MAPPER.readTree(XjcShapesTest.json(XjcShapesTest.bind("<order id='A-2'>"
                + "<placed>2026-11-22T09:15:00Z</placed><status>placed</status><total>1</total></order>")));
        assertThat(written.has("priority")).isTrue();
        assertThat(validator.validate(written)).isEmpty();
    }

    /** The binder takes an empty xs:list (<lst/>) as present; a required repeated element needs one item. */
    @Test
    void aRequiredXsListMayBeEmptyWhereARequiredRepeatedElementMayNot() throws Exception {
        JsonNode schema = MAPPER.readTree(JsonSchemaWriter.toJson(ListRecord.class));

        assertThat(schema.get("required")).extracting(JsonNode::asText).containsExactly("lst", "item");
        assertThat(schema.get("properties").get("lst").has("minItems")).isFalse();
        assertThat(schema.get("properties").get("item").get("minItems").asInt()).isEqualTo(1);
    }

    @Test
    void thePersonSchemaNamesTheClassAndFollowsTheModel() throws Exception {
        JsonNode schema = MAPPER.readTree(JsonSchemaWriter.toJson(Person.class));
        assertThat(schema.get("$schema").asText()).isEqualTo(JsonSchemaWriter.DIALECT);
        assertThat(schema.get("$id").asText()).isEqualTo("urn:xmlingest:record:io.xmlingest.sample.persons.Person");
        assertThat(schema.get("title").asText()).isEqualTo("Person");
        assertThat(schema.get("additionalProperties").asBoolean(true)).isFalse();
        assertThat(fieldNames(schema.get("properties"))).containsExactly("id", "firstName", "lastName", "email",
                "birthDate", "active", "salary", "phone", "address");
        assertThat(texts(schema.get("required"))).containsExactly("id", "firstName", "lastName", "email", "birthDate",
                "active", "salary", "phone", "address");
        JsonNode p = schema.get("properties");
        assertThat(p.at("/id/type").asText()).isEqualTo("integer");
        assertThat(p.at("/salary/type").asText()).isEqualTo("number");
        assertThat(p.at("/active/type").asText()).isEqualTo("boolean");
        assertThat(p.at("/birthDate/pattern").asText()).startsWith("^-?\\d{4,}-\\d{2}-\\d{2}");
        assertThat(p.at("/phone/type").asText()).isEqualTo("array");
        assertThat(p.at("/phone/minItems").asInt()).isEqualTo(1);
        assertThat(p.at("/phone/items/$ref").asText()).isEqualTo("#/$defs/Phone");
        assertThat(p.at("/address/$ref").asText()).isEqualTo("#/$defs/Address");
        JsonNode phone = schema.at("/$defs/Phone");
        assertThat(fieldNames(phone.get("properties"))).containsExactly("type", "value");
        assertThat(texts(phone.at("/properties/type/enum"))).containsExactly("mobile", "home", "work");
        assertThat(phone.get("additionalProperties").asBoolean(true)).isFalse();
    }

    @Test
    void everyEncodedPersonIsValid() throws Exception {
        JsonSchema schema = SCHEMAS.getSchema(JsonSchemaWriter.toJson(Person.class));
        JsonRecordEncoder encoder = new JsonRecordEncoder();
        Random random = new Random(42);
        for (int i = 0; i < 500; i++) {
            JsonNode value = MAPPER.readTree(encoder.encode(person(random, i)));
            assertThat(schema.validate(value)).as("%s", value).isEmpty();
        }
    }

    @Test
    void aDerivedTypeChosenWithXsiTypeIsValidAndStillChecked() throws Exception {
        String xml = """
                <parcel xmlns="urn:xmlingest:test:parcel" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
                  <id>P-1</id>
                  <to xsi:type="Locker"><city>Oslo</city><locker>7</locker></to>
                  <via><city>Bergen</city></via>
                  <via xsi:type="HeatedLocker"><city>Tromsø</city><locker>3</locker><celsius>4</celsius></via>
                </parcel>""";
        Parcel parcel = (Parcel) JAXBContext.newInstance(Parcel.class).createUnmarshaller().unmarshal(new StringReader(xml));
        assertThat(parcel.to).isInstanceOf(Locker.class);
        assertThat(parcel.via.get(1)).isInstanceOf(HeatedLocker.class);
        ObjectNode value = (ObjectNode) MAPPER.readTree(new JsonRecordEncoder().encode(parcel));
        assertThat(value.at("/to/locker").asInt()).isEqualTo(7);
        assertThat(value.at("/via/1/celsius").asInt()).isEqualTo(4);

        JsonSchema schema = SCHEMAS.getSchema(JsonSchemaWriter.toJson(Parcel.class));
        assertThat(schema.validate(value)).as("%s", value).isEmpty();
        // Each form stays closed and keeps its required values.
        assertRejected(schema, value, v -> ((ObjectNode) v.get("to")).put("shelf", 1), "shelf");
        assertRejected(schema, value, v -> ((ObjectNode) v.get("to")).remove("city"), "city");
        assertRejected(schema, value, v -> ((ObjectNode) v.at("/via/1")).put("celsius", "warm"), "celsius");

        String express = xml.replace("<parcel ", "<parcel xsi:type=\"ExpressParcel\" ")
                .replace("</parcel>", "<by>bike</by></parcel>");
        Parcel fast = (Parcel) JAXBContext.newInstance(Parcel.class).createUnmarshaller().unmarshal(new StringReader(express));
        assertThat(fast).isInstanceOf(ExpressParcel.class);
        ObjectNode fastValue = (ObjectNode) MAPPER.readTree(new JsonRecordEncoder().encode(fast));
        assertThat(fastValue.get("by").asText()).isEqualTo("bike");
        assertThat(schema.validate(fastValue)).as("%s", fastValue).isEmpty();
        assertRejected(schema, fastValue, v -> v.put("shelf", 1), "shelf");
    }

    @Test
    void everyEncodedKitchenIsValidWhateverIsSet() throws Exception {
        JsonSchema schema = SCHEMAS.getSchema(JsonSchemaWriter.toJson(Kitchen.class));
        JsonRecordEncoder encoder = new JsonRecordEncoder();
        Random random = new Random(7);
        for (int i = 0; i < 500; i++) {
            JsonNode value = MAPPER.readTree(encoder.encode(kitchen(random, 2)));
            assertThat(schema.validate(value)).as("%s", value).isEmpty();
        }
        // Every optional branch written at least once, so the loop above did check each of them.
        Kitchen full = kitchen(new Random(1), 0);
        fill(full, new Random(3), 2);
        JsonNode written = MAPPER.readTree(encoder.encode(full));
        assertThat(fieldNames(written)).containsExactlyInAnyOrderElementsOf(
                fieldNames(MAPPER.readTree(JsonSchemaWriter.toJson(Kitchen.class)).get("properties")));
        assertThat(schema.validate(written)).isEmpty();
    }

    @Test
    void floatingPointSpecialsAndNilAreValid() throws Exception {
        JsonSchema schema = SCHEMAS.getSchema(JsonSchemaWriter.toJson(Kitchen.class));
        Kitchen k = kitchen(new Random(5), 0);
        k.ratio = Double.NaN;
        k.weight = Float.NEGATIVE_INFINITY;
        JAXBElement<String> nil = new JAXBElement<>(new QName(Kitchen.NS, "note"), String.class, null);
        nil.setNil(true);
        k.note = nil;
        JsonNode value = MAPPER.readTree(new JsonRecordEncoder().encode(k));
        assertThat(value.get("ratio").asText()).isEqualTo("NaN");
        assertThat(value.get("note").isNull()).isTrue();
        assertThat(schema.validate(value)).isEmpty();
    }

    @jakarta.xml.bind.annotation.XmlRootElement(name = "rec")
    @jakarta.xml.bind.annotation.XmlAccessorType(jakarta.xml.bind.annotation.XmlAccessType.FIELD)
    static class NilHolder {
        @jakarta.xml.bind.annotation.XmlElementRef(name = "addr", type = JAXBElement.class, required = false)
        JAXBElement<Addr> addr;
    }

    @jakarta.xml.bind.annotation.XmlAccessorType(jakarta.xml.bind.annotation.XmlAccessType.FIELD)
    @jakarta.xml.bind.annotation.XmlType(name = "Addr")
    static class Addr {
        @jakarta.xml.bind.annotation.XmlElement(required = true)
        String street;
        @jakarta.xml.bind.annotation.XmlAttribute
        String kind;
    }

    @jakarta.xml.bind.annotation.XmlRegistry
    static class NilFactory {
        @jakarta.xml.bind.annotation.XmlElementDecl(name = "addr", scope = NilHolder.class)
        JAXBElement<Addr> createAddr(Addr value) {
            return new JAXBElement<>(new QName("addr"), Addr.class, NilHolder.class, value);
        }
    }

    /**
     * A nil element with attributes is written as the object of its attributes (JAXB keeps them, and the README says
     * so); the schema allowed the element's full form, whose required street that object lacks, or null, so the
     * schema's own validator refused such a message.
     */
    @Test
    void aNilElementWithAttributesIsValidAsTheObjectOfItsAttributes() throws Exception {
        JsonSchema schema = SCHEMAS.getSchema(JsonSchemaWriter.toJson(NilHolder.class));
        jakarta.xml.bind.Unmarshaller u = JAXBContext.newInstance(NilHolder.class, NilFactory.class).createUnmarshaller();
        String xsi = " xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance'";
        List<String> written = new ArrayList<>();
        for (String addr : List.of("<addr kind='home' xsi:nil='true'/>", "<addr xsi:nil='true'/>",
                "<addr kind='home'><street>Main St</street></addr>")) {
            Object rec = u.unmarshal(new StringReader("<rec" + xsi + ">" + addr + "</rec>"));
            JsonNode value = MAPPER.readTree(new JsonRecordEncoder().encode(rec));
            written.add(value.toString());
            assertThat(schema.validate(value)).as(value.toString()).isEmpty();
        }
        assertThat(written).containsExactly("{\"addr\":{\"kind\":\"home\"}}", "{\"addr\":null}",
                "{\"addr\":{\"kind\":\"home\",\"street\":\"Main St\"}}");
        // The nil form holds attributes alone: an element beside them is still the full form's, and must be complete.
        assertThat(schema.validate(MAPPER.readTree("{\"addr\":{\"kind\":\"home\",\"street\":1}}"))).isNotEmpty();
        assertThat(schema.validate(MAPPER.readTree("{\"addr\":{\"kind\":2}}"))).isNotEmpty();
    }

    @Test
    void theSchemaRejectsWhatTheEncoderNeverWrites() throws Exception {
        JsonSchema persons = SCHEMAS.getSchema(JsonSchemaWriter.toJson(Person.class));
        ObjectNode valid = (ObjectNode) MAPPER.readTree(new JsonRecordEncoder().encode(person(new Random(1), 1)));
        assertThat(persons.validate(valid)).isEmpty();

        assertRejected(persons, valid, v -> v.put("id", "1"), "id");
        assertRejected(persons, valid, v -> v.put("salary", "176180.93"), "salary");
        assertRejected(persons, valid, v -> v.put("active", "true"), "active");
        assertRejected(persons, valid, v -> v.put("nickname", "Ann"), "nickname");
        assertRejected(persons, valid, v -> v.remove("firstName"), "firstName");
        assertRejected(persons, valid, v -> v.putArray("phone"), "phone");
        assertRejected(persons, valid, v -> v.putNull("email"), "email");
        assertRejected(persons, valid, v -> v.put("birthDate", "11/06/1959"), "birthDate");
        assertRejected(persons, valid, v -> ((ObjectNode) v.get("phone").get(0)).put("type", "MOBILE"), "type");
        assertRejected(persons, valid, v -> ((ObjectNode) v.get("address")).remove("city"), "city");
        assertRejected(persons, valid, v -> ((ObjectNode) v.get("address")).put("zip", "1"), "zip");
        assertRejected(persons, valid, v -> v.set("phone", v.get("phone").get(0)), "phone");

        JsonSchema kitchens = SCHEMAS.getSchema(JsonSchemaWriter.toJson(Kitchen.class));
        Kitchen k = kitchen(new Random(9), 0);
        fill(k, new Random(9), 1);
        ObjectNode kitchen = (ObjectNode) MAPPER.readTree(new JsonRecordEncoder().encode(k));
        assertThat(kitchens.validate(kitchen)).isEmpty();
        assertRejected(kitchens, kitchen, v -> v.put("level", 300), "level");
        assertRejected(kitchens, kitchen, v -> v.put("ratio", "Infinity"), "ratio");
        assertRejected(kitchens, kitchen, v -> v.put("cooking", "90 minutes"), "cooking");
        assertRejected(kitchens, kitchen, v -> v.put("photo", "not base64!"), "photo");
        assertRejected(kitchens, kitchen, v -> v.put("opens", "9am"), "opens");
        assertRejected(kitchens, kitchen, v -> v.put("grade", "PLAIN2"), "grade");
        assertRejected(kitchens, kitchen, v -> ((ArrayNode) v.get("shelf")).addObject().put("value", "x"), "unit");
        assertRejected(kitchens, kitchen, v -> ((ObjectNode) v.get("annex")).remove("id"), "id");
    }

    @Test
    void aClassJaxbDoesNotBindAsAStructureHasNoSchema() {
        assertThatThrownBy(() -> JsonSchemaWriter.schemaOf(String.class))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("java.lang.String");
    }

    private static void assertRejected(JsonSchema schema, ObjectNode valid, Consumer<ObjectNode> change, String where) {
        ObjectNode broken = valid.deepCopy();
        change.accept(broken);
        Set<ValidationMessage> errors = schema.validate(broken);
        assertThat(errors).as("%s", broken).isNotEmpty();
        assertThat(errors.toString()).as("errors for %s", broken).contains(where);
    }

    private Person person(Random random, int i) {
        Person p = new Person();
        p.setId(random.nextBoolean() ? (long) i : random.nextLong());
        p.setFirstName(pick(random, TEXTS));
        p.setLastName(pick(random, TEXTS));
        p.setEmail("p" + i + "@example.org");
        int zone = random.nextInt(3) == 0 ? random.nextInt(24 * 60 + 1) - 12 * 60 : DatatypeConstants.FIELD_UNDEFINED;
        p.setBirthDate(dates.newXMLGregorianCalendarDate(1 + random.nextInt(9999), 1 + random.nextInt(12),
                1 + random.nextInt(28), zone));
        p.setActive(random.nextBoolean());
        p.setSalary(new BigDecimal(BigInteger.valueOf(random.nextLong()).multiply(BigInteger.TEN.pow(random.nextInt(20))),
                random.nextInt(40) - 10));
        int phones = 1 + random.nextInt(3);
        for (int n = 0; n < phones; n++) {
            Phone ph = new Phone();
            ph.setType(pick(random, PhoneType.values()));
            ph.setValue("+" + random.nextInt(1_000_000_000));
            p.getPhone().add(ph);
        }
        Address a = new Address();
        a.setStreet(pick(random, TEXTS));
        a.setCity(pick(random, TEXTS));
        a.setPostalCode(Integer.toString(random.nextInt(99999)));
        a.setCountry("PT");
        p.setAddress(a);
        return p;
    }

    /** The required values only; {@link #fill} sets the rest. */
    private Kitchen kitchen(Random random, int depth) {
        Kitchen k = new Kitchen();
        k.id = random.nextLong();
        k.name = pick(random, TEXTS);
        k.tag.add(pick(random, TEXTS));
        if (depth > 0) {
            fillSome(k, random, depth);
        }
        return k;
    }

    private void fillSome(Kitchen k, Random random, int depth) {
        Kitchen full = new Kitchen();
        fill(full, random, depth);
        // Copy each optional value over with even odds, so the records vary in what they leave out.
        for (java.lang.reflect.Field f : Kitchen.class.getDeclaredFields()) {
            if (java.lang.reflect.Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()
                    || "name".equals(f.getName()) || "tag".equals(f.getName()) || !random.nextBoolean()) {
                continue;
            }
            try {
                f.setAccessible(true);
                f.set(k, f.get(full));
            } catch (IllegalAccessException e) {
                throw new AssertionError(e);
            }
        }
    }

    private void fill(Kitchen k, Random random, int depth) {
        k.grade = pick(random, Grade.values());
        k.code = random.nextBoolean() ? new QName("urn:x", "dish" + random.nextInt(9)) : new QName("local");
        k.open = random.nextBoolean();
        k.rooms = random.nextInt();
        k.floors = (short) random.nextInt(Short.MAX_VALUE);
        k.level = (byte) (random.nextInt(256) - 128);
        k.visitors = new BigInteger(100, random).negate();
        k.price = new BigDecimal(random.nextInt(1_000_000)).movePointLeft(random.nextInt(6));
        k.ratio = random.nextInt(4) == 0 ? Double.POSITIVE_INFINITY : random.nextGaussian() * 1e300;
        k.weight = random.nextInt(4) == 0 ? Float.NaN : random.nextFloat();
        int zone = random.nextBoolean() ? 0 : DatatypeConstants.FIELD_UNDEFINED;
        k.built = dates.newXMLGregorianCalendarDate(1900 + random.nextInt(200), 1 + random.nextInt(12), 1 + random.nextInt(28), zone);
        k.inspected = dates.newXMLGregorianCalendar(BigInteger.valueOf(2000 + random.nextInt(30)), 1 + random.nextInt(12),
                1 + random.nextInt(28), random.nextInt(24), random.nextInt(60), random.nextInt(60),
                random.nextBoolean() ? new BigDecimal("0.123") : null, random.nextInt(1441) - 720);
        k.opens = dates.newXMLGregorianCalendarTime(random.nextInt(24), random.nextInt(60), random.nextInt(60), zone);
        k.season = dates.newXMLGregorianCalendar("2026");
        k.period = dates.newXMLGregorianCalendar("2026-11" + (random.nextBoolean() ? "Z" : ""));
        k.feast = dates.newXMLGregorianCalendar("--12-25");
        k.month = dates.newXMLGregorianCalendar("--0" + (1 + random.nextInt(9)));
        k.day = dates.newXMLGregorianCalendar("---1" + random.nextInt(10) + "+02:00");
        k.whenever = random.nextBoolean() ? dates.newXMLGregorianCalendar("2026-11-23T10:00:00Z")
                : dates.newXMLGregorianCalendar("--11-23");
        k.cooking = random.nextBoolean() ? dates.newDuration(random.nextLong() / 1000)
                : dates.newDuration("-P1Y2M3DT4H5M6.5S");
        byte[] photo = new byte[random.nextInt(10)];
        random.nextBytes(photo);
        k.photo = photo;
        for (int i = 0; i < random.nextInt(3); i++) {
            k.tag.add(pick(random, TEXTS));
        }
        k.shelf = new ArrayList<>();
        for (int i = 0; i < 1 + random.nextInt(3); i++) {
            k.shelf.add(shelf(random));
        }
        k.note = new JAXBElement<>(new QName(Kitchen.NS, "note"), String.class, pick(random, TEXTS));
        k.potOrCount = new ArrayList<>(List.of(shelf(random), random.nextInt(), shelf(random)));
        k.annex = depth > 0 ? kitchen(random, depth - 1) : kitchen(random, 0);
        k.extra = random.nextBoolean() ? "free text" : 42;
        setRemark(k, "remark " + random.nextInt(9));
    }

    private static void setRemark(Kitchen k, String remark) {
        try {
            java.lang.reflect.Field f = Kitchen.class.getDeclaredField("remark");
            f.setAccessible(true);
            f.set(k, remark);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private static Shelf shelf(Random random) {
        Shelf s = new Shelf();
        s.unit = pick(random, Grade.values());
        s.height = random.nextBoolean() ? random.nextInt(300) : null;
        s.value = pick(random, TEXTS);
        return s;
    }

    @SafeVarargs
    private static <T> T pick(Random random, T... values) {
        return values[random.nextInt(values.length)];
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static List<String> texts(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(n -> values.add(n.asText()));
        return values;
    }
}
