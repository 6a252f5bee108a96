package io.xmlingest.bench.formats;

/** One way of writing a record as a Kafka message value, measured by {@code --value-formats}. */
public interface ValueFormat {

    /** A record as the pipeline has it: bound by JAXB, and its bytes as they are in the file. */
    record Source(Object bound, byte[] xml) {
    }

    String name();

    /** The value's bytes; may reuse internal buffers, never the returned array. */
    byte[] encode(Source record);
}
