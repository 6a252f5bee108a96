package io.xmlingest.datagen;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes a file as FILE.part beside it and renames it when complete, so a reader (an inbox, a cache)
 * never sees a half-written file; a write that fails deletes its FILE.part, which could be gigabytes
 * that a user re-running datagen would have to find and remove.
 */
final class PartFile {

    /** What is written; it may close the stream it is given. */
    interface Body<T> {
        T writeTo(OutputStream stream) throws IOException;
    }

    private PartFile() {
    }

    static Path of(Path file) {
        return file.resolveSibling(file.getFileName() + ".part");
    }

    static <T> T write(Path file, Body<T> body) throws IOException {
        Path partial = of(file);
        // Opened before the try: a FILE.part that cannot be opened (a directory, say) is not ours to delete.
        OutputStream stream = Files.newOutputStream(partial);
        // Ctrl-C or a kill ends the JVM without reaching the catch below, and left gigabytes behind.
        Thread onExit = new Thread(() -> deleteQuietly(partial), "datagen-part-cleanup");
        Runtime.getRuntime().addShutdownHook(onExit);
        try {
            T result;
            try (stream) {
                result = body.writeTo(stream);
            }
            Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return result;
        } catch (Throwable e) {
            // Any failure, a full disk or a record factory's: the caller reports it, the clutter goes.
            try {
                Files.deleteIfExists(partial);
            } catch (IOException | RuntimeException d) {
                e.addSuppressed(d);
            }
            throw e;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(onExit);
            } catch (IllegalStateException shuttingDown) {
                // The hook runs, or has run: the part is deleted either way.
            }
        }
    }

    private static void deleteQuietly(Path partial) {
        try {
            Files.deleteIfExists(partial);
        } catch (IOException | RuntimeException e) {
            // Nothing to report to at exit; the part stays, as it did before.
        }
    }
}
