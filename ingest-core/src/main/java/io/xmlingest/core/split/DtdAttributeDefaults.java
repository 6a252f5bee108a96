package io.xmlingest.core.split;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.xml.stream.XMLStreamReader;

/**
 * The attribute defaults an internal DTD subset declares. A parser that does not process the DTD
 * (xml.doctype=ignore) leaves such an attribute out wherever the file does, so a record element
 * written without it would be published without the value the file means. Only elements in records
 * matter: a default on the root, or on an attribute every element writes, loses nothing. Only the
 * subset's own text is read; a declaration that a parameter entity holds is not seen, as no parser
 * under that policy would see it either.
 */
final class DtdAttributeDefaults {

    private record Default(String attribute, String value) {
    }

    /** By the element's name as the DTD writes it (with its prefix, if any). */
    private final Map<String, List<Default>> byElement;

    private DtdAttributeDefaults(Map<String, List<Default>> byElement) {
        this.byElement = byElement;
    }

    /** The defaults {@code subset} declares ({@code "x"} or {@code #FIXED "x"}); null when it declares none. */
    static DtdAttributeDefaults of(String subset) {
        if (subset == null) {
            return null;
        }
        Map<String, List<Default>> found = new HashMap<>();
        int i = 0;
        int n = subset.length();
        while (i < n) {
            if (subset.startsWith("<!--", i)) {
                i = skipPast(subset, i + 4, "-->");
            } else if (subset.startsWith("<?", i)) {
                i = skipPast(subset, i + 2, "?>");
            } else if (subset.startsWith("<!ATTLIST", i)) {
                int end = declarationEnd(subset, i + 9);
                collect(subset.substring(i + 9, Math.min(end, n)), found);
                i = end + 1;
            } else if (subset.startsWith("<!", i)) {
                i = declarationEnd(subset, i + 2) + 1;
            } else {
                i++;
            }
        }
        return found.isEmpty() ? null : new DtdAttributeDefaults(found);
    }

    /**
     * The first attribute with a default that the start tag at {@code cursor} leaves out, said as
     * {@code attribute currency of <price>, to which the DOCTYPE's internal subset gives the default "EUR"};
     * null when it writes every one.
     */
    String missingAt(XMLStreamReader cursor) {
        String element = rawName(cursor.getPrefix(), cursor.getLocalName());
        List<Default> defaults = byElement.get(element);
        if (defaults == null) {
            return null;
        }
        for (Default d : defaults) {
            if (!written(cursor, d.attribute())) {
                return "attribute " + d.attribute() + " of <" + element
                        + ">, to which the DOCTYPE's internal subset gives the default " + d.value();
            }
        }
        return null;
    }

    /** True when a default declares a namespace (an xmlns or xmlns:p attribute), which decides elements' names. */
    boolean declaresNamespace() {
        return byElement.values().stream().flatMap(List::stream).anyMatch(d -> isNamespace(d.attribute()));
    }

    private static boolean written(XMLStreamReader cursor, String attribute) {
        for (int a = 0; a < cursor.getAttributeCount(); a++) {
            if (attribute.equals(rawName(cursor.getAttributePrefix(a), cursor.getAttributeLocalName(a)))) {
                return true;
            }
        }
        // A namespace declaration is no attribute to the cursor, but a DTD may give one a default.
        if (isNamespace(attribute)) {
            String prefix = attribute.equals("xmlns") ? "" : attribute.substring(6);
            for (int d = 0; d < cursor.getNamespaceCount(); d++) {
                String declared = cursor.getNamespacePrefix(d);
                if (prefix.equals(declared == null ? "" : declared)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean isNamespace(String attribute) {
        return attribute.equals("xmlns") || attribute.startsWith("xmlns:");
    }

    private static String rawName(String prefix, String local) {
        return prefix == null || prefix.isEmpty() ? local : prefix + ":" + local;
    }

    /** In the body of one ATTLIST declaration (after the keyword), its defaults, into {@code found}. */
    private static void collect(String body, Map<String, List<Default>> found) {
        Tokens t = new Tokens(body);
        String element = t.next();
        if (element == null || element.startsWith("%")) {
            return;
        }
        while (true) {
            String attribute = t.next();
            String type = t.next();
            if (attribute == null || type == null || attribute.startsWith("%") || type.startsWith("%")) {
                return;
            }
            if (type.equals("NOTATION")) {
                type = t.next(); // its (a|b) list
            }
            String value = t.next();
            if (value == null || value.startsWith("%")) {
                return;
            }
            if (value.equals("#FIXED")) {
                value = t.next();
                if (value == null) {
                    return;
                }
            }
            if (value.startsWith("\"") || value.startsWith("'")) {
                found.computeIfAbsent(element, e -> new ArrayList<>()).add(new Default(attribute, value));
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
