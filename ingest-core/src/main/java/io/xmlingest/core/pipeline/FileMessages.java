package io.xmlingest.core.pipeline;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.xmlingest.core.checkpoint.Checkpoint;
import io.xmlingest.core.checkpoint.CheckpointCodec;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.IngestException;
import io.xmlingest.core.publish.Envelope;
import io.xmlingest.core.publish.MessageHeaders;
import io.xmlingest.core.publish.TopicNames;
import io.xmlingest.core.split.RawRecord;
import io.xmlingest.core.split.Shard;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/**
 * The messages that travel with a file's pages: status events, dead letters and checkpoints.
 * Their JSON field names are the published contract (see the README's message format).
 */
final class FileMessages {

    private static final JsonFactory JSON = new JsonFactory();

    private final TopicNames topics;
    private final String fileName;
    private final String fileId;
    private final String worker;

    FileMessages(TopicNames topics, String fileName, String fileId, String worker) {
        this.topics = topics;
        this.fileName = fileName;
        this.fileId = fileId;
        this.worker = worker;
    }

    /** {@code inflatedBytes}: a compressed file's inflated size, or -1 for a plain file (left out). */
    Envelope started(long fileBytes, long inflatedBytes) {
        return status("started", g -> writeSizes(g, fileBytes, inflatedBytes));
    }

    /**
     * @param passedOver the elements beside the records this run passed over, by name (see
     *                   {@link io.xmlingest.core.split.RecordSplitter#passedOver}); told when there are any, since a
     *                   misspelt record among them is otherwise seen only in the worker's log
     */
    Envelope completed(Checkpoint c, long fileBytes, long inflatedBytes, Map<String, Long> passedOver) {
        return status("completed", g -> {
            g.writeNumberField("records", c.records());
            g.writeNumberField("deadLetters", c.deadLetters());
            g.writeNumberField("pages", c.pages());
            writeSizes(g, fileBytes, inflatedBytes);
            g.writeStringField("sha256", fileId);
            if (!passedOver.isEmpty()) {
                g.writeObjectFieldStart("passedOver");
                for (Map.Entry<String, Long> e : new TreeMap<>(passedOver).entrySet()) {
                    g.writeNumberField(e.getKey(), e.getValue());
                }
                g.writeEndObject();
            }
        });
    }

    private static void writeSizes(JsonGenerator g, long fileBytes, long inflatedBytes) throws IOException {
        g.writeNumberField("bytes", fileBytes);
        if (inflatedBytes >= 0) {
            g.writeNumberField("inflatedBytes", inflatedBytes);
        }
    }

    Envelope failed(Checkpoint c, IngestException e) {
        return status("failed", g -> {
            g.writeNumberField("records", c.records());
            g.writeNumberField("deadLetters", c.deadLetters());
            g.writeStringField("reason", e.reason());
            if (e.settingKey().isPresent()) {
                g.writeStringField("setting", e.settingKey().get());
            }
            writePosition(g, e.location().orElse(null));
            g.writeStringField("message", e.getMessage());
        });
    }

    /**
     * A shard of the file is finished. The file's own completed or failed event follows once
     * every shard is; these let anyone follow the shards and put the file's records in order.
     */
    Envelope shardEnded(Checkpoint c, Shard shard, IngestException failure) {
        return status(failure == null ? "shard-completed" : "shard-failed", g -> {
            g.writeNumberField("shard", shard.index());
            g.writeNumberField("shards", shard.count());
            g.writeNumberField("firstRecordIndex", shard.firstRecordIndex());
            g.writeNumberField("nextRecordIndex", c.nextRecordIndex());
            g.writeNumberField("records", c.records());
            g.writeNumberField("deadLetters", c.deadLetters());
            if (failure != null) {
                g.writeStringField("reason", failure.reason());
                if (failure.settingKey().isPresent()) {
                    g.writeStringField("setting", failure.settingKey().get());
                }
                writePosition(g, failure.location().orElse(null));
                g.writeStringField("message", failure.getMessage());
            }
        });
    }

    /** The file is cut into shards that workers take from the work topic. */
    Envelope planned(long fileBytes, long inflatedBytes, int shards) {
        return status("started", g -> {
            writeSizes(g, fileBytes, inflatedBytes);
            g.writeNumberField("shards", shards);
        });
    }

    /**
     * Every shard of the file has failed or completed, and at least one failed: the first failed
     * shard's failure, with its parts where its checkpoint kept them (null from an older version).
     */
    Envelope shardsFailed(Checkpoint total, int shard, String message, Checkpoint.Failure failure) {
        return status("failed", g -> {
            g.writeNumberField("records", total.records());
            g.writeNumberField("deadLetters", total.deadLetters());
            g.writeNumberField("shard", shard);
            if (failure != null) {
                g.writeStringField("reason", failure.reason());
                if (failure.setting() != null) {
                    g.writeStringField("setting", failure.setting());
                }
                writePosition(g, failure.location());
            }
            g.writeStringField("message", message);
        });
    }

    Envelope deadLetter(IngestException e, long recordIndex, RawRecord raw) {
        byte[] value = json(g -> {
            g.writeStringField("file", fileName);
            g.writeStringField("fileId", fileId);
            g.writeNumberField("recordIndex", recordIndex);
            writePosition(g, e.location().orElse(null));
            g.writeStringField("error", e.reason());
            if (e.settingKey().isPresent()) {
                g.writeStringField("setting", e.settingKey().get());
            }
            g.writeNumberField("byteOffset", raw.byteOffset());
            g.writeNumberField("byteLength", raw.byteLength());
            if (raw.xml() != null) {
                g.writeStringField("rawXml", raw.xml());
            }
        });
        Map<String, String> headers = headers();
        headers.put(MessageHeaders.RECORD_INDEX, Long.toString(recordIndex));
        return new Envelope(topics.deadLetters(), key(fileId + ":" + recordIndex), value, headers);
    }

    Envelope checkpoint(Checkpoint c) {
        Map<String, String> headers = headers();
        headers.put(MessageHeaders.WORKER, worker);
        return new Envelope(topics.checkpoints(), key(c.key()), CheckpointCodec.encode(c), headers);
    }

    private Envelope status(String event, JsonFields fields) {
        byte[] value = json(g -> {
            g.writeStringField("event", event);
            g.writeStringField("file", fileName);
            g.writeStringField("fileId", fileId);
            g.writeStringField("worker", worker);
            g.writeStringField("time", Instant.now().toString());
            fields.write(g);
        });
        return new Envelope(topics.status(), key(fileId), value, headers());
    }

    private static void writePosition(JsonGenerator g, ErrorLocation where) throws IOException {
        if (where == null || (where.recordIndex() < 0 && where.line() <= 0 && where.byteOffset() < 0)) {
            return; // nothing known of it (an empty file): left out, not {}
        }
        g.writeObjectFieldStart("position");
        if (where.recordIndex() >= 0) {
            g.writeNumberField("recordIndex", where.recordIndex());
        }
        if (where.line() > 0) {
            g.writeNumberField("line", where.line());
        }
        if (where.column() > 0) {
            g.writeNumberField("column", where.column());
        }
        if (where.byteOffset() >= 0) {
            g.writeNumberField("byteOffset", where.byteOffset());
        }
        g.writeEndObject();
    }

    private Map<String, String> headers() {
        return MessageHeaders.ofFile(fileName, fileId);
    }

    private static byte[] key(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private interface JsonFields {
        void write(JsonGenerator g) throws IOException;
    }

    private static byte[] json(JsonFields fields) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            fields.write(g);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
