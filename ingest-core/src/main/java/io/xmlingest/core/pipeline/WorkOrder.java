package io.xmlingest.core.pipeline;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.xmlingest.core.checkpoint.Checkpoint;
import io.xmlingest.core.checkpoint.CheckpointCodec;
import io.xmlingest.core.split.ResumePoint;
import io.xmlingest.core.split.Shard;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * One shard of a file to ingest, as a message on the work topic: everything a worker needs to
 * ingest it without asking anyone, the file being on storage every worker reads at {@code uri}.
 * The URI is resolved as a {@link java.nio.file.Path} by whichever java.nio file-system provider
 * serves its scheme: {@code file:} (a shared mount) out of the box; an object store can follow
 * as a provider that opens a {@link java.nio.channels.FileChannel}, since the reader seeks.
 *
 * @param uri    where every worker finds the file
 * @param name   the file's name in messages and errors
 * @param fileId SHA-256 of the file's bytes
 * @param bytes  the file's size
 * @param shard  the part of it to ingest
 */
public record WorkOrder(String uri, String name, String fileId, long bytes, Shard shard) {

    private static final JsonFactory JSON = new JsonFactory();

    /** The key work orders are published under: one per shard, so a repeated cut overwrites its own. */
    public String key() {
        return Checkpoint.key(fileId, shard.index());
    }

    public FileJob job(Checkpoint from) {
        return new FileJob(path(), name, fileId, bytes, from, shard);
    }

    /** The file, wherever its URI's file system has it. */
    public Path path() {
        return Path.of(URI.create(uri));
    }

    public byte[] encode() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("uri", uri);
            g.writeStringField("file", name);
            g.writeStringField("fileId", fileId);
            g.writeNumberField("bytes", bytes);
            g.writeNumberField("shard", shard.index());
            g.writeNumberField("shards", shard.count());
            if (shard.start() != null) {
                CheckpointCodec.writePosition(g, "start", Positions.of(shard.start()));
            }
            if (shard.next() != null) {
                CheckpointCodec.writePosition(g, "next", Positions.of(shard.next()));
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** Reads a work order; anything else is an IllegalArgumentException saying what is wrong. */
    public static WorkOrder decode(byte[] value) {
        String uri = null;
        String name = null;
        String fileId = null;
        long bytes = -1;
        int index = -1;
        int count = -1;
        ResumePoint start = null;
        ResumePoint next = null;
        try (JsonParser p = JSON.createParser(value)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("not a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                switch (field) {
                    case "uri" -> uri = p.getText();
                    case "file" -> name = p.getText();
                    case "fileId" -> fileId = p.getText();
                    case "bytes" -> bytes = p.getLongValue();
                    case "shard" -> index = p.getIntValue();
                    case "shards" -> count = p.getIntValue();
                    case "start" -> start = Positions.resumePoint(CheckpointCodec.position(p));
                    case "next" -> next = Positions.resumePoint(CheckpointCodec.position(p));
                    default -> p.skipChildren();
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("unreadable work order: " + e.getMessage(), e);
        }
        if (uri == null || name == null || fileId == null || bytes < 0 || index < 0 || count < 1) {
            throw new IllegalArgumentException("a work order needs uri, file, fileId, bytes, shard and shards: "
                    + new String(value, StandardCharsets.UTF_8));
        }
        return new WorkOrder(uri, name, fileId, bytes, new Shard(index, count, start, next));
    }

}
