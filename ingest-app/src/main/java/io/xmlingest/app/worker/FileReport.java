package io.xmlingest.app.worker;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.xmlingest.core.checkpoint.Checkpoint;
import io.xmlingest.core.checkpoint.FileState;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.FileFailedException;
import io.xmlingest.core.error.IngestException;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Optional;

/**
 * The JSON report left beside a finished file: what became of it, in numbers, and where it
 * stopped if it failed. Counts cover every run over the file, across restarts.
 */
final class FileReport {
    private FileReport() {
    }

    private static final JsonFactory JSON = new JsonFactory();

    /** The file id a report names, if it names one and reads as a report. */
    static Optional<String> fileIdOf(String reportJson) {
        try (JsonParser p = JSON.createParser(reportJson)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return Optional.empty();
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                if ("fileId".equals(field) && value == JsonToken.VALUE_STRING) {
                    return Optional.of(p.getText());
                }
                p.skipChildren();
            }
            return Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** A file whose content was ingested before, under {@code before}'s name: nothing was published again. */
    static String alreadyIngested(String file, String fileId, long bytes, Checkpoint before) {
        return of("already_ingested", file, fileId, bytes, before, 0, null,
                "this content was ingested before, as " + before.fileName() + "; nothing was published again");
    }

    /** The note of a file that completed holding no record, {@code what} saying so. */
    static String heldNoRecord(String what) {
        return what + " (setting " + IngestSettings.RECORD_ELEMENT.key() + "); dropped again, the same content is read "
                + "again, not taken for ingested";
    }

    /**
     * A file whose end is known from its checkpoint alone (after a restart, or ended by sharing
     * workers): a failed one's recorded reason is its error, as for a file that failed in hand.
     */
    static String ended(String file, String fileId, long bytes, Checkpoint c) {
        return ended(file, fileId, bytes, c, -1);
    }

    /** @param failedShard for a file that failed in shards, the first shard that failed; else -1 */
    static String ended(String file, String fileId, long bytes, Checkpoint c, int failedShard) {
        boolean completed = c.state() == FileState.COMPLETED;
        IngestException error = completed || c.reason() == null ? null
                : c.failure() != null ? c.failure().toException()
                : new FileFailedException(c.reason(), null, null, null);
        String note = c.completedEmpty() ? heldNoRecord("it completed with no record") : null;
        return of(completed ? "completed" : "failed", file, fileId, bytes, c, 0, error, note, failedShard);
    }

    /**
     * @param outcome  completed, failed, already-ingested or refused
     * @param c        the file's last checkpoint, or null if nothing was published
     * @param seconds  wall time of the last run over the file
     */
    static String of(String outcome, String file, String fileId, long bytes, Checkpoint c, double seconds,
                     IngestException error, String note) {
        return of(outcome, file, fileId, bytes, c, seconds, error, note, -1);
    }

    private static String of(String outcome, String file, String fileId, long bytes, Checkpoint c, double seconds,
                             IngestException error, String note, int failedShard) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(out).useDefaultPrettyPrinter()) {
            g.writeStartObject();
            g.writeStringField("outcome", outcome);
            g.writeStringField("file", file);
            if (fileId != null) {
                g.writeStringField("fileId", fileId);
            }
            g.writeNumberField("bytes", bytes);
            g.writeNumberField("records", c == null ? 0 : c.records());
            g.writeNumberField("pages", c == null ? 0 : c.pages());
            g.writeNumberField("deadLetters", c == null ? 0 : c.deadLetters());
            g.writeNumberField("durationSeconds", Math.round(seconds * 1000) / 1000.0);
            g.writeStringField("finished", Instant.now().toString());
            if (note != null) {
                g.writeStringField("note", note);
            }
            if (error != null) {
                g.writeObjectFieldStart("error");
                if (failedShard >= 0) {
                    g.writeNumberField("shard", failedShard); // as the failed event has it
                }
                g.writeStringField("reason", error.reason());
                if (error.settingKey().isPresent()) {
                    g.writeStringField("setting", error.settingKey().get());
                }
                ErrorLocation at = error.location().orElse(null);
                if (at != null) {
                    if (at.recordIndex() >= 0) {
                        g.writeNumberField("recordIndex", at.recordIndex());
                    }
                    if (at.line() > 0) {
                        g.writeNumberField("line", at.line());
                    }
                    if (at.line() > 0 && at.column() > 0) {
                        // As the failed event has it: a column the parser did not know is left out, not 0.
                        g.writeNumberField("column", at.column());
                    }
                    if (at.byteOffset() >= 0) {
                        g.writeNumberField("byteOffset", at.byteOffset());
                    }
                }
                g.writeStringField("message", error.getMessage());
                g.writeEndObject();
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString() + System.lineSeparator();
    }
}
