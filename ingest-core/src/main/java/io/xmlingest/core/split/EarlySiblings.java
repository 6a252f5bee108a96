package io.xmlingest.core.split;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The elements met before the first record, by depth, since their parent began: once the first record is found, those
 * beside it (its earlier siblings) are passed over as the elements beside later records are. Without them, a first
 * record whose name was misspelt or wrongly qualified, or a file's only one, left the file without a word.
 *
 * <p>Only the children of the open elements are kept, each level cleared as a new parent begins, and at most
 * {@code maxNames} names in all, past which they count as "others": a long header costs no more than its names.
 */
final class EarlySiblings {
    private final int maxNames;
    private final List<Map<String, Long>> byDepth = new ArrayList<>();
    private int names;

    EarlySiblings(int maxNames) {
        this.maxNames = maxNames;
    }

    /** An element that is no record starts at {@code depth} (the root's is 1). */
    void started(int depth, String name) {
        while (byDepth.size() <= depth) {
            byDepth.add(null);
        }
        Map<String, Long> here = byDepth.get(depth);
        if (here == null) {
            here = new HashMap<>();
            byDepth.set(depth, here);
        }
        String key = here.containsKey(name) || names < maxNames ? name : "others";
        if (here.merge(key, 1L, Long::sum) == 1L) {
            names++;
        }
        // Its children start afresh, and so does everything below them.
        List<Map<String, Long>> below = byDepth.subList(depth + 1, byDepth.size());
        for (Map<String, Long> gone : below) {
            names -= gone == null ? 0 : gone.size();
        }
        below.clear();
    }

    /** The elements that came before a record starting at {@code depth}, under the same parent. */
    Map<String, Long> before(int depth) {
        Map<String, Long> here = depth < byDepth.size() ? byDepth.get(depth) : null;
        return here == null ? Map.of() : Map.copyOf(here);
    }
}
