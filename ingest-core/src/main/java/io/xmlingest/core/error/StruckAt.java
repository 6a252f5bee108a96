package io.xmlingest.core.error;

import java.util.Optional;

/**
 * Where an error no stage handles struck (an {@link Error}: out of memory, a class missing), added
 * to it as a suppressed exception on its way out, so that whoever reports it can name the record.
 * The error itself is let through unchanged: nothing can tell whether the JVM is still sound.
 */
public final class StruckAt extends RuntimeException {

    private StruckAt(String where) {
        super(where, null, false, false);
    }

    /** Adds to {@code error} that it struck {@code where} (what the file's reader or a binder was doing). */
    public static void note(Throwable error, String where) {
        error.addSuppressed(new StruckAt(where));
    }

    /** Where {@code error} struck, when it was noted. */
    public static Optional<String> of(Throwable error) {
        for (Throwable s : error.getSuppressed()) {
            if (s instanceof StruckAt at) {
                return Optional.of(at.getMessage());
            }
        }
        return Optional.empty();
    }
}
