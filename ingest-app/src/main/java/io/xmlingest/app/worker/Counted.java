package io.xmlingest.app.worker;

/** A count and its noun for log lines, which people read: "1 dead letter", not "1 dead letters". */
final class Counted {

    private Counted() {
    }

    /** The count and the noun, with an s unless the count is one; for the nouns of this package, all regular. */
    static String of(long count, String noun) {
        return count + " " + (count == 1 ? noun : noun + "s");
    }
}
