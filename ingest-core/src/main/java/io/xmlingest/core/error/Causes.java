package io.xmlingest.core.error;

import java.util.function.Predicate;

/** Looks through an exception's causes: libraries wrap the one that says what happened, often twice. */
public final class Causes {
    private Causes() {
    }

    /** The first of {@code e} and its causes that {@code wanted} accepts, or null. */
    public static Throwable find(Throwable e, Predicate<Throwable> wanted) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (wanted.test(t)) {
                return t;
            }
        }
        return null;
    }
}
