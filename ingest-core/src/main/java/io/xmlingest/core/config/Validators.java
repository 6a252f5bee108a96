package io.xmlingest.core.config;

import java.io.StringReader;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/** Reusable checks for {@link Setting} declarations; each returns null when the value is fine, else the reason. */
public final class Validators {
    private Validators() {
    }

    /**
     * A check that can say in words which values it lets through, so the config table states the
     * bounds the code enforces rather than a copy of them that could drift.
     */
    public interface Rule<T> extends Function<T, String> {
        /** The values allowed, such as "1 to 100,000" or "reject or drop". */
        String allowed();
    }

    /** A check that cannot be put as a range or a list, with {@code allowed} saying what it lets through. */
    public static <T> Rule<T> rule(String allowed, Function<T, String> check) {
        return new Rule<>() {
            public String apply(T value) { return check.apply(value); }
            public String allowed() { return allowed; }
        };
    }

    public static <N extends Number> Rule<N> between(long min, long max) {
        return rule(range(String.format(Locale.ROOT, "%,d", min), String.format(Locale.ROOT, "%,d", max), max),
                v -> v.longValue() < min || v.longValue() > max ? "must be between " + min + " and " + max : null);
    }

    /** As {@link #between}, for a byte count, with the bounds written as the setting takes them (1MiB, not 1048576). */
    public static Rule<Long> bytesBetween(long min, long max) {
        String low = SettingType.BYTES.format(min);
        String high = SettingType.BYTES.format(max);
        return rule(range(low, high, max),
                v -> v < min || v > max ? "must be between " + low + " and " + high : null);
    }

    /** A type's own largest value is no bound the user chose: "at least 0" says more than "0 to 2,147,483,647". */
    private static String range(String low, String high, long max) {
        return max == Integer.MAX_VALUE || max == Long.MAX_VALUE ? "at least " + low : low + " to " + high;
    }

    public static Rule<String> oneOf(String... allowed) {
        List<String> values = Arrays.asList(allowed);
        String listed = values.size() == 1 ? values.get(0)
                : String.join(", ", values.subList(0, values.size() - 1)) + " or " + values.get(values.size() - 1);
        return rule(listed, v -> values.contains(v) ? null : "must be one of " + String.join(", ", values));
    }

    public static Function<String, String> notBlank() {
        return v -> v.isBlank() ? "must not be empty" : null;
    }

    /**
     * A name Kafka accepts for a topic: checked here, because the broker refuses it only when the
     * topic is created, which the client reports as the topic never becoming ready.
     */
    public static Function<String, String> topicName(boolean emptyAllowed) {
        return v -> v.isEmpty() ? (emptyAllowed ? null : "a topic name is empty") : topicNameProblem(v);
    }

    public static Function<List<String>, String> topicNames() {
        return v -> v.isEmpty() ? "name a topic"
                : v.stream().map(t -> t.isEmpty() ? "a topic name is empty" : topicNameProblem(t))
                        .filter(java.util.Objects::nonNull).findFirst().orElse(null);
    }

    private static String topicNameProblem(String name) {
        if (name.length() > MAX_TOPIC_NAME) {
            return "topic name '" + name + "' has " + name.length() + " characters, Kafka allows at most " + MAX_TOPIC_NAME;
        }
        if (name.equals(".") || name.equals("..")) {
            return "'" + name + "' is not a topic name Kafka allows";
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-')) {
                return "topic name '" + name + "' has '" + c + "' at " + (i + 1)
                        + ": Kafka allows only ASCII letters, digits, '.', '_' and '-'";
            }
        }
        return null;
    }

    private static final int MAX_TOPIC_NAME = 249;

    /**
     * host:port[,host:port...], as the Kafka client parses it ({@code [::1]:9092} for IPv6): the
     * client refuses anything else only once it starts, with a stack trace.
     */
    public static Function<String, String> hostPorts() {
        return v -> {
            if (v.isBlank()) {
                return null;
            }
            for (String entry : v.split(",", -1)) {
                String e = entry.strip();
                if (e.isEmpty()) {
                    // The client refuses it once it starts ("values must not be empty"), with a stack trace.
                    return "'" + v + "' has an empty entry: a comma too many?";
                }
                int colon = e.lastIndexOf(':');
                String port = colon < 0 ? "" : e.substring(colon + 1);
                String host = colon < 0 ? e : e.substring(0, colon);
                if (host.isEmpty() || host.equals("[]") || !port.matches("[0-9]{1,5}")
                        || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65535) {
                    return "'" + e + "' is not host:port (such as broker1:9092)";
                }
            }
            return null;
        };
    }

    /**
     * Why {@code name} cannot be an element's local name (XML's NCName: no ':', no space), or null.
     * The parser that reads the files is the judge (a name it refuses could match no element it
     * reads), since XML's tables of name characters are long; the scan after it only says where a
     * name it refuses goes wrong.
     */
    static String ncNameProblem(String name) {
        if (name.indexOf(':') < 0 && parsesAsElementName(name)) {
            return null;
        }
        for (int i = 0; i < name.length(); ) {
            int c = name.codePointAt(i);
            boolean ok = Character.isLetter(c) || c == '_'
                    || i > 0 && (Character.isDigit(c) || c == '.' || c == '-' || c == 0xB7
                    || Character.getType(c) == Character.NON_SPACING_MARK || Character.getType(c) == Character.COMBINING_SPACING_MARK);
            if (!ok) {
                return (c == ' ' ? "a space" : "'" + Character.toString(c) + "'") + " at " + (i + 1)
                        + (i == 0 ? " (a name starts with a letter or '_')" : "");
            }
            i += Character.charCount(c);
        }
        return "XML does not allow it as a name";
    }

    private static boolean parsesAsElementName(String name) {
        try {
            XMLInputFactory factory = new com.ctc.wstx.stax.WstxInputFactory(); // the splitter's parser
            factory.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, false);
            factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
            XMLStreamReader r = factory.createXMLStreamReader(new StringReader("<" + name + "/>"));
            // "a x='1'" parses too: the element must be the name itself.
            return r.nextTag() == XMLStreamConstants.START_ELEMENT && r.getLocalName().equals(name)
                    && r.getAttributeCount() == 0 && r.nextTag() == XMLStreamConstants.END_ELEMENT;
        } catch (XMLStreamException | RuntimeException e) {
            return false;
        }
    }

    public static Function<String, String> any() {
        return v -> null;
    }
}
