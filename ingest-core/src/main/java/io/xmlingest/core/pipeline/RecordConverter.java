package io.xmlingest.core.pipeline;

import io.xmlingest.core.bind.JaxbRecordBinder;
import io.xmlingest.core.bind.RecordBinder;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.encode.JsonRecordEncoder;
import io.xmlingest.core.encode.RecordEncoder;
import io.xmlingest.core.encode.RecordKeys;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.RecordRejectedException;
import io.xmlingest.core.page.OutgoingRecord;
import java.nio.charset.StandardCharsets;
import javax.xml.stream.XMLStreamReader;

/**
 * Turns one split record into a message: bind, key, serialize, and check that Kafka will take
 * it. Everything that can go wrong here is the record's fault and rejects it alone. Both the
 * plain and the transactional pipeline use it, so a record is judged the same way by either.
 */
final class RecordConverter {

    /** Headers and Kafka's per-record framing, generously: a record is rejected here rather than by the producer. */
    static final int MESSAGE_OVERHEAD = 512;

    private final RecordBinder<?> binder;
    private final RecordEncoder<Object> encoder = new JsonRecordEncoder();
    private final RecordKeys keys;
    private final long maxRequestSize;
    /** Written by the one thread that converts, read by others for progress. */
    volatile long bindNanos;
    volatile long serializeNanos;

    RecordConverter(IngestionPipeline.RecordModel model, long maxRequestSize) {
        this.binder = new JaxbRecordBinder<>(model.context(), model.type());
        this.keys = model.keys();
        this.maxRequestSize = maxRequestSize;
    }

    /** @throws RecordRejectedException when the record cannot become a message */
    OutgoingRecord convert(XMLStreamReader record, long index, ErrorLocation where, String fileName, String fileId) {
        long t0 = System.nanoTime();
        Object bound;
        byte[] key;
        try {
            bound = binder.bind(record, where);
            key = keys == null
                    ? (fileId + ":" + index).getBytes(StandardCharsets.UTF_8)
                    : keys.keyOf(bound);
            if (key == null) {
                throw new RecordRejectedException("record has no value for its key '" + keys.propertyName()
                        + "' (setting " + IngestSettings.RECORD_KEY.key() + ")", where, null);
            }
        } finally {
            bindNanos += System.nanoTime() - t0;
        }
        long t1 = System.nanoTime();
        byte[] value;
        try {
            value = encoder.encode(bound);
        } catch (RuntimeException e) {
            // A value the message format cannot carry is this record's problem, not the file's.
            throw new RecordRejectedException("record cannot be serialized: " + e.getMessage(), where, e);
        } finally {
            serializeNanos += System.nanoTime() - t1;
        }
        long size = key.length + value.length + fileName.length() + MESSAGE_OVERHEAD;
        if (size > maxRequestSize) {
            throw new RecordRejectedException("record too large to publish: about " + size + " bytes as a message, "
                    + "over the limit of " + maxRequestSize, where, null, IngestSettings.MAX_REQUEST_SIZE.key());
        }
        return new OutgoingRecord(index, key, value);
    }
}
