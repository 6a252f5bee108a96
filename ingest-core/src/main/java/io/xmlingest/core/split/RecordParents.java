package io.xmlingest.core.split;

import java.util.Arrays;

/**
 * Where records were found, by the path of names ({ns}local, from the root) of their parent element, so that an
 * element beside the records (a child of an element at such a path) is told from one at the same depth under
 * another parent: with records at /catalog/items/item, /catalog/meta/entry is no misspelt record. A path, not the
 * parent element itself: a second {@code <items>} that holds only misspelt records is beside the records too.
 * Several record names (see {@link RecordElements}) may have parents at several paths.
 *
 * <p>A path is kept as a 64-bit hash of its names, never as text: a namespace URI may be 64 KB and elements may
 * nest hundreds deep, and paths as strings held the URI once per level of every open element, which a 63 KB file
 * made gigabytes of. Two paths whose hashes collide would have a cousin counted as passed over, which is only a
 * warning.
 */
final class RecordParents {
    // A file that wraps each record in a parent of a new name would otherwise grow the set with every record; past
    // it, elements under parents not yet seen go uncounted.
    private static final int MAX_PATHS = 1000;
    private static final long ROOT = 0x6A09E667F3BCC909L;

    /** The path hash of each open element around the records, the innermost last. */
    private long[] open = new long[16];
    private int depth;
    /**
     * The parents' path hashes, sorted, in the first {@code parentCount} places: asked at every record and at every
     * element or text outside one, where a set of {@code Long} boxed a value each time; a file has few such paths.
     */
    private long[] parents = new long[4];
    private int parentCount;

    void enter(String namespace, String localName) {
        if (depth == open.length) {
            open = Arrays.copyOf(open, depth * 2);
        }
        open[depth] = step(current(), namespace == null ? "" : namespace, localName);
        depth++;
    }

    void leave() {
        if (depth > 0) {
            depth--;
        }
    }

    /** A record starts now, as a child of the innermost open element (none for a record at the root). */
    void recordStarts() {
        long path = current();
        int at = Arrays.binarySearch(parents, 0, parentCount, path);
        if (at >= 0 || parentCount == MAX_PATHS) {
            return;
        }
        int insertAt = -at - 1;
        if (parentCount == parents.length) {
            parents = Arrays.copyOf(parents, parentCount * 2);
        }
        System.arraycopy(parents, insertAt, parents, insertAt + 1, parentCount - insertAt);
        parents[insertAt] = path;
        parentCount++;
    }

    /** Whether an element starting now, not yet entered, has the parent of a record found before. */
    boolean besideRecords() {
        return besideRecords(current());
    }

    /** Whether {@code path}, as {@link #current()} gave it, is the parent's path of a record found before. */
    boolean besideRecords(long path) {
        return parentCount > 0 && Arrays.binarySearch(parents, 0, parentCount, path) >= 0;
    }

    /** The path of the innermost open element: the parent of an element or text met now. */
    long current() {
        return depth == 0 ? ROOT : open[depth - 1];
    }

    /** The path one level below {@code parent}; the namespace and the local name are mixed in apart, so "a:b" + "c" is not "a" + "b:c". */
    private static long step(long parent, String namespace, String localName) {
        long h = (parent ^ namespace.hashCode()) * 0x9E3779B97F4A7C15L;
        h = (h ^ (h >>> 32) ^ localName.hashCode()) * 0xC2B2AE3D27D4EB4FL;
        return h ^ (h >>> 29);
    }
}
