package io.xmlingest.core.bind;

import static io.xmlingest.core.bind.XsdText.invalid;
import static io.xmlingest.core.bind.XsdText.shortValue;
import static io.xmlingest.core.bind.XsdText.trim;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.regex.Pattern;

/**
 * Strict parsers for XML Schema's booleans and numbers, used by generated models in place of
 * JAXB's lenient defaults: JAXB skips characters it does not expect ({@code "1 2"} is 12), wraps
 * numbers too large for the Java type ({@code 99999999999} as an xs:int), turns some invalid
 * booleans into false, and xjc binds missing required values as primitive zeros. Invalid text
 * throws here, and JAXB reports that as an error for the record. Only the lexical forms XML
 * Schema allows pass: ASCII digits (Java's own parsers take any Unicode digit), one optional sign,
 * XML whitespace (#x20 #x9 #xD #xA) at the ends only.
 *
 * <p>The bindings that route xjc's types here are {@code strict.xjb} next to this class.
 */
public final class XsdLexical {
    private XsdLexical() {
    }

    /** An xs:integer type: its name and value range, null for no bound. */
    private record IntegerType(String name, BigInteger min, BigInteger max, String rule) {
        IntegerType(String name, long min, long max) {
            this(name, BigInteger.valueOf(min), BigInteger.valueOf(max), "an integer from " + min + " to " + max);
        }
    }

    private static final BigInteger UNSIGNED_LONG_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    private static final IntegerType BYTE = new IntegerType("byte", Byte.MIN_VALUE, Byte.MAX_VALUE);
    private static final IntegerType SHORT = new IntegerType("short", Short.MIN_VALUE, Short.MAX_VALUE);
    private static final IntegerType INT = new IntegerType("int", Integer.MIN_VALUE, Integer.MAX_VALUE);
    private static final IntegerType LONG = new IntegerType("long", Long.MIN_VALUE, Long.MAX_VALUE);
    private static final IntegerType UNSIGNED_BYTE = new IntegerType("unsignedByte", 0, 255);
    private static final IntegerType UNSIGNED_SHORT = new IntegerType("unsignedShort", 0, 65535);
    private static final IntegerType UNSIGNED_INT = new IntegerType("unsignedInt", 0, 4294967295L);
    private static final IntegerType UNSIGNED_LONG = new IntegerType("unsignedLong", BigInteger.ZERO,
            UNSIGNED_LONG_MAX, "an integer from 0 to " + UNSIGNED_LONG_MAX);
    private static final IntegerType INTEGER = new IntegerType("integer", null, null, "an integer");
    private static final IntegerType NON_NEGATIVE = new IntegerType("nonNegativeInteger", BigInteger.ZERO, null,
            "an integer of 0 or more");
    private static final IntegerType POSITIVE = new IntegerType("positiveInteger", BigInteger.ONE, null,
            "an integer of 1 or more");
    private static final IntegerType NON_POSITIVE = new IntegerType("nonPositiveInteger", null, BigInteger.ZERO,
            "an integer of 0 or less");
    private static final IntegerType NEGATIVE = new IntegerType("negativeInteger", null, BigInteger.ONE.negate(),
            "an integer of -1 or less");

    public static Boolean parseBoolean(String text) {
        String t = trim(text);
        return switch (t) {
            case "true", "1" -> Boolean.TRUE;
            case "false", "0" -> Boolean.FALSE;
            default -> throw invalid(text, "boolean", "true, false, 1 or 0");
        };
    }

    /**
     * An xs:anyURI as XML Schema reads it: its whitespace collapsed (each run of XML whitespace one
     * space, none at the ends). JAXB keeps the text as written, so a value on a line of its own was
     * published with its line ends and indentation.
     */
    public static String parseAnyUri(String text) {
        return text == null ? null : XsdText.collapse(text);
    }

    /** Booleans and integers of every size print as Java writes them, which XML Schema reads. */
    public static String print(Object value) {
        return value == null ? null : value.toString();
    }

    public static Byte parseByte(String text) {
        return (byte) bounded(text, BYTE);
    }

    public static Short parseShort(String text) {
        return (short) bounded(text, SHORT);
    }

    public static Integer parseInt(String text) {
        return (int) bounded(text, INT);
    }

    public static Long parseLong(String text) {
        return bounded(text, LONG);
    }

    public static Short parseUnsignedByte(String text) {
        return (short) bounded(text, UNSIGNED_BYTE);
    }

    public static Integer parseUnsignedShort(String text) {
        return (int) bounded(text, UNSIGNED_SHORT);
    }

    public static Long parseUnsignedInt(String text) {
        return bounded(text, UNSIGNED_INT);
    }

    public static BigInteger parseUnsignedLong(String text) {
        return integer(text, UNSIGNED_LONG);
    }

    public static BigInteger parseInteger(String text) {
        return integer(text, INTEGER);
    }

    public static BigInteger parseNonNegativeInteger(String text) {
        return integer(text, NON_NEGATIVE);
    }

