package io.xmlingest.core.bind;

/**
 * Whitespace and error text shared by the strict XML Schema parsers. XML Schema knows four
 * whitespace characters (#x20, #x9, #xD, #xA); Java's {@code strip} and {@code trim} know others
 * (U+3000, U+00A0 is not even one of them for strip), so neither is used.
 */
final class XsdText {
    /** Far beyond any real value; keeps a hostile many-megabyte number or date from costing quadratic parse time. */
    private static final int MAX_CHARS = 1000;
    private static final int MAX_QUOTED = 100;

    private XsdText() {
    }

    static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }

    /**
     * whiteSpace=collapse for a value that may hold no inner whitespace: only the ends go. Inner
     * whitespace is left for the lexical check to refuse ({@code "1 2"} is not a number).
     */
    static String trim(String text) {
        if (text == null) {
            throw new IllegalArgumentException("missing value");
        }
        int start = 0;
        int end = text.length();
        while (start < end && isSpace(text.charAt(start))) {
            start++;
        }
        while (end > start && isSpace(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(start, end);
    }

    /**
     * The value of an xs:{@code type} trimmed, once it is no longer than {@link #MAX_CHARS}: every
     * number, date and time goes through here before its lexical check.
     */
    static String shortValue(String text, String type) {
        String t = trim(text);
        if (t.length() > MAX_CHARS) {
            throw new IllegalArgumentException("an xs:" + type + " of " + text.length() + " characters is longer than "
                    + MAX_CHARS + ": " + quote(text));
        }
        return t;
    }

    /** whiteSpace=collapse: runs of whitespace become one space, none at the ends. */
    static String collapse(String text) {
        String t = trim(text);
        StringBuilder out = null;
        boolean afterSpace = false;
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (out == null && isSpace(c) && (c != ' ' || isSpace(t.charAt(i + 1)))) {
                out = new StringBuilder(t.length()).append(t, 0, i);
            }
            if (out != null) {
                if (!isSpace(c)) {
                    out.append(c);
                } else if (!afterSpace) {
                    out.append(' ');
                }
            }
            afterSpace = isSpace(c);
        }
        return out == null ? t : out.toString();
    }

    /** whiteSpace=replace: each tab, line feed and carriage return becomes a space. */
    static String replace(String text) {
        return text.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    }

    /** The reason a value is refused, naming the value (shortened) and the type. */
    static IllegalArgumentException invalid(String text, String type, String rule) {
        return new IllegalArgumentException(quote(text) + " is not an xs:" + type + " (" + rule + ")");
    }

    /**
     * The value in quotes, at most about a hundred characters of it, line breaks and other controls
     * escaped: a rejection is one log line, and the binder keeps only the first line of a message.
     */
    static String quote(String text) {
        if (text == null) {
            return "(none)";
        }
        int end = Math.min(text.length(), MAX_QUOTED);
        if (end < text.length() && Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        StringBuilder out = new StringBuilder(end + 32).append('\'');
        for (int i = 0; i < end; i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (Character.isISOControl(c)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('\'');
        if (end < text.length()) {
            out.append("... (").append(text.length()).append(" characters)");
        }
        return out.toString();
    }
}
