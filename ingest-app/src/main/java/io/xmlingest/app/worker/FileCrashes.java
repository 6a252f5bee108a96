package io.xmlingest.app.worker;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * How often a claimed file has stopped the worker on an unexpected error, kept beside it in the
 * inbox so that a restart knows: a file that stops every worker start would otherwise hold up
 * every file behind it for ever.
 *
 * <p>Every crash counts, wherever in the file it struck, as a queue's delivery count does. Counting
 * only crashes with nothing committed between them does not work: a resumed file commits its first
 * record at once (so that a restart is seen to move), so every start commits something before a
 * fault further on stops it again.
 *
 * @param at    the file's next record index as of its last commit before the last crash
 * @param count the crashes since the file was claimed
 * @param last  the last crash's error, on one line
 */
record FileCrashes(long at, int count, String last) {

    /** Longest error kept: enough for a class and a message, not a stack trace. */
    static final int MAX_ERROR_CHARS = 500;

    /** The crashes once one more, with {@code error}, happened after record {@code at}. */
    static FileCrashes after(Optional<FileCrashes> before, long at, Throwable error) {
        return new FileCrashes(at, before.map(b -> b.count + 1).orElse(1), oneLine(error.toString()));
    }

    /** Whether the next start should set the file aside rather than try it again; never when {@code max} is 0. */
    boolean exhausted(int max) {
        return max > 0 && count >= max;
    }

    private static String oneLine(String s) {
        String line = s.replaceAll("\\s+", " ").strip();
        return line.length() <= MAX_ERROR_CHARS ? line : line.substring(0, MAX_ERROR_CHARS) + "...";
    }

    String encode() {
        return "at=" + at + "\ncount=" + count + "\nlast=" + last + "\n";
    }

    /** What {@link #encode()} wrote; empty for anything else, which then counts for nothing. */
    static Optional<FileCrashes> decode(String text) {
        Map<String, String> fields = new HashMap<>();
        for (String line : text.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                fields.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        try {
            return Optional.of(new FileCrashes(Long.parseLong(fields.getOrDefault("at", "")),
                    Integer.parseInt(fields.getOrDefault("count", "")), fields.getOrDefault("last", "")));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
