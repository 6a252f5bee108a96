package io.xmlingest.core.split;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.xml.namespace.QName;

/**
 * Where records were found, by the path of names ({ns}local, from the root) of their parent element, so that an
 * element beside the records (a child of an element at such a path) is told from one at the same depth under
 * another parent: with records at /catalog/items/item, /catalog/meta/entry is no misspelt record. A path, not the
 * parent element itself: a second {@code <items>} that holds only misspelt records is beside the records too.
 * Several record names (see {@link RecordElements}) may have parents at several paths.
 */
final class RecordParents {
    // A file that wraps each record in a parent of a new name would otherwise grow the set with every record.
    private static final int MAX_PATHS = 1000;

    /** The path of each open element around the records, the innermost last. */
    private final List<String> open = new ArrayList<>();
    private final Set<String> parents = new HashSet<>();

    void enter(QName name) {
        open.add(current() + '/' + name);
    }

    void leave() {
        if (!open.isEmpty()) {
            open.remove(open.size() - 1);
        }
    }

    /** A record starts now, as a child of the innermost open element (none for a record at the root). */
    void recordStarts() {
        if (parents.size() < MAX_PATHS) {
            parents.add(current());
        }
    }

    /** Whether an element starting now, not yet entered, has the parent of a record found before. */
    boolean besideRecords() {
        return !parents.isEmpty() && parents.contains(current());
    }

    private String current() {
        return open.isEmpty() ? "" : open.get(open.size() - 1);
    }
}