    public static BigInteger parsePositiveInteger(String text) {
        return integer(text, POSITIVE);
    }

    public static BigInteger parseNonPositiveInteger(String text) {
        return integer(text, NON_POSITIVE);
    }

    public static BigInteger parseNegativeInteger(String text) {
        return integer(text, NEGATIVE);
    }

    /** A type whose values fit a long; up to 18 significant digits, the common case, without a BigInteger. */
    private static long bounded(String text, IntegerType type) {
        String t = integerText(text, type);
        int first = t.charAt(0) == '+' || t.charAt(0) == '-' ? 1 : 0;
        while (first < t.length() - 1 && t.charAt(first) == '0') {
            first++;
        }
        if (t.length() - first <= 18) {
            long value = 0;
            for (int i = first; i < t.length(); i++) {
                value = value * 10 + (t.charAt(i) - '0');
            }
            value = t.charAt(0) == '-' ? -value : value;
            if (value < type.min().longValue() || value > type.max().longValue()) {
                throw invalid(text, type.name(), type.rule());
            }
            return value;
        }
        return integer(text, type).longValue();
    }

    private static BigInteger integer(String text, IntegerType type) {
        String t = integerText(text, type);
        BigInteger value = new BigInteger(t.charAt(0) == '+' ? t.substring(1) : t);
        if ((type.min() != null && value.compareTo(type.min()) < 0)
                || (type.max() != null && value.compareTo(type.max()) > 0)) {
            throw invalid(text, type.name(), type.rule());
        }
        return value;
    }

    /** The text, trimmed, once it is an optional sign and one or more ASCII digits. */
    private static String integerText(String text, IntegerType type) {
        String t = shortValue(text, type.name());
        int start = !t.isEmpty() && (t.charAt(0) == '+' || t.charAt(0) == '-') ? 1 : 0;
        boolean digits = t.length() > start;
        for (int i = start; i < t.length() && digits; i++) {
            digits = t.charAt(i) >= '0' && t.charAt(i) <= '9';
        }
        if (!digits) {
            throw invalid(text, type.name(), type.rule());
        }
        return t;
    }

    private static final Pattern DECIMAL = Pattern.compile("[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)");

    /** xs:decimal has no exponent; JAXB's default accepts "1E999999999", which no consumer can print. */
    public static BigDecimal parseDecimal(String text) {
        String t = shortValue(text, "decimal");
        if (!DECIMAL.matcher(t).matches()) {
            throw invalid(text, "decimal", "digits with an optional sign and decimal point, no exponent");
        }
        return new BigDecimal(t.startsWith("+") ? t.substring(1) : t);
    }

    public static String printDecimal(BigDecimal value) {
        return value == null ? null : value.toPlainString();
    }

    private static final Pattern FLOATING = Pattern.compile("[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]+)?");
    private static final String FLOATING_RULE = "a decimal number with an optional exponent, INF, -INF or NaN";

    /**
     * Java's own parser also takes hexadecimal, "Infinity", and 'f' or 'd' suffixes, none of them
     * XML Schema. A finite number too large for the type would become an infinity the text never
     * said, so it is refused; one too small to tell from zero is rounded, as XML Schema rounds.
     */
    public static Double parseDouble(String text) {
        String t = floatingText(text, "double");
        double value = switch (t) {
            case "INF" -> Double.POSITIVE_INFINITY;
            case "-INF" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> Double.parseDouble(t);
        };
        if (Double.isInfinite(value) && !t.endsWith("INF")) {
            throw invalid(text, "double", "beyond the largest xs:double; infinity is written INF");
        }
        return value;
    }

    public static Float parseFloat(String text) {
        String t = floatingText(text, "float");
        float value = switch (t) {
            case "INF" -> Float.POSITIVE_INFINITY;
            case "-INF" -> Float.NEGATIVE_INFINITY;
            case "NaN" -> Float.NaN;
            default -> Float.parseFloat(t);
        };
        if (Float.isInfinite(value) && !t.endsWith("INF")) {
            throw invalid(text, "float", "beyond the largest xs:float; infinity is written INF");
        }
        return value;
    }

    private static String floatingText(String text, String type) {
        String t = shortValue(text, type);
        if (!t.equals("INF") && !t.equals("-INF") && !t.equals("NaN") && !FLOATING.matcher(t).matches()) {
            throw invalid(text, type, FLOATING_RULE);
        }
        return t;
    }

    public static String printDouble(Double value) {
        if (value == null || Double.isNaN(value) || Double.isInfinite(value)) {
            return special(value);
        }
        return value.toString();
    }

    public static String printFloat(Float value) {
        if (value == null || Float.isNaN(value) || Float.isInfinite(value)) {
            return special(value);
        }
        return value.toString();
    }

    private static String special(Number value) {
        if (value == null) {
            return null;
        }
        double d = value.doubleValue();
        return Double.isNaN(d) ? "NaN" : d > 0 ? "INF" : "-INF";
    }
}
