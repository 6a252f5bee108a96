package io.xmlingest.core.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.xml.namespace.QName;

/** How a setting's text is parsed and printed. Parsing failures carry a reason, never a stack of parser internals. */
public interface SettingType<T> {

    String name();

    /** Parses trimmed text; throws {@link IllegalArgumentException} with a human reason. */
    T parse(String text);

    default String format(T value) {
        return String.valueOf(value);
    }

    /**
     * The value nearest to text this type refused as too large or too small, or null when it was
     * refused for its form: a setting holds it to its own range, which says more than the type's.
     */
    default T nearest(String text) {
        return null;
    }

    SettingType<String> STRING = new SettingType<>() {
        public String name() { return "string"; }
        public String parse(String text) { return text; }
    };

    SettingType<Integer> INT = new SettingType<>() {
        public String name() { return "int"; }
        public Integer parse(String text) {
            try {
                return Integer.valueOf(text.replace("_", ""));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(wholeButTooLarge(text)
                        ? "out of range (" + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE + ")"
                        : "not a whole number");
            }
        }
        public Integer nearest(String text) {
            return wholeButTooLarge(text) ? (text.trim().startsWith("-") ? Integer.MIN_VALUE : Integer.MAX_VALUE) : null;
        }
    };

    SettingType<Long> LONG = new SettingType<>() {
        public String name() { return "long"; }
        public Long parse(String text) {
            try {
                return Long.valueOf(text.replace("_", ""));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(wholeButTooLarge(text)
                        ? "out of range (" + Long.MIN_VALUE + " to " + Long.MAX_VALUE + ")"
                        : "not a whole number");
            }
        }
        public Long nearest(String text) {
            return wholeButTooLarge(text) ? (text.trim().startsWith("-") ? Long.MIN_VALUE : Long.MAX_VALUE) : null;
        }
    };

    SettingType<Boolean> BOOLEAN = new SettingType<>() {
        public String name() { return "boolean"; }
        public Boolean parse(String text) {
            return switch (text.toLowerCase(Locale.ROOT)) {
                case "true" -> true;
                case "false" -> false;
                default -> throw new IllegalArgumentException("must be true or false");
            };
        }
    };

    /** A byte count: a plain number or one with a KiB, MiB, GiB or TiB suffix. */
    SettingType<Long> BYTES = new SettingType<>() {
        public String name() { return "bytes"; }
        public Long parse(String text) {
            String t = text.replace("_", "").trim();
            long unit = 1;
            for (String[] suffix : new String[][] {{"TiB", "1099511627776"}, {"GiB", "1073741824"}, {"MiB", "1048576"},
                    {"KiB", "1024"}}) {
                if (t.endsWith(suffix[0])) {
                    unit = Long.parseLong(suffix[1]);
                    t = t.substring(0, t.length() - 3).trim();
                    break;
                }
            }
            try {
                return Math.multiplyExact(Long.parseLong(t), unit);
            } catch (NumberFormatException | ArithmeticException e) {
                throw new IllegalArgumentException(e instanceof ArithmeticException || wholeButTooLarge(t)
                        ? "out of range (at most " + Long.MAX_VALUE + " bytes)"
                        : "not a byte count (examples: 1048576, 512KiB, 4MiB, 1GiB)");
            }
        }
        public Long nearest(String text) {
            String t = text.replace("_", "").trim();
            return t.startsWith("-") ? null : t.matches("[+]?[0-9]+(\\s*[KMGT]iB)?") ? Long.MAX_VALUE : null;
        }
        public String format(Long value) {
            if (value != 0 && value % 1099511627776L == 0) return value / 1099511627776L + "TiB";
            if (value != 0 && value % 1073741824L == 0) return value / 1073741824L + "GiB";
            if (value != 0 && value % 1048576L == 0) return value / 1048576L + "MiB";
            if (value != 0 && value % 1024L == 0) return value / 1024L + "KiB";
            return String.valueOf(value);
        }
    };

    /** A namespace-qualified XML name in James Clark's notation: {namespace-uri}local-name, or local-name for no namespace. */
    SettingType<QName> QNAME = new SettingType<>() {
        public String name() { return "qname"; }
        public QName parse(String text) {
            QName name;
            try {
                name = QName.valueOf(text);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("not a qualified name; write {namespace-uri}local-name");
            }
            if (name.getLocalPart().isBlank() || name.getLocalPart().contains("}") || name.getLocalPart().contains("{")) {
                throw new IllegalArgumentException("not a qualified name; write {namespace-uri}local-name");
            }
            String local = name.getLocalPart();
            int colon = local.indexOf(':');
            if (colon > 0 && name.getNamespaceURI().isEmpty()) {
                // A prefix means something only inside a document, and each file may choose its own.
                throw new IllegalArgumentException("'" + local + "' has a prefix, which means nothing outside a document; "
                        + "write the namespace itself: {namespace-uri}" + local.substring(colon + 1));
            }
            String problem = Validators.ncNameProblem(local);
            if (problem != null) {
                throw new IllegalArgumentException("'" + local + "' is not an XML element name: " + problem);
            }
            return name;
        }
        public String format(QName value) {
            return value.toString();
        }
    };

    /**
     * A comma-separated list of {@code item}s; empty text is the empty list. Commas inside braces
     * belong to the item, so a qualified name's namespace URI may hold one.
     */
    static <T> SettingType<List<T>> listOf(SettingType<T> item) {
        return new SettingType<>() {
            public String name() { return "list of " + item.name(); }
            public List<T> parse(String text) {
                List<T> items = new ArrayList<>();
                if (text.isBlank()) {
                    return List.of();
                }
                int depth = 0;
                int start = 0;
                for (int i = 0; i <= text.length(); i++) {
                    char c = i < text.length() ? text.charAt(i) : ',';
                    if (c == '{') {
                        depth++;
                    } else if (c == '}') {
                        depth = Math.max(0, depth - 1);
                    } else if (c == ',' && depth == 0) {
                        String part = text.substring(start, i).trim();
                        try {
                            items.add(item.parse(part));
                        } catch (IllegalArgumentException e) {
                            throw new IllegalArgumentException("item " + (items.size() + 1) + " '" + part + "': "
                                    + e.getMessage());
                        }
                        start = i + 1;
                    }
                }
                return List.copyOf(items);
            }
            public String format(List<T> value) {
                StringBuilder out = new StringBuilder();
                for (T v : value) {
                    out.append(out.length() == 0 ? "" : ",").append(item.format(v));
                }
                return out.toString();
            }
        };
    }

    /** Digits alone, with a sign perhaps, yet no number of the type: a range to state, not a format to explain. */
    private static boolean wholeButTooLarge(String text) {
        return text.replace("_", "").trim().matches("[+-]?[0-9]+");
    }
}
