package io.xmlingest.core.publish;

import org.apache.kafka.common.KafkaException;

/**
 * Reads Kafka's client failures. Kafka wraps what stopped a client being made in one or two exceptions that say only
 * "Failed to construct kafka producer"; the reason a user can act on (a store that will not open, no JAAS entry) is
 * below them, so messages quote the causes, not the wrapper.
 */
public final class KafkaClientFailures {
    private KafkaClientFailures() {
    }

    /** Kafka's wrapper around whatever stopped a producer, consumer or admin client from being made. */
    public static boolean failedToConstruct(Throwable t) {
        String message = String.valueOf(t.getMessage());
        return t instanceof KafkaException
                && (message.startsWith("Failed to construct kafka ") || message.startsWith("Failed to create new "));
    }

    /**
     * What {@code e} and its causes say, joined in one line, Kafka's construction wrappers left out and each cause
     * once: a cause whose words one above it already quotes (a file's name) adds only its kind.
     */
    public static String reasons(Throwable e) {
        StringBuilder why = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (failedToConstruct(t)) {
                continue;
            }
            String message = t.getMessage() == null ? "" : t.getMessage().strip();
            if (!message.isEmpty() && why.indexOf(message) < 0) {
                why.append(why.length() == 0 ? "" : ": ").append(message);
            } else if (!(t instanceof KafkaException)) {
                why.append(why.length() == 0 ? "" : " ").append('(').append(t.getClass().getSimpleName()).append(')');
            }
        }
        // Nothing said at all (a wrapper alone, a WakeupException): its kind and words, whatever they are.
        return why.length() == 0 ? String.valueOf(e) : why.toString();
    }
}
