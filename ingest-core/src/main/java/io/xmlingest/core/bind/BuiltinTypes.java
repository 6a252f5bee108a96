package io.xmlingest.core.bind;

import jakarta.xml.bind.annotation.XmlSchemaType;
import jakarta.xml.bind.annotation.adapters.XmlJavaTypeAdapter;
import jakarta.xml.bind.annotation.adapters.XmlJavaTypeAdapters;
import java.lang.reflect.Field;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Map;
import java.util.Set;
import javax.xml.XMLConstants;
import javax.xml.datatype.Duration;
import javax.xml.datatype.XMLGregorianCalendar;
import javax.xml.namespace.QName;

/**
 * XML Schema's built-in simple types and how they derive from one another, to judge an
 * {@code xsi:type} on an element bound to a plain value, which JAXB ignores: the file says the
 * value is of a type, and the message would carry it as the declared one. Without the schema the
 * declared type is known only as far as the model tells (its {@code @XmlSchemaType}, else its Java
 * type), so a type is refused only when it can be no kind of that: never a valid file's.
 */
final class BuiltinTypes {
    private BuiltinTypes() {
    }

    /** Each built-in's base (XML Schema 1.1's included); anySimpleType is the root. */
    private static final Map<String, String> BASE = Map.ofEntries(
            Map.entry("string", "anySimpleType"), Map.entry("normalizedString", "string"),
            Map.entry("token", "normalizedString"), Map.entry("language", "token"), Map.entry("NMTOKEN", "token"),
            Map.entry("Name", "token"), Map.entry("NCName", "Name"), Map.entry("ID", "NCName"),
            Map.entry("IDREF", "NCName"), Map.entry("ENTITY", "NCName"),
            Map.entry("decimal", "anySimpleType"), Map.entry("integer", "decimal"),
            Map.entry("nonPositiveInteger", "integer"), Map.entry("negativeInteger", "nonPositiveInteger"),
            Map.entry("long", "integer"), Map.entry("int", "long"), Map.entry("short", "int"), Map.entry("byte", "short"),
            Map.entry("nonNegativeInteger", "integer"), Map.entry("positiveInteger", "nonNegativeInteger"),
            Map.entry("unsignedLong", "nonNegativeInteger"), Map.entry("unsignedInt", "unsignedLong"),
            Map.entry("unsignedShort", "unsignedInt"), Map.entry("unsignedByte", "unsignedShort"),
            Map.entry("boolean", "anySimpleType"), Map.entry("float", "anySimpleType"), Map.entry("double", "anySimpleType"),
            Map.entry("duration", "anySimpleType"), Map.entry("dayTimeDuration", "duration"),
            Map.entry("yearMonthDuration", "duration"), Map.entry("dateTime", "anySimpleType"),
            Map.entry("dateTimeStamp", "dateTime"), Map.entry("time", "anySimpleType"), Map.entry("date", "anySimpleType"),
            Map.entry("gYearMonth", "anySimpleType"), Map.entry("gYear", "anySimpleType"),
            Map.entry("gMonthDay", "anySimpleType"), Map.entry("gDay", "anySimpleType"), Map.entry("gMonth", "anySimpleType"),
            Map.entry("hexBinary", "anySimpleType"), Map.entry("base64Binary", "anySimpleType"),
            Map.entry("anyURI", "anySimpleType"), Map.entry("QName", "anySimpleType"), Map.entry("NOTATION", "anySimpleType"),
            Map.entry("NMTOKENS", "anySimpleType"), Map.entry("IDREFS", "anySimpleType"),
            Map.entry("ENTITIES", "anySimpleType"), Map.entry("anySimpleType", "anyType"));

    /**
     * The built-in types an element bound to this value may be declared as, at most: one of them
     * is, or is the base of, its declared type. Empty for an enumeration, which is always the
     * model's own type; null when the model does not tell (a type of an adapter's, say).
     */
    static Set<String> bases(Field field, Class<?> value) {
        XmlSchemaType declared = field == null ? null : field.getAnnotation(XmlSchemaType.class);
        if (declared != null && XMLConstants.W3C_XML_SCHEMA_NS_URI.equals(declared.namespace())
                && BASE.containsKey(declared.name())) {
            return Set.of(declared.name());
        }
        if (value == null || adapted(field)) {
            return null; // an adapter's XML side may be any type
        }
        if (value.isEnum()) {
            return Set.of();
        }
        if (value == String.class) {
            return Set.of("string", "anyURI");
        }
        if (value == BigDecimal.class) {
            return Set.of("decimal");
        }
        if (value == BigInteger.class) {
            return Set.of("integer");
        }
        if (value == Long.class || value == long.class) {
            return Set.of("long", "unsignedInt");
        }
        if (value == Integer.class || value == int.class) {
            return Set.of("int", "unsignedShort");
        }
        if (value == Short.class || value == short.class) {
            return Set.of("short", "unsignedByte");
        }
        if (value == Byte.class || value == byte.class) {
            return Set.of("byte");
        }
        if (value == Boolean.class || value == boolean.class) {
            return Set.of("boolean");
        }
        if (value == Float.class || value == float.class) {
            return Set.of("float");
        }
        if (value == Double.class || value == double.class) {
            return Set.of("double");
        }
        if (XMLGregorianCalendar.class.isAssignableFrom(value)) {
            return Set.of("dateTime", "time", "date", "gYearMonth", "gYear", "gMonthDay", "gDay", "gMonth");
        }
        if (Duration.class.isAssignableFrom(value)) {
            return Set.of("duration");
        }
        if (value == byte[].class) {
            return Set.of("base64Binary", "hexBinary");
        }
        if (value == QName.class) {
            return Set.of("QName", "NOTATION");
        }
        return null;
    }

