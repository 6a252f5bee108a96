package io.xmlingest.core.config;

import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/** Reusable checks for {@link Setting} declarations; each returns null when the value is fine, else the reason. */
public final class Validators {
    private Validators() {
    }

    public static <N extends Number> Function<N, String> between(long min, long max) {
        return v -> v.longValue() < min || v.longValue() > max
                ? "must be between " + min + " and " + max : null;
    }

    public static Function<String, String> oneOf(String... allowed) {
        List<String> values = Arrays.asList(allowed);
        return v -> values.contains(v) ? null : "must be one of " + String.join(", ", values);
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
     * Why {@code name} cannot be an element's local name (XML's NCName: a letter or '_' first, then
     * letters, digits, '.', '-', '_'; no ':' and no space), or null. Letters and digits of any
     * script count, which is close enough to XML's tables for a name someone types.
     */
    static String ncNameProblem(String name) {
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
        return null;
    }

    public static Function<String, String> any() {
        return v -> null;
    }
}
