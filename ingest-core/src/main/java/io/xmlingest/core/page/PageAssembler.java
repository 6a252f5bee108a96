package io.xmlingest.core.page;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;


/**
 * Groups one file's records into pages bounded by count and bytes. A record larger than the
 * byte bound is never split or dropped: it forms a page of its own.
 */
public final class PageAssembler {

    private final String fileName;
    private final String fileId;
    private final PagePolicy policy;
    private List<OutgoingRecord> records = new ArrayList<>();
    private long bytes;
    private long nextPageNumber;

    public PageAssembler(String fileName, String fileId, PagePolicy policy) {
        this(fileName, fileId, policy, 0);
    }

    /** @param firstPageNumber the number of the first page: a resumed file goes on numbering where it stopped */
    public PageAssembler(String fileName, String fileId, PagePolicy policy, long firstPageNumber) {
        this.fileName = fileName;
        this.fileId = fileId;
        this.policy = policy;
        this.nextPageNumber = firstPageNumber;
    }

    /**
     * Adds a record and returns the pages that closed: a page closes before a record that would
     * push it over the byte bound, and as soon as it holds the maximum count, so a full page is
     * published without waiting for the next record (which may never come, if the file breaks).
     * Every page respects both bounds, except a single record larger than the byte bound.
     */
    public List<Page> add(OutgoingRecord record) {
        List<Page> closed = List.of();
        if (!records.isEmpty() && bytes + record.size() > policy.maxBytes()) {
            closed = List.of(close());
        }
        records.add(record);
        bytes += record.size();
        if (records.size() >= policy.maxRecords()) {
            Page full = close();
            closed = closed.isEmpty() ? List.of(full) : List.of(closed.get(0), full);
        }
        return closed;
    }

    /** Closes the open page at the end of the file, if it holds any record. */
    public Optional<Page> finish() {
        return records.isEmpty() ? Optional.empty() : Optional.of(close());
    }

    private Page close() {
        Page page = new Page(fileName, fileId, nextPageNumber++, records, bytes);
        records = new ArrayList<>(Math.min(policy.maxRecords(), 4096));
        bytes = 0;
        return page;
    }
}
