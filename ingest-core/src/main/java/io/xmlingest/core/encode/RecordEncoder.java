package io.xmlingest.core.encode;

/** Serializes one bound record into a message value. Implementations are not shared between threads. */
public interface RecordEncoder<T> {
    byte[] encode(T record);
}
