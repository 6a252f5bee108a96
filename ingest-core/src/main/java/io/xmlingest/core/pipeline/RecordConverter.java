package io.xmlingest.core.pipeline;

import io.xmlingest.core.bind.JaxbRecordBinder;
import io.xmlingest.core.bind.RecordBinder;
import io.xmlingest.core.bind.XmlTree;
import io.xmlingest.core.bind.XmlTreeBinder;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.encode.JsonRecordEncoder;
import io.xmlingest.core.encode.RecordEncoder;
import io.xmlingest.core.encode.XmlTreeJsonEncoder;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.IngestException;
import io.xmlingest.core.error.RecordRejectedException;
import io.xmlingest.core.page.OutgoingRecord;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;
import javax.xml.stream.XMLStreamReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns one split record into a message: bind, key, serialize, and check that Kafka will take
 * it. Everything that can go wrong here is the record's fault and rejects it alone. Both the
 * plain and the transactional pipeline use it, so a record is judged the same way by either.
 * One per thread that converts (each binder thread; or the reading thread, which binds, and the
 * caller, which writes the values).
 */
final class RecordConverter {

    private static final Logger LOG = LoggerFactory.getLogger(RecordConverter.class);

    /** Headers and Kafka's per-record framing, generously: a record is rejected here rather than by the producer. */
    static final int MESSAGE_OVERHEAD = 512;

    /** One record type's binder, encoder and key, for this thread. */
    private record Conversion(RecordModel.RecordType type, RecordBinder<Object> binder, RecordEncoder<Object> encoder,
                              KeyReader keys) {
    }

    /** Reads a bound record's key; null when the record has no value for it. */
    interface KeyReader {
        byte[] keyOf(Object bound, ErrorLocation where);
    }

    private final RecordModel model;
    private final Conversion[] conversions;
    private final long maxRequestSize;
    private final int maxDepth;
    private boolean unexpectedLogged;
    /** Written by the one thread that converts, read by others for progress. */
    volatile long bindNanos;
    volatile long serializeNanos;

