package io.xmlingest.core.page;

/**
 * One record ready to publish.
 *
 * @param index 0-based index of the record in its file
 * @param key   the message key's bytes
 * @param value the message value's bytes
 * @param topic the topic of the record's type: a file may fan out to several
 */
public record OutgoingRecord(long index, byte[] key, byte[] value, String topic) {

    /** Serialized size counted against a page's byte bound. */
    public long size() {
        return (long) key.length + value.length;
    }
}
