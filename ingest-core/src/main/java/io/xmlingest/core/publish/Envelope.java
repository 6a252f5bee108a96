package io.xmlingest.core.publish;

import java.util.Map;

/**
 * A message other than a record that must commit with a page: a dead letter, a status event,
 * a checkpoint.
 *
 * @param topic   where it goes
 * @param key     its key bytes
 * @param value   its value bytes
 * @param headers string headers, in order
 */
public record Envelope(String topic, byte[] key, byte[] value, Map<String, String> headers) {
    public Envelope {
        headers = Map.copyOf(headers);
    }
}