    RecordConverter(RecordModel model, long maxRequestSize, int maxDepth, boolean dropUnmapped) {
        this.model = model;
        List<RecordModel.RecordType> types = model.types();
        this.conversions = new Conversion[types.size()];
        JsonRecordEncoder json = new JsonRecordEncoder();
        for (int i = 0; i < conversions.length; i++) {
            conversions[i] = conversion(types.get(i), json, dropUnmapped);
        }
        this.maxRequestSize = maxRequestSize;
        this.maxDepth = maxDepth;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Conversion conversion(RecordModel.RecordType type, JsonRecordEncoder json, boolean dropUnmapped) {
        if (type.schemaless()) {
            String name = type.keyName();
            KeyReader keys = name == null ? null : (bound, where) -> treeKey((XmlTree) bound, name, where);
            return new Conversion(type, (RecordBinder) new XmlTreeBinder(), (RecordEncoder) new XmlTreeJsonEncoder(), keys);
        }
        RecordBinder<Object> binder = new JaxbRecordBinder<>(model.context(), (Class<Object>) type.type(), model.schema(),
                dropUnmapped);
        KeyReader keys = type.keys() == null ? null : (bound, where) -> type.keys().keyOf(bound);
        return new Conversion(type, binder, json, keys);
    }

    private static byte[] treeKey(XmlTree tree, String name, ErrorLocation where) {
        try {
            String key = tree.keyOf(name);
            return key == null ? null : key.getBytes(StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new RecordRejectedException("record has no single value for its key: " + e.getMessage(), where, null,
                    IngestSettings.RECORD_KEY.key());
        }
    }

    /** Whether the key is XML white space only (none at all included). */
    private static boolean blank(byte[] key) {
        for (byte b : key) {
            if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
                return false;
            }
        }
        return true;
    }

    /**
     * A record bound and keyed, its value not yet written: what the reading thread hands on when it
     * binds (see {@link ConvertedRecords}).
     */
    record Bound(int conversion, Object value, byte[] key) {
    }

    /** @throws RecordRejectedException when the record cannot become a message */
    OutgoingRecord convert(XMLStreamReader record, long index, ErrorLocation where, String fileName, String fileId) {
        return encode(bind(record, index, where, fileId), index, where, fileName);
    }

    /**
     * The first half of {@link #convert}: binds the record and reads its key.
     *
     * @throws RecordRejectedException when the record does not bind or has no usable key
     */
    Bound bind(XMLStreamReader record, long index, ErrorLocation where, String fileId) {
        return guarded(where, () -> bindOrOverflow(record, index, where, fileId));
    }

    /**
     * The second half of {@link #convert}: writes the value of a record another converter of the same
     * model bound, and checks that Kafka will take the message.
     *
     * @throws RecordRejectedException when the value cannot be written or the message is too large
     */
    OutgoingRecord encode(Bound bound, long index, ErrorLocation where, String fileName) {
        return guarded(where, () -> encodeOrOverflow(bound, index, where, fileName));
    }

    private <T> T guarded(ErrorLocation where, Supplier<T> step) {
        try {
            return step.get();
        } catch (StackOverflowError e) {
            // Binding, the required-value check and the encoder recurse once per level of a model record.
            // Converting threads get a stack for xml.max.depth (see ConvertedRecords); this is for a thread that
            // has less, and the record alone pays for it.
            throw new RecordRejectedException("record nests too deeply to be converted on this thread's stack "
                    + "(files may nest up to " + maxDepth + " levels)", where, null, IngestSettings.XML_MAX_DEPTH.key());
        } catch (IngestException e) {
            // Rejected records, and a record whose XML broke off (FileFailedException: it stops the file), as thrown.
            throw e;
        } catch (RuntimeException e) {
            throw unexpected(e, where);
        }
    }

    /**
     * A fault none of the stages expects (a bug of ours, of JAXB's, or in the model's own code) met
     * on this record. Letting it through stopped the worker, which met it again on every start with
     * the file still in hand, so no other file was taken: the record is rejected instead, with its
     * raw XML in the dead letters for a replay once the fault is mended, and a fault that meets
     * every record still fails the file at file.max.rejected.records. The stack trace is logged
     * once per converter, since the dead letter carries only the message.
     */
    private RecordRejectedException unexpected(RuntimeException e, ErrorLocation where) {
        if (!unexpectedLogged) {
            unexpectedLogged = true;
            LOG.error("unexpected fault converting {}; the record is rejected (further ones on this thread are "
                    + "logged without the trace)", where, e);
        } else {
            LOG.error("unexpected fault converting {}: {}", where, e.toString());
        }
        return new RecordRejectedException("record cannot be converted: an unexpected " + e.getClass().getName()
                + (e.getMessage() == null ? "" : ": " + e.getMessage()) + " (a fault in xmlingest or in the record "
                + "model's code rather than in the record, most likely; the worker's log has its stack trace)",
                where, e);
    }

    private Bound bindOrOverflow(XMLStreamReader record, long index, ErrorLocation where, String fileId) {
        int i = conversions.length == 1 ? 0 : conversionOf(record);
        Conversion c = conversions[i];
        long t0 = System.nanoTime();
        try {
            Object bound = c.binder().bind(record, where);
            byte[] key = c.keys() == null
                    ? (fileId + ":" + index).getBytes(StandardCharsets.UTF_8)
                    : c.keys().keyOf(bound, where);
            if (key == null || blank(key)) {
                // An empty key is a key all such records share: one partition, and one entry once compacted.
                throw new RecordRejectedException("record has " + (key == null ? "no" : key.length == 0 ? "an empty"
                        : "a blank") + " value for its key '" + c.type().keyName() + "'", where, null,
                        IngestSettings.RECORD_KEY.key());
            }
            return new Bound(i, bound, key);
        } finally {
            bindNanos += System.nanoTime() - t0;
        }
    }

    private OutgoingRecord encodeOrOverflow(Bound bound, long index, ErrorLocation where, String fileName) {
        Conversion c = conversions[bound.conversion()];
        long t1 = System.nanoTime();
        byte[] value;
        try {
            value = c.encoder().encode(bound.value());
        } catch (RuntimeException e) {
            // A value the message format cannot carry is this record's problem, not the file's.
            throw new RecordRejectedException("record cannot be serialized: " + e.getMessage(), where, e);
        } finally {
            serializeNanos += System.nanoTime() - t1;
        }
        byte[] key = bound.key();
        long size = key.length + value.length + fileName.length() + MESSAGE_OVERHEAD;
        if (size > maxRequestSize) {
            throw new RecordRejectedException("record too large to publish: about " + size + " bytes as a message, "
                    + "over the limit of " + maxRequestSize, where, null, IngestSettings.MAX_REQUEST_SIZE.key());
        }
        return new OutgoingRecord(index, key, value, c.type().topic());
    }

    /** The splitter only starts records at the model's elements, so the record's start tag names its type. */
    private int conversionOf(XMLStreamReader record) {
        int i = model.elements().indexOf(record.getNamespaceURI(), record.getLocalName());
        if (i < 0) {
            throw new IllegalStateException("record element <" + record.getName() + "> is not in the model");
        }
        return i;
    }
}
