package io.xmlingest.core.publish;

/**
 * Kafka says a record is too large in two cases with one exception: the producer's own
 * max.request.size (kafka.max.request.size), and the broker's limit for the topic
 * (max.message.bytes, a topic config), which no producer setting raises.
 */
final class RecordTooLarge {
    private RecordTooLarge() {
    }

    /** Whether the broker refused it, not the producer. */
    static boolean byTheBroker(Throwable error) {
        return String.valueOf(error.getMessage()).contains("the server will accept");
    }

    /** What to say of a broker's refusal: the limit at fault and how to move it. */
    static String brokerLimit(Throwable error) {
        return "the broker refused it (" + error.getMessage() + "); its limit is the topic's max.message.bytes (or the "
                + "brokers' message.max.bytes), which kafka.max.request.size does not raise: raise the topic's, or keep "
                + "records under it";
    }
}
