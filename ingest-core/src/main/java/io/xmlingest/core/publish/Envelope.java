package io.xmlingest.core.publish;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A message other than a record that must commit with a page: a dead letter, a status event,
 * a checkpoint.
 *
 * @param topic   where it goes
 * @param key     its key bytes
 * @param value   its value bytes
 * @param headers   string headers, in order
 * @param partition the partition it must go to, or null for the one its key hashes to
 */
public record Envelope(String topic, byte[] key, byte[] value, Map<String, String> headers, Integer partition) {
    public Envelope {
        // In order, as documented: Map.copyOf's order changes from one JVM to the next.
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    }

    /** A message that goes to the partition of its key. */
    public Envelope(String topic, byte[] key, byte[] value, Map<String, String> headers) {
        this(topic, key, value, headers, null);
    }
}
