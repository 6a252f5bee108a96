package io.xmlingest.app.worker;

import io.xmlingest.app.AppSettings;
import io.xmlingest.core.error.RecordError;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * How often a claimed file has stopped the worker on an unexpected error, kept beside it in the
 * inbox so that a restart knows: a file that stops every worker start would otherwise hold up
 * every file behind it for ever.
 *
 * <p>Every crash of the same content counts, wherever in the file it struck, as a queue's delivery
 * count does. Counting only crashes with nothing committed between them would miss most: a resumed
 * file commits as soon as its second record is converted (so that a restart is seen to move), so a
 * fault any further on comes after a commit every time.
 *
 * @param fileId the content's SHA-256, or "" when the worker stopped before it knew it: a count for
 *               other content (a file of the same name before) does not count for this one
 * @param at     the file's next record index as of its last commit before the last crash, or -1
 * @param count  the crashes of this content since it was claimed
 * @param last   the last crash's error, on one line
 */
record FileCrashes(String fileId, long at, int count, String last) {

    /** Longest error kept: enough for a class and a message, not a stack trace. */
    static final int MAX_ERROR_CHARS = 500;

    /** The crashes once one more, with {@code error}, happened to content {@code fileId} ("" unknown) at {@code at}. */
    static FileCrashes after(Optional<FileCrashes> before, String fileId, long at, Throwable error) {
        int count = before.filter(b -> b.fileId.equals(fileId)).map(b -> b.count + 1).orElse(1);
        // Where it struck (the record a binder or the reader had in hand) is worth more than the error's own words.
        String said = error instanceof RecordError r ? r.getMessage() : error.toString();
        return new FileCrashes(fileId, at, count, oneLine(said));
    }

    /**
     * Whether the next start should set content {@code fileId} ("" before it is known) aside
     * rather than try it again; never when {@code max} is 0.
     */
    boolean exhausted(String fileId, int max) {
        return max > 0 && this.fileId.equals(fileId) && count >= max;
    }

    /** What happens the next time the file or shard is taken up, with {@code max} the setting's value: for the log. */
    String outlook(int max) {
        String key = AppSettings.FILE_MAX_CRASHES.key();
        return max == 0 ? "it is taken up again every time (" + key + "=0)"
                : count >= max ? "it is set aside the next time it is taken up (" + key + "=" + max + ")"
                : "it is taken up again (set aside after " + max + ", " + key + ")";
    }

    static String times(int n) {
        return n == 1 ? "once" : n + " times";
    }

    private static String oneLine(String s) {
        String line = s.replaceAll("\\s+", " ").strip();
        return line.length() <= MAX_ERROR_CHARS ? line : line.substring(0, MAX_ERROR_CHARS) + "...";
    }

    String encode() {
        return "fileId=" + fileId + "\nat=" + at + "\ncount=" + count + "\nlast=" + last + "\n";
    }

    /** What {@link #encode()} wrote; empty for anything else, which then counts for nothing. */
    static Optional<FileCrashes> decode(String text) {
        Map<String, String> fields = new HashMap<>();
        for (String line : text.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                fields.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        try {
            return Optional.of(new FileCrashes(fields.getOrDefault("fileId", ""),
                    Long.parseLong(fields.getOrDefault("at", "")), Integer.parseInt(fields.getOrDefault("count", "")),
                    fields.getOrDefault("last", "")));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
