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

    /** @param firstPageNumber the number the first page gets (a resumed file continues its numbering) */
    public PageAssembler(String fileName, String fileId, PagePolicy policy, long firstPageNumber) {
        this.fileName = fileName;
        this.fileId = fileId;
        this.policy = policy;
        this.nextPageNumber = firstPageNumber;
    }

    /**
     * Adds a record; returns the page it closed, if any. A page closes when the next record
     * would not fit: the page already holds the maximum count, or the record would push it over
     * the byte bound. So every page respects both bounds, except a single oversized record.
     */
    public Optional<Page> add(OutgoingRecord record) {
        Optional<Page> closed = Optional.empty();
        if (!records.isEmpty()
                && (records.size() >= policy.maxRecords() || bytes + record.size() > policy.maxBytes())) {
            closed = Optional.of(close());
        }
        records.add(record);
        bytes += record.size();
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
