package io.xmlingest.core.page;

import java.util.List;

/**
 * A run of consecutive records of one file: the unit handed to the downstream system and
 * acknowledged as a whole.
 *
 * @param fileName the source file's name
 * @param fileId   the source file's identity (hash of its content)
 * @param number   0-based page number within the file
 * @param records  the records, in file order
 * @param bytes    the sum of the records' key and value sizes
 */
public record Page(String fileName, String fileId, long number, List<OutgoingRecord> records, long bytes) {

    public Page {
        records = List.copyOf(records);
        if (records.isEmpty()) {
            throw new IllegalArgumentException("a page holds at least one record");
        }
    }

    public int size() {
        return records.size();
    }

    public long firstIndex() {
        return records.get(0).index();
    }

    public long lastIndex() {
        return records.get(records.size() - 1).index();
    }
}
