package io.xmlingest.core.split;

import java.util.Locale;

/** What a DOCTYPE in an input file may do. Nothing external is ever opened under any policy. */
public enum DoctypePolicy {
    /** Any DOCTYPE fails the file. */
    REJECT,
    /** The DTD is not processed; a reference to an entity it declares is an error. */
    IGNORE,
    /**
     * Entities declared in the internal subset are expanded, within the entity limits; the
     * external subset and external entities are never read.
     */
    INTERNAL;

    public static DoctypePolicy of(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }
}
