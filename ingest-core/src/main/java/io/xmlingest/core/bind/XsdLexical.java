package io.xmlingest.core.bind;

/**
 * Strict parsers for XML Schema's lexical forms, used by generated models in place of JAXB's
 * lenient defaults (which turn some invalid booleans into false and bind missing values as
 * primitive zeros). Invalid text throws, and JAXB reports that as an error for the record.
 */
public final class XsdLexical {
    private XsdLexical() {
    }

    public static Boolean parseBoolean(String text) {
        String t = collapse(text);
        return switch (t) {
            case "true", "1" -> Boolean.TRUE;
            case "false", "0" -> Boolean.FALSE;
            default -> throw new IllegalArgumentException("'" + text + "' is not an xs:boolean (true, false, 1 or 0)");
        };
    }

    public static String printBoolean(Boolean value) {
        return value == null ? null : value.toString();
    }

    public static Long parseLong(String text) {
        String t = collapse(text);
        try {
            return Long.valueOf(t.startsWith("+") ? t.substring(1) : t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not an xs:long");
        }
    }

    public static String printLong(Long value) {
        return value == null ? null : value.toString();
    }

    private static final java.util.regex.Pattern DECIMAL = java.util.regex.Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)");
    /** Far beyond any real amount; keeps a hostile 16-million-digit number from costing quadratic parse time. */
    private static final int MAX_DECIMAL_CHARS = 1000;

    /** xs:decimal has no exponent; JAXB's default accepts "1E999999999", which no consumer can print. */
    public static java.math.BigDecimal parseDecimal(String text) {
        String t = collapse(text);
        if (t.length() > MAX_DECIMAL_CHARS) {
            throw new IllegalArgumentException("an xs:decimal of " + t.length() + " characters is longer than "
                    + MAX_DECIMAL_CHARS);
        }
        if (!DECIMAL.matcher(t).matches()) {
            throw new IllegalArgumentException("'" + text + "' is not an xs:decimal (digits with an optional sign "
                    + "and decimal point, no exponent)");
        }
        return new java.math.BigDecimal(t.startsWith("+") ? t.substring(1) : t);
    }

    public static String printDecimal(java.math.BigDecimal value) {
        return value == null ? null : value.toPlainString();
    }

    private static String collapse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("missing value");
        }
        return text.strip();
    }
}
