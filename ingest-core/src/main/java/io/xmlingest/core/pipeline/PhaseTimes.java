package io.xmlingest.core.pipeline;

/**
 * Where a file's time went, in nanoseconds: finding records (scan), unmarshalling them (bind),
 * turning them into message bytes (serialize) and handing pages to Kafka and waiting for
 * acknowledgements (publish). Hashing the file for its identity is {@code identify}.
 */
public record PhaseTimes(long identifyNanos, long scanNanos, long bindNanos, long serializeNanos, long publishNanos) {
}
