package io.xmlingest.core.split;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.xml.namespace.QName;

/**
 * Counts what the splitter passes over beside the records (see {@link RecordSplitter#passedOver()}): elements that
 * are no record, and text that is not white space, under an element at the path of a record's parent.
 *
 * <p>Before a path has had a record, nothing is known to be beside records there, so what is met under it is kept
 * aside, by the path's hash (as {@link RecordParents} keeps paths), and counted when its first record comes: a
 * misspelt first record, a header, or a misspelt record of a second kind ahead of that kind's first one were dropped
 * without a word. Kept aside are at most {@link #MAX_PATHS} paths and {@link #MAX_KEPT} names in all, with at most
 * {@code maxNames} names per path, past which they count as "others".
 *
 * <p>Names are kept as the parser's {@link QName}s, whose namespace the parser interns: made into text for each
 * element, a 64 KB namespace cost its length in every element, and a header of two million small elements took
 * minutes.
 */
final class PassedOverCount {
    private static final int MAX_PATHS = 1000;
    private static final int MAX_KEPT = 1000;
    /** Neither can be an element's name: '#' starts no XML name. */
    static final QName TEXT = new QName("", RecordSplitter.PASSED_TEXT);
    private static final QName OTHERS = new QName("", "#others");

    private final int maxNames;
    /** Written by the reading thread, read by another once it has ended. */
    private final Map<QName, Long> counted = new ConcurrentHashMap<>();
    private final Map<Long, Map<QName, Long>> kept = new HashMap<>();
    private int keptNames;
    /** The elements noted that are open at the cursor, innermost first. */
    private final ArrayDeque<Noted> open = new ArrayDeque<>();

    private record Noted(long parent, QName key, int depth, boolean kept) {
    }

    PassedOverCount(int maxNames) {
        this.maxNames = maxNames;
    }

    /** An element that is no record starts at {@code depth}, under the parent at path {@code parent}. */
    void element(long parent, boolean besideRecords, QName name, int depth) {
        if (besideRecords) {
            open.push(new Noted(parent, count(counted, name, 1L), depth, false));
        } else {
            QName key = keep(parent, name);
            if (key != null) {
                open.push(new Noted(parent, key, depth, true));
            }
        }
    }

    /** A run of text that is not white space, under the parent at path {@code parent}. */
    void text(long parent, boolean besideRecords) {
        if (besideRecords) {
            count(counted, TEXT, 1L);
        } else {
            keep(parent, TEXT);
        }
    }

    /** An element outside the records ends at {@code depth}: if it was noted, it held no record and stays counted. */
    void ended(int depth) {
        if (!open.isEmpty() && open.peek().depth() == depth) {
            open.pop();
        }
    }

    /**
     * A record starts under the parent at path {@code parent}: what was kept aside under that path is counted, and
     * the noted elements around it (a {@code <batch>} of records beside records) held a record after all.
     */
    void recordStarts(long parent) {
        while (!open.isEmpty()) {
            Noted n = open.pop();
            Map<QName, Long> aside = n.kept() ? kept.get(n.parent()) : null;
            Map<QName, Long> from = aside != null && aside.containsKey(n.key()) ? aside : counted;
            if (from.computeIfPresent(n.key(), (k, c) -> c > 1 ? c - 1 : null) == null && from == aside) {
                keptNames--;
            }
        }
        Map<QName, Long> aside = kept.remove(parent);
        if (aside != null) {
            keptNames -= aside.size();
            aside.forEach((name, n) -> count(counted, name, n));
        }
    }

    /** What was counted, by name ({namespace}local, "#text", "others"). */
    Map<String, Long> asMap() {
        Map<String, Long> out = new LinkedHashMap<>();
        counted.forEach((name, n) -> out.merge(name == OTHERS ? "others" : name == TEXT ? RecordSplitter.PASSED_TEXT
                : name.toString(), n, Long::sum));
        return Map.copyOf(out);
    }

    private QName count(Map<QName, Long> into, QName name, long n) {
        QName key = name == TEXT || into.containsKey(name) || into.size() < maxNames ? name : OTHERS;
        into.merge(key, n, Long::sum);
        return key;
    }

    /** Keeps a name aside under its parent's path; the key it was kept under, or null when the bounds are reached. */
    private QName keep(long parent, QName name) {
        Map<QName, Long> here = kept.get(parent);
        if (here == null) {
            if (kept.size() >= MAX_PATHS || keptNames >= MAX_KEPT) {
                return null;
            }
            here = new HashMap<>();
            kept.put(parent, here);
        }
        QName key = name == TEXT || here.containsKey(name) || (here.size() < maxNames && keptNames < MAX_KEPT)
                ? name : OTHERS;
        if (here.merge(key, 1L, Long::sum) == 1L) {
            keptNames++;
        }
        return key;
    }
}
