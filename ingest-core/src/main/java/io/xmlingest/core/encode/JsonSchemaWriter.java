package io.xmlingest.core.encode;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import io.xmlingest.core.jaxb.Adapters;
import io.xmlingest.core.jaxb.ElementNames;
import io.xmlingest.core.jaxb.JaxbProperties;
import io.xmlingest.core.jaxb.JaxbProperty;
import io.xmlingest.core.jaxb.References;
import jakarta.xml.bind.JAXBElement;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlElements;
import jakarta.xml.bind.annotation.XmlEnumValue;
import jakarta.xml.bind.annotation.XmlSchemaType;
import jakarta.xml.bind.annotation.XmlSeeAlso;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.datatype.Duration;
import javax.xml.datatype.XMLGregorianCalendar;
import javax.xml.namespace.QName;

/**
 * Writes the JSON Schema (draft 2020-12) of the values {@link JsonRecordEncoder} writes for a JAXB
 * record class. It walks the same {@link JaxbProperties} as the encoder and maps each Java type
 * the way the encoder's branches write it, so a change to one shows up as a failing schema test
 * rather than as consumers rejecting messages.
 */
public final class JsonSchemaWriter {

    public static final String DIALECT = "https://json-schema.org/draft/2020-12/schema";

    // toXMLFormat() spells the time zone as Z or +hh:mm, or leaves it out.
    private static final String ZONE = "(Z|[+-]\\d{2}:\\d{2})?";
    private static final String YEAR = "-?\\d{4,}";
    private static final String TIME = "\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?";
    // Ordered, so the schema printed is the same on every run.
    private static final Map<String, String> CALENDAR_PATTERNS = ordered(
            "date", YEAR + "-\\d{2}-\\d{2}",
            "dateTime", YEAR + "-\\d{2}-\\d{2}T" + TIME,
            "time", TIME,
            "gYear", YEAR,
            "gYearMonth", YEAR + "-\\d{2}",
            "gMonth", "--\\d{2}",
            "gMonthDay", "--\\d{2}-\\d{2}",
            "gDay", "---\\d{2}");
    // Without @XmlSchemaType, JAXB keeps whichever fields the text had, so any of the forms may appear.
    private static final String ANY_CALENDAR = "(" + String.join("|", CALENDAR_PATTERNS.values()) + ")";
    private static final String DURATION = "^-?P(?=\\d|T\\d)(\\d+Y)?(\\d+M)?(\\d+D)?(T(?=\\d)(\\d+H)?(\\d+M)?(\\d+(\\.\\d+)?S)?)?$";
    private static final String QNAME = "^(\\{[^}]*\\})?[^{}]+$";
    // Jackson's default variant: the standard alphabet, padded, no line breaks.
    private static final String BASE64 = "^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$";

    private final Class<?> root;
    private final Map<Class<?>, String> defNames = new LinkedHashMap<>();
    private final Map<String, Object> defs = new LinkedHashMap<>();

    private JsonSchemaWriter(Class<?> root) {
        this.root = root;
    }

    /** The schema as nested maps and lists, in the order it is written. */
    public static Map<String, Object> schemaOf(Class<?> recordClass) {
        if (!JaxbProperties.isBound(recordClass)) {
            throw new IllegalArgumentException(recordClass.getName()
                    + " is not a JAXB-bound class (no @XmlType): the JSON encoder writes no object for it");
        }
        JsonSchemaWriter writer = new JsonSchemaWriter(recordClass);
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("$schema", DIALECT);
        schema.put("$id", "urn:xmlingest:record:" + recordClass.getName());
        schema.put("title", recordClass.getSimpleName());
        schema.put("description", "A message value that xmlingest writes for a record bound to " + recordClass.getName()
                + ": XML local names as property names, XML Schema types kept, repeated elements as arrays, "
                + "missing optional values left out.");
        Set<Class<?>> forms = withDerived(recordClass);
        if (forms.stream().filter(f -> f != recordClass).allMatch(JsonSchemaWriter::isAbstract)) {
            schema.putAll(writer.objectSchema(recordClass));
        } else {
            // xsi:type on the record's own element: the record is one of its type's forms.
            List<Map<String, Object>> anyOf = new ArrayList<>();
            for (Class<?> form : forms) {
                if (form == recordClass && !isAbstract(form)) {
                    anyOf.add(writer.objectSchema(form));
                } else if (form != recordClass && !isAbstract(form)) {
                    anyOf.add(map("$ref", writer.reference(form)));
                }
            }
            schema.put("anyOf", anyOf);
        }
        if (!writer.defs.isEmpty()) {
            schema.put("$defs", writer.defs);
        }
        return schema;
    }

