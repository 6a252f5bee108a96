package io.xmlingest.app.worker;

import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;

/**
 * What the worker knew of a claimed file when it began on it: its identity (the SHA-256 of its
 * content) and the size and modification time the file had just before it was hashed. A restart
 * that finds the size and the time unchanged trusts the hash instead of reading the whole file
 * again; anything else is hashed again, so a changed file is still caught.
 *
 * @param size     -1 and {@code modified} null when only the hash was recorded (by an older worker)
 */
record RecordedIdentity(String sha256, long size, FileTime modified) {

    static RecordedIdentity hashOnly(String sha256) {
        return new RecordedIdentity(sha256, -1, null);
    }

    static RecordedIdentity of(String sha256, BasicFileAttributes before) {
        return new RecordedIdentity(sha256, before.size(), before.lastModifiedTime());
    }

    /** True when the file still has the size and modification time it had when it was hashed. */
    boolean stillDescribes(BasicFileAttributes now) {
        return modified != null && size == now.size() && modified.toInstant().equals(now.lastModifiedTime().toInstant());
    }

    String encode() {
        return "sha256=" + sha256 + "\nsize=" + size + "\nmodified=" + (modified == null ? "" : modified.toInstant()) + "\n";
    }

    /**
     * Reads what {@link #encode()} wrote. Text without a sha256 line is taken whole as the hash:
     * that is the marker older workers wrote, and anything else then fails to match any file, so
     * the file is refused rather than resumed on a guess.
     */
    static RecordedIdentity decode(String text) {
        Map<String, String> fields = new HashMap<>();
        for (String line : text.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                fields.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
            }
        }
        String sha256 = fields.get("sha256");
        if (sha256 == null) {
            return hashOnly(text.strip());
        }
        try {
            return new RecordedIdentity(sha256, Long.parseLong(fields.getOrDefault("size", "")),
                    FileTime.from(Instant.parse(fields.getOrDefault("modified", ""))));
        } catch (NumberFormatException | DateTimeParseException e) {
            return hashOnly(sha256); // the hash alone is still worth comparing; the file is read again
        }
    }
}
