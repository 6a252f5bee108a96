package io.xmlingest.core.error;

import java.util.function.Supplier;

/**
 * An {@link Error} (out of memory, a class missing) that struck while the file's reader or a binder
 * had a record in hand, carrying where: the error itself is its cause. Nothing can tell whether the
 * JVM is still sound after one, so unlike a record's or a file's fault it stops the file in hand and
 * goes to whoever runs the file. It wraps rather than annotates the error: the JVM's own
 * out-of-memory errors take no suppressed exception, and would lose the record they struck.
 */
public final class RecordError extends Error {

    private final String where;

    /** @param where what was being done, as "while reading file F, record index R, line L, ..." */
    public RecordError(Error cause, String where) {
        super(cause + " " + where, cause);
        this.where = where;
    }

    /**
     * {@code cause} wrapped with where it struck, or {@code cause} alone when even the wrapper cannot
     * be made: a second out-of-memory while the first is described must not take the first's place,
     * nor leave whoever waits for the record waiting.
     */
    public static Error placed(Error cause, Supplier<String> where) {
        try {
            return new RecordError(cause, where.get());
        } catch (Error | RuntimeException e) {
            return cause;
        }
    }

    public String where() {
        return where;
    }
}