    /** Writes the schema as indented UTF-8 JSON. */
    public static void write(Class<?> recordClass, OutputStream out) throws IOException {
        Map<String, Object> schema = schemaOf(recordClass);
        try (JsonGenerator json = JsonRecordEncoder.JSON.createGenerator(out, JsonEncoding.UTF8)) {
            json.useDefaultPrettyPrinter();
            writeJson(json, schema);
        }
    }

    public static String toJson(Class<?> recordClass) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            write(recordClass, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private Map<String, Object> objectSchema(Class<?> type) {
        return objectSchema(type, false);
    }

    /** @param attributesOnly the form of a nil element: its attributes, which JAXB keeps, and neither elements nor text */
    private Map<String, Object> objectSchema(Class<?> type, boolean attributesOnly) {
        Map<String, Object> properties = new LinkedHashMap<>();
        List<String> required = new ArrayList<>();
        for (JaxbProperty p : JaxbProperties.of(type)) {
            if (attributesOnly && p.kind() != JaxbProperty.Kind.ATTRIBUTE && p.kind() != JaxbProperty.Kind.OTHER_ATTRIBUTES) {
                continue;
            }
            Field f = p.field();
            Map<String, Object> schema = propertySchema(p);
            // The binder rejects a record whose required value is missing or an empty list
            // (RequiredValues), but for an xs:list, whose value may hold no items; a primitive field can
            // never be null, so the encoder always writes it.
            // So is an attribute with a schema default or fixed value: absent, it is written with that value.
            if (p.required() || f.getType().isPrimitive() || p.absent() != null) {
                required.add(p.json());
                if ("array".equals(schema.get("type")) && !JaxbProperties.isXsList(f)) {
                    schema.put("minItems", 1);
                }
            }
            properties.put(p.json(), schema);
        }
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", properties);
        if (!required.isEmpty()) {
            schema.put("required", required);
        }
        schema.put("additionalProperties", false);
        return schema;
    }

    private Map<String, Object> propertySchema(JaxbProperty p) {
        Field f = p.field();
        if (p.kind() == JaxbProperty.Kind.OTHER_ATTRIBUTES) {
            return map("type", "object", "additionalProperties", map("type", "string"),
                    "description", "attributes the schema leaves open (xs:anyAttribute), by name");
        }
        if (References.isReference(p)) {
            return idref(f.getGenericType());
        }
        Type adapted = Adapters.writtenTypeOf(f);
        if (adapted != null) {
            Map<String, Object> item = valueSchema(adapted, null);
            return Collection.class.isAssignableFrom(f.getType()) ? map("type", "array", "items", item) : item;
        }
        if (p.kind() == JaxbProperty.Kind.CHOICE) {
            Map<String, Object> item = namedItems(p.names(), f);
            return Collection.class.isAssignableFrom(f.getType()) ? map("type", "array", "items", item) : item;
        }
        XmlElements choice = f.getAnnotation(XmlElements.class);
        XmlSchemaType schemaType = f.getAnnotation(XmlSchemaType.class);
        String xsdType = schemaType == null ? null : schemaType.name();
        if (xsdType != null && xsdIntegerRange(xsdType) != null
                && !f.isAnnotationPresent(jakarta.xml.bind.annotation.adapters.XmlJavaTypeAdapter.class)) {
            // Strict binding's adapters hold such a value to its XML range; JAXB's own conversion, to the Java type's.
            xsdType = null;
        }
        if (choice != null && Collection.class.isAssignableFrom(f.getType())) {
            // A repeated choice: each item is one of the alternatives' types.
            List<Object> alternatives = new ArrayList<>();
            for (XmlElement e : choice.value()) {
                alternatives.add(e.type() == XmlElement.DEFAULT.class
                        ? valueSchema(ElementNames.itemTypeOf(f), xsdType)
                        : valueSchema(e.type(), xsdType));
            }
            return map("type", "array", "items", map("anyOf", alternatives));
        }
        Map<String, Object> schema = valueSchema(f.getGenericType(), xsdType);
        XmlElement element = f.getAnnotation(XmlElement.class);
        if (element != null && element.nillable() && Collection.class.isAssignableFrom(f.getType())
                && !JaxbProperties.isXsList(f) && schema.get("items") instanceof Map<?, ?> items) {
            // A nil item of a repeated nillable element is null at its place in the list.
            schema.put("items", map("anyOf", List.of(items, map("type", "null"))));
        }
        return schema;
    }

    /**
     * An item of a choice, mixed content or wildcard, as JsonRecordEncoder.writeChoice writes it: an
     * object of one property, the element's name, or a piece of mixed text.
     */
    private Map<String, Object> namedItems(ElementNames names, Field f) {
        List<Object> forms = new ArrayList<>();
        for (ElementNames.Alternative a : names.alternatives()) {
            forms.add(named(a.name(), valueSchema(a.type(), null)));
        }
        Type held = heldType(f);
        for (ElementNames.Declared d : names.declared()) {
            Map<String, Object> value;
            if (d.reference()) {
                value = idref(d.referencesList() ? List.class : Object.class);
            } else if (!d.wrapped()) {
                value = valueSchema(d.type(), null); // an instance of a root element class
            } else if (d.type() != JAXBElement.class) {
                value = jaxbElement(d.type(), valueSchema(d.type(), null)); // an object factory said what it holds
            } else {
                // The field says what the elements hold (xjc writes their common type there).
                value = held instanceof ParameterizedType pt && JAXBElement.class.isAssignableFrom((Class<?>) pt.getRawType())
                        ? valueSchema(held, null) : jaxbElement(map());
            }
            forms.add(named(names.jsonName(d.name()), value));
        }
        if (names.mayHoldNull()) {
            forms.add(map("type", "null", "description", "a nil alternative: JAXB keeps no name for it"));
        }
        if (names.mixed()) {
            forms.add(map("type", "string", "description", "text between the elements (mixed content)"));
        }
        if (names.wildcard()) {
            forms.add(map("type", "object", "minProperties", 1, "maxProperties", 1,
                    "description", "an element the schema leaves open (xs:any): {namespace-uri}name unless in no"
                            + " namespace or the type's own, its value as schema-less mode writes it"));
        }
        return forms.size() == 1 ? castMap(forms.get(0)) : map("anyOf", forms);
    }

    /**
     * An xs:IDREF held as {@code type}, as JsonRecordEncoder.writeReference writes it. Read from the Java type, not
     * the property: an xs:IDREFS is a list within whatever holds it, so an optional nillable one, which xjc may
     * bind as a list of JAXBElements of lists, is written as arrays of IDs inside an array.
     */
    private static Map<String, Object> idref(Type type) {
        if (type instanceof WildcardType w) {
            return idref(w.getUpperBounds()[0]);
        }
        Class<?> raw = type instanceof ParameterizedType p ? (Class<?>) p.getRawType()
                : type instanceof Class<?> c ? c : Object.class;
        Type held = type instanceof ParameterizedType p ? p.getActualTypeArguments()[0] : Object.class;
        if (Collection.class.isAssignableFrom(raw)) {
            return map("type", "array", "items", idref(held));
        }
        if (JAXBElement.class.isAssignableFrom(raw)) {
            return jaxbElement(idref(held)); // nil is written as null
        }
        return map("type", "string", "description", "an xs:IDREF: the xs:ID it names");
    }

    /** What one item of the field is: the field's type, or its items' for a collection. */
    private static Type heldType(Field f) {
        Type t = f.getGenericType();
        if (t instanceof ParameterizedType p && Collection.class.isAssignableFrom((Class<?>) p.getRawType())) {
            Type item = p.getActualTypeArguments()[0];
            return item instanceof WildcardType w ? w.getUpperBounds()[0] : item;
        }
        return t;
    }

    private static Map<String, Object> named(String name, Map<String, Object> value) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put(name, value);
        return map("type", "object", "properties", properties, "required", List.of(name), "additionalProperties", false);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castMap(Object o) {
        return (Map<String, Object>) o;
    }

    /** Mirrors the branches of JsonRecordEncoder.writeValue, in the same order. */
    private Map<String, Object> valueSchema(Type type, String xsdType) {
        if (type instanceof WildcardType w) {
            return valueSchema(w.getUpperBounds()[0], xsdType);
        }
        if (type instanceof TypeVariable<?> v) {
            return valueSchema(v.getBounds()[0], xsdType);
        }
        if (type instanceof GenericArrayType) {
            return map();
        }
        if (type instanceof ParameterizedType p) {
            Class<?> raw = (Class<?>) p.getRawType();
            Type argument = p.getActualTypeArguments()[0];
            if (Collection.class.isAssignableFrom(raw)) {
                return map("type", "array", "items", valueSchema(argument, xsdType));
            }
            if (JAXBElement.class.isAssignableFrom(raw)) {
                return jaxbElement(argument, valueSchema(argument, xsdType));
            }
            return valueSchema(raw, xsdType);
        }
        Class<?> c = (Class<?>) type;
        if (c == String.class) {
            return map("type", "string");
        }
        if (c == Boolean.class || c == boolean.class) {
            return map("type", "boolean");
        }
        boolean integral = c == Long.class || c == long.class || c == Integer.class || c == int.class
                || c == Short.class || c == short.class || c == Byte.class || c == byte.class || c == BigInteger.class;
        Map<String, Object> ranged = integral && xsdType != null ? xsdIntegerRange(xsdType) : null;
        if (ranged != null) {
            return ranged;
        }
        if (c == Long.class || c == long.class) {
            return integer(Long.MIN_VALUE, Long.MAX_VALUE);
        }
        if (c == Integer.class || c == int.class) {
            return integer(Integer.MIN_VALUE, Integer.MAX_VALUE);
        }
        if (c == Short.class || c == short.class) {
            return integer(Short.MIN_VALUE, Short.MAX_VALUE);
        }
        if (c == Byte.class || c == byte.class) {
            return integer(Byte.MIN_VALUE, Byte.MAX_VALUE);
        }
        if (c == BigDecimal.class) {
            return map("type", "number", "description", "an xs:decimal, exact, with its digits and scale: read it "
                    + "as a decimal, not a double, which keeps about 16 digits");
        }
        if (c == BigInteger.class) {
            return map("type", "integer");
        }
        if (c == Double.class || c == double.class || c == Float.class || c == float.class) {
            // JSON has no NaN or infinities, so the encoder writes those in their XML spelling.
            return map("anyOf", List.of(map("type", "number"), map("type", "string", "enum", List.of("NaN", "INF", "-INF"))));
        }
        if (c == Character.class || c == char.class) {
            return integer(0, 65535); // an xs:unsignedShort to JAXB
        }
        if (c == java.util.Date.class || java.util.Calendar.class.isAssignableFrom(c)) {
            return map("type", "string", "pattern", "^" + ANY_CALENDAR + ZONE + "$", "description",
                    "xs:dateTime in its XML lexical form" + (c == java.util.Date.class ? ", in UTC" : ""));
        }
        if (XMLGregorianCalendar.class.isAssignableFrom(c)) {
            String lexical = xsdType == null ? null : CALENDAR_PATTERNS.get(xsdType);
            Map<String, Object> schema = map("type", "string", "pattern",
                    "^" + (lexical == null ? ANY_CALENDAR : lexical) + ZONE + "$");
            if (lexical != null) {
                schema.put("description", "xs:" + xsdType + " in its XML lexical form");
            }
            return schema;
        }
        if (Duration.class.isAssignableFrom(c)) {
            return map("type", "string", "pattern", DURATION, "description", "xs:duration in its XML lexical form");
        }
        if (c == QName.class) {
            return map("type", "string", "pattern", QNAME, "description", "a qualified name as {namespace-uri}local-name");
        }
        if (c == byte[].class) {
            return map("type", "string", "contentEncoding", "base64", "pattern", BASE64);
        }
        if (c.isEnum()) {
            return map("type", "string", "enum", enumValues(c));
        }
        if (Collection.class.isAssignableFrom(c)) {
            return map("type", "array");
        }
        if (JAXBElement.class.isAssignableFrom(c)) {
            return jaxbElement(map());
        }
        if (JaxbProperties.isBound(c)) {
            return structure(c);
        }
        if (c == Object.class || c.isInterface() || java.lang.reflect.Modifier.isAbstract(c.getModifiers())) {
            // xs:anyType, mixed content and the like: the runtime value decides, so nothing can be promised.
            return map();
        }
        return map("type", "string");
    }

    /**
     * A structure's schema. With xsi:type, a record may hold any derived type JAXB knows in place
     * of the declared one, and the encoder writes the derived type's properties; each form stays
     * closed (no additional properties), so the value must match one of them. JAXB, and so this,
     * knows derived types through @XmlSeeAlso, which xjc writes on each base type.
     */
    private Map<String, Object> structure(Class<?> declared) {
        if (declared == root) {
            return map("$ref", "#"); // the root already lists its forms
        }
        List<Map<String, Object>> forms = new ArrayList<>();
        for (Class<?> form : withDerived(declared)) {
            if (!isAbstract(form)) {
                forms.add(map("$ref", reference(form)));
            }
        }
        if (forms.isEmpty()) {
            // An abstract type with no derived type in view: some structure, which one the runtime value decides.
            return map("type", "object");
        }
        return forms.size() == 1 ? forms.get(0) : map("anyOf", forms);
    }

    private static boolean isAbstract(Class<?> c) {
        return java.lang.reflect.Modifier.isAbstract(c.getModifiers());
    }

    /** The type and every bound type derived from it that @XmlSeeAlso leads to, step by step. */
    private static Set<Class<?>> withDerived(Class<?> declared) {
        Set<Class<?>> found = new LinkedHashSet<>();
        Deque<Class<?>> next = new ArrayDeque<>(List.of(declared));
        while (!next.isEmpty()) {
            Class<?> c = next.poll();
            if (!found.add(c)) {
                continue;
            }
            XmlSeeAlso seeAlso = c.getAnnotation(XmlSeeAlso.class);
            if (seeAlso != null) {
                for (Class<?> other : seeAlso.value()) {
                    if (declared.isAssignableFrom(other) && JaxbProperties.isBound(other)) {
                        next.add(other);
                    }
                }
            }
        }
        return found;
    }

    private static Map<String, Object> jaxbElement(Map<String, Object> value) {
        // A nillable element wrapped in a JAXBElement is written as null when xsi:nil="true".
        return map("anyOf", List.of(value, map("type", "null")));
    }

    /**
     * As {@link #jaxbElement(Map)}, for an element that holds {@code held}: a nil one of a structure is written as the
     * object of its attributes when it has any (JAXB keeps them), which its full form, with required elements, refuses.
     */
    private Map<String, Object> jaxbElement(Type held, Map<String, Object> value) {
        Type t = held instanceof WildcardType w ? w.getUpperBounds()[0] : held;
        if (!(t instanceof Class<?> declared) || !JaxbProperties.isBound(declared)) {
            return jaxbElement(value);
        }
        List<Object> forms = new ArrayList<>(List.of(value, map("type", "null")));
        for (Class<?> form : withDerived(declared)) {
            if (!isAbstract(form)) {
                Map<String, Object> nil = objectSchema(form, true);
                nil.put("description", "a nil element (xsi:nil=\"true\") of " + form.getSimpleName()
                        + " with attributes: those alone");
                forms.add(nil);
            }
        }
        return map("anyOf", forms);
    }

    /**
     * The range of an integer type that xjc binds to a wider Java type (an xs:unsignedByte to a
     * Short, an xs:positiveInteger to a BigInteger): the strict binding holds values to the XML
     * type's range, so the schema can say it. Null for any other type.
     */
    private static Map<String, Object> xsdIntegerRange(String xsdType) {
        return switch (xsdType) {
            case "unsignedByte" -> integer(0, 255);
            case "unsignedShort" -> integer(0, 65_535);
            case "unsignedInt" -> integer(0, 4_294_967_295L);
            case "unsignedLong" -> map("type", "integer", "minimum", 0, "maximum", new BigInteger("18446744073709551615"));
            case "nonNegativeInteger" -> map("type", "integer", "minimum", 0);
            case "positiveInteger" -> map("type", "integer", "minimum", 1);
            case "nonPositiveInteger" -> map("type", "integer", "maximum", 0);
            case "negativeInteger" -> map("type", "integer", "maximum", -1);
            default -> null;
        };
    }

    private static Map<String, Object> integer(long min, long max) {
        return map("type", "integer", "minimum", min, "maximum", max);
    }

    private String reference(Class<?> c) {
        if (c == root) {
            return "#";
        }
        String name = defNames.get(c);
        if (name == null) {
            name = defs.containsKey(c.getSimpleName()) ? c.getName() : c.getSimpleName();
            defNames.put(c, name);
            // Put the name first, so a type that refers back to itself finds it instead of recursing.
            defs.put(name, null);
            Map<String, Object> schema = map("title", c.getSimpleName());
            schema.putAll(objectSchema(c));
            defs.put(name, schema);
        }
        return "#/$defs/" + name;
    }

    private static List<String> enumValues(Class<?> type) {
        List<String> values = new ArrayList<>();
        for (Object constant : type.getEnumConstants()) {
            String name = ((Enum<?>) constant).name();
            try {
                XmlEnumValue annotated = type.getField(name).getAnnotation(XmlEnumValue.class);
                values.add(annotated == null ? name : annotated.value());
            } catch (NoSuchFieldException e) {
                values.add(name);
            }
        }
        return values;
    }

    private static Map<String, String> ordered(String... keysAndValues) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return java.util.Collections.unmodifiableMap(m);
    }

    private static Map<String, Object> map(Object... keysAndValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return m;
    }

    private static void writeJson(JsonGenerator json, Object value) throws IOException {
        if (value instanceof Map<?, ?> m) {
            json.writeStartObject();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                json.writeFieldName((String) e.getKey());
                writeJson(json, e.getValue());
            }
            json.writeEndObject();
        } else if (value instanceof List<?> items) {
            json.writeStartArray();
            for (Object item : items) {
                writeJson(json, item);
            }
            json.writeEndArray();
        } else if (value instanceof String s) {
            json.writeString(s);
        } else if (value instanceof Long || value instanceof Integer) {
            json.writeNumber(((Number) value).longValue());
        } else if (value instanceof BigInteger i) {
            json.writeNumber(i);
        } else if (value instanceof Boolean b) {
            json.writeBoolean(b);
        } else {
            throw new IllegalStateException("unexpected schema value " + value);
        }
    }
}