    private static boolean adapted(Field field) {
        if (field == null) {
            return false;
        }
        Package p = field.getDeclaringClass().getPackage();
        return field.isAnnotationPresent(XmlJavaTypeAdapter.class)
                || field.getDeclaringClass().isAnnotationPresent(XmlJavaTypeAdapter.class)
                || (p != null && (p.isAnnotationPresent(XmlJavaTypeAdapter.class)
                        || p.isAnnotationPresent(XmlJavaTypeAdapters.class)));
    }

    /** Whether built-in {@code type} (a local name in XML Schema's namespace) is, or derives from, one of {@code bases}. */
    static boolean isKindOf(String type, Set<String> bases) {
        if (!BASE.containsKey(type)) {
            return false; // anyType, or no type XML Schema has
        }
        for (String t = type; t != null; t = BASE.get(t)) {
            if (bases.contains(t)) {
                return true;
            }
        }
        return false;
    }

    /** The bases as a message names them. */
    static String describe(Set<String> bases) {
        if (bases.isEmpty()) {
            return "an enumeration of the model's own";
        }
        return "a kind of " + String.join(" or ", bases.stream().sorted().map(b -> "xs:" + b).toList());
    }
    /** Whether {@code name} is a built-in simple type of XML Schema's (anySimpleType included, anyType not). */
    static boolean isSimpleType(String name) {
        return BASE.containsKey(name);
    }

    /** The strict parser of each built-in type whose text JAXB would otherwise convert leniently. */
    private static final Map<String, java.util.function.Function<String, ?>> PARSERS = Map.ofEntries(
            Map.entry("boolean", XsdLexical::parseBoolean), Map.entry("byte", XsdLexical::parseByte),
            Map.entry("short", XsdLexical::parseShort), Map.entry("int", XsdLexical::parseInt),
            Map.entry("long", XsdLexical::parseLong), Map.entry("unsignedByte", XsdLexical::parseUnsignedByte),
            Map.entry("unsignedShort", XsdLexical::parseUnsignedShort),
            Map.entry("unsignedInt", XsdLexical::parseUnsignedInt), Map.entry("unsignedLong", XsdLexical::parseUnsignedLong),
            Map.entry("integer", XsdLexical::parseInteger), Map.entry("nonNegativeInteger", XsdLexical::parseNonNegativeInteger),
            Map.entry("positiveInteger", XsdLexical::parsePositiveInteger),
            Map.entry("nonPositiveInteger", XsdLexical::parseNonPositiveInteger),
            Map.entry("negativeInteger", XsdLexical::parseNegativeInteger), Map.entry("decimal", XsdLexical::parseDecimal),
            Map.entry("double", XsdLexical::parseDouble), Map.entry("float", XsdLexical::parseFloat),
            Map.entry("date", XsdCalendars::parseDate), Map.entry("dateTime", XsdCalendars::parseDateTime),
            Map.entry("time", XsdCalendars::parseTime), Map.entry("gYear", XsdCalendars::parseGYear),
            Map.entry("gYearMonth", XsdCalendars::parseGYearMonth), Map.entry("gMonth", XsdCalendars::parseGMonth),
            Map.entry("gMonthDay", XsdCalendars::parseGMonthDay), Map.entry("gDay", XsdCalendars::parseGDay),
            Map.entry("duration", XsdCalendars::parseDuration), Map.entry("base64Binary", XsdBinary::parseBase64Binary),
            Map.entry("hexBinary", XsdBinary::parseHexBinary));

    /**
     * Why {@code text} is not a value of the built-in type {@code name}, or null when it is (or when
     * the type's text is not checked here: strings and names, which JAXB keeps as written).
     */
    static String notAValue(String name, String text) {
        java.util.function.Function<String, ?> parser = PARSERS.get(name);
        if (parser == null) {
            return null;
        }
        try {
            parser.apply(text);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }
}
