package io.xmlingest.app.worker;

import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.FileFailedException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * Finds a claimed file's identity. Hashing a large file costs a read of every byte, which a
 * restart would pay before publishing anything; a file whose size and modification time are what
 * they were when it was first hashed keeps its recorded hash.
 */
final class ClaimIdentity {

    private final BiFunction<Path, Long, String> hash;

    /**
     * @param hash the SHA-256 in hex of the file's first so many bytes (a plain file's; a compressed one's content is
     *             hashed whole), or null when asked to stop; may throw {@link FileFailedException}
     */
    ClaimIdentity(BiFunction<Path, Long, String> hash) {
        this.hash = hash;
    }

    /**
     * The file's identity now: the recorded one when the file still matches it, else a new hash
     * (which the caller compares with the recorded one, if any, to refuse a changed file); null
     * when asked to stop while a compressed file was inflated for it.
     *
     * @throws FileFailedException when the file cannot be read
     */
    RecordedIdentity identify(Path claimed, Optional<RecordedIdentity> recorded) {
        BasicFileAttributes before = attributes(claimed);
        if (recorded.isPresent() && recorded.get().stillDescribes(before)) {
            return recorded.get();
        }
        // Read before hashing, and only so much hashed: a file written to meanwhile then differs from what is recorded,
        // and the worker reads no further than the size recorded.
        String sha256 = hash.apply(claimed, before.size());
        return sha256 == null ? null : RecordedIdentity.of(sha256, before);
    }

    private static BasicFileAttributes attributes(Path file) {
        try {
            return Files.readAttributes(file, BasicFileAttributes.class);
        } catch (IOException e) {
            throw FileFailedException.unreadable(file.toString(), e);
        }
    }
}
