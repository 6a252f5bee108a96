package io.xmlingest.core.split;

/**
 * Finds an attribute default an internal DTD subset declares. A parser that does not process the
 * DTD (xml.doctype=ignore) leaves such an attribute out wherever the file does: the element's
 * value the file meant is lost without a word. Only the subset's own text is read; a declaration
 * that a parameter entity holds is not seen, as no parser under that policy would see it either.
 */
final class DtdAttributeDefaults {
    private DtdAttributeDefaults() {
    }

    /**
     * The first attribute with a default value ({@code "x"} or {@code #FIXED "x"}) that
     * {@code subset} declares, said as {@code attribute currency of <price> ("EUR")}; null when
     * it declares none, or its declarations cannot be read (a parameter entity in them).
     */
    static String first(String subset) {
        if (subset == null) {
            return null;
        }
        int i = 0;
        int n = subset.length();
        while (i < n) {
            if (subset.startsWith("<!--", i)) {
                i = skipPast(subset, i + 4, "-->");
            } else if (subset.startsWith("<?", i)) {
                i = skipPast(subset, i + 2, "?>");
            } else if (subset.startsWith("<!ATTLIST", i)) {
                int end = declarationEnd(subset, i + 9);
                String found = defaultIn(subset.substring(i + 9, Math.min(end, n)));
                if (found != null) {
                    return found;
                }
                i = end + 1;
            } else if (subset.startsWith("<!", i)) {
                i = declarationEnd(subset, i + 2) + 1;
            } else {
                i++;
            }
        }
        return null;
    }

    /** In the body of one ATTLIST declaration (after the keyword), the first default, or null. */
    private static String defaultIn(String body) {
        Tokens t = new Tokens(body);
        String element = t.next();
        if (element == null || element.startsWith("%")) {
            return null;
        }
        while (true) {
            String attribute = t.next();
            String type = t.next();
            if (attribute == null || type == null || attribute.startsWith("%") || type.startsWith("%")) {
                return null;
            }
            if (type.equals("NOTATION")) {
                type = t.next(); // its (a|b) list
            }
            String value = t.next();
            if (value == null || value.startsWith("%")) {
                return null;
            }
            if (value.equals("#FIXED")) {
                value = t.next();
                if (value == null) {
                    return null;
                }
            }
            if (value.startsWith("\"") || value.startsWith("'")) {
                return "attribute " + attribute + " of <" + element + "> (" + value + ")";
            }
        }
    }

    /** Splits a declaration's body into names, (a|b) groups and quoted literals (quotes kept). */
    private static final class Tokens {
        private final String s;
        private int i;

        Tokens(String s) {
            this.s = s;
        }

        String next() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
            if (i >= s.length()) {
                return null;
            }
            int start = i;
            char c = s.charAt(i);
            if (c == '"' || c == '\'') {
                int close = s.indexOf(c, i + 1);
                i = close < 0 ? s.length() : close + 1;
            } else if (c == '(') {
                int close = s.indexOf(')', i);
                i = close < 0 ? s.length() : close + 1;
            } else {
                while (i < s.length() && !Character.isWhitespace(s.charAt(i)) && s.charAt(i) != '('
                        && s.charAt(i) != '"' && s.charAt(i) != '\'') {
                    i++;
                }
            }
            return s.substring(start, i);
        }
    }

    /** The index of the '>' that ends a declaration whose body starts at {@code from}, quotes respected. */
    private static int declarationEnd(String s, int from) {
        char quote = 0;
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == '>') {
                return i;
            }
        }
        return s.length();
    }

    private static int skipPast(String s, int from, String end) {
        int at = s.indexOf(end, from);
        return at < 0 ? s.length() : at + end.length();
    }
}
