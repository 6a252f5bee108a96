package io.xmlingest.core.checkpoint;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.xmlingest.core.error.ErrorLocation;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Checkpoints as JSON, readable with any Kafka client. The field names are published: the
 * checkpoint topic is documented for operators, so they stay.
 */
public final class CheckpointCodec {
    private CheckpointCodec() {
    }

    private static final JsonFactory JSON = new JsonFactory();

    public static byte[] encode(Checkpoint c) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("fileId", c.fileId());
            g.writeStringField("file", c.fileName());
            g.writeStringField("state", c.state().name());
            g.writeNumberField("nextRecordIndex", c.nextRecordIndex());
            if (c.resume() != null) {
                writePosition(g, "resume", c.resume());
            }
            g.writeNumberField("records", c.records());
            g.writeNumberField("deadLetters", c.deadLetters());
            g.writeNumberField("pages", c.pages());
            if (c.reason() != null) {
                g.writeStringField("reason", c.reason());
            }
            if (c.shard() >= 0) {
                g.writeNumberField("shard", c.shard());
            }
            if (c.shards() > 0) {
                g.writeNumberField("shards", c.shards());
            }
            if (c.failure() != null) {
                writeFailure(g, c.failure());
            }
            if (c.bounds() != null) {
                g.writeObjectFieldStart("bounds");
                g.writeNumberField("count", c.bounds().count());
                if (c.bounds().start() != null) {
                    writePosition(g, "start", c.bounds().start());
                }
                if (c.bounds().next() != null) {
                    writePosition(g, "next", c.bounds().next());
                }
                g.writeEndObject();
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** Reads a checkpoint; a value this version cannot read is an IllegalArgumentException naming the field. */
    public static Checkpoint decode(byte[] value) {
        String fileId = null;
        String file = null;
        FileState state = null;
        long next = 0;
        long records = 0;
        long deadLetters = 0;
        long pages = 0;
        String reason = null;
        int shard = -1;
        int shards = 0;
        Checkpoint.Position resume = null;
        Checkpoint.Bounds bounds = null;
        Checkpoint.Failure failure = null;
        try (JsonParser p = JSON.createParser(value)) {
            expect(p.nextToken(), JsonToken.START_OBJECT, "checkpoint");
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                switch (name) {
                    case "fileId" -> fileId = p.getText();
                    case "file" -> file = p.getText();
                    case "state" -> state = FileState.valueOf(p.getText());
                    case "nextRecordIndex" -> next = p.getLongValue();
                    case "records" -> records = p.getLongValue();
                    case "deadLetters" -> deadLetters = p.getLongValue();
                    case "pages" -> pages = p.getLongValue();
                    case "reason" -> reason = p.getText();
                    case "resume" -> resume = position(p);
                    case "shard" -> shard = p.getIntValue();
                    case "shards" -> shards = p.getIntValue();
                    case "bounds" -> bounds = bounds(p);
                    case "failure" -> failure = failure(p);
                    default -> p.skipChildren();
                }
            }
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("unreadable checkpoint: " + e.getMessage(), e);
        }
        if (fileId == null || file == null || state == null) {
            throw new IllegalArgumentException("checkpoint lacks fileId, file or state");
        }
        return new Checkpoint(fileId, file, state, next, resume, records, deadLetters, pages, reason, shard, shards, bounds,
                failure);
    }

    private static void writeFailure(JsonGenerator g, Checkpoint.Failure f) throws IOException {
        g.writeObjectFieldStart("failure");
        g.writeStringField("reason", f.reason());
        if (f.setting() != null) {
            g.writeStringField("setting", f.setting());
        }
        ErrorLocation at = f.location();
        if (at != null) {
            g.writeStringField("file", at.file());
            g.writeNumberField("recordIndex", at.recordIndex());
            g.writeNumberField("line", at.line());
            g.writeNumberField("column", at.column());
            g.writeNumberField("byteOffset", at.byteOffset());
        }
        g.writeEndObject();
    }

    private static Checkpoint.Failure failure(JsonParser p) throws IOException {
        expect(p.currentToken(), JsonToken.START_OBJECT, "failure");
        String reason = null;
        String setting = null;
        String at = null;
        long recordIndex = -1;
        int line = -1;
        int column = -1;
        long byteOffset = -1;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            switch (name) {
                case "reason" -> reason = p.getText();
                case "setting" -> setting = p.getText();
                case "file" -> at = p.getText();
                case "recordIndex" -> recordIndex = p.getLongValue();
                case "line" -> line = p.getIntValue();
                case "column" -> column = p.getIntValue();
                case "byteOffset" -> byteOffset = p.getLongValue();
                default -> p.skipChildren();
            }
        }
        if (reason == null) {
            throw new IllegalArgumentException("failure lacks reason");
        }
        return new Checkpoint.Failure(reason, setting,
                at == null ? null : new ErrorLocation(at, recordIndex, line, column, byteOffset));
    }

    private static Checkpoint.Bounds bounds(JsonParser p) throws IOException {
        expect(p.currentToken(), JsonToken.START_OBJECT, "bounds");
        int count = 0;
        Checkpoint.Position start = null;
        Checkpoint.Position next = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            switch (name) {
                case "count" -> count = p.getIntValue();
                case "start" -> start = position(p);
                case "next" -> next = position(p);
                default -> p.skipChildren();
            }
        }
        return new Checkpoint.Bounds(count, start, next);
    }

    /** Writes a position as the object field {@code field}; work orders carry positions in this form too. */
    public static void writePosition(JsonGenerator g, String field, Checkpoint.Position p) throws IOException {
        g.writeObjectFieldStart(field);
        g.writeNumberField("recordIndex", p.recordIndex());
        g.writeNumberField("byteOffset", p.byteOffset());
        g.writeNumberField("line", p.line());
        g.writeNumberField("column", p.column());
        g.writeNumberField("prologEnd", p.prologEnd());
        g.writeStringField("openElements", p.openElements());
        g.writeEndObject();
    }

    /** Reads a position written by {@link #writePosition}, the parser on its start. */
    public static Checkpoint.Position position(JsonParser p) throws IOException {
        expect(p.currentToken(), JsonToken.START_OBJECT, "position");
        long index = 0;
        long offset = -1;
        int line = -1;
        int column = -1;
        long prologEnd = -1;
        String open = "";
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            switch (name) {
                case "recordIndex" -> index = p.getLongValue();
                case "byteOffset" -> offset = p.getLongValue();
                case "line" -> line = p.getIntValue();
                case "column" -> column = p.getIntValue();
                case "prologEnd" -> prologEnd = p.getLongValue();
                case "openElements" -> open = p.getText();
                default -> p.skipChildren();
            }
        }
        return new Checkpoint.Position(index, offset, line, column, prologEnd, open);
    }

    private static void expect(JsonToken actual, JsonToken expected, String what) {
        if (actual != expected) {
            throw new IllegalArgumentException(what + " is not a JSON object");
        }
    }
}
