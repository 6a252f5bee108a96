package io.xmlingest.core.publish;

import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.FileFailedException;
import io.xmlingest.core.error.RetriableIngestException;
import io.xmlingest.core.page.OutgoingRecord;
import io.xmlingest.core.page.Page;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.function.LongPredicate;

/**
 * Commits into lists: for tests of what a pipeline commits, and when. A predicate on the commit
 * number can make a commit fail as a lost broker would, before anything of it is kept.
 */
public final class InMemoryTransactionalPublisher implements TransactionalPublisher {

    private final List<OutgoingRecord> records = new ArrayList<>();
    private final List<Envelope> envelopes = new ArrayList<>();
    private final List<Page> pending = new ArrayList<>();
    private final IntPredicate failCommit;
    private LongPredicate refused = i -> false;
    private int commits;

    public InMemoryTransactionalPublisher() {
        this(n -> false);
    }

    /** @param failCommit given the 0-based number of a commit attempt, true to fail it */
    public InMemoryTransactionalPublisher(IntPredicate failCommit) {
        this.failCommit = failCommit;
    }

    @Override
    public void send(Page page) {
        pending.add(page);
    }

    @Override
    public void commit(List<Envelope> with) {
        List<Page> pages = List.copyOf(pending);
        pending.clear();
        if (failCommit.test(commits++)) {
            throw new RetriableIngestException("simulated loss of the broker at commit " + (commits - 1), null, null, null);
        }
        for (Page p : pages) {
            for (OutgoingRecord r : p.records()) {
                if (refused.test(r.index())) {
                    throw new FileFailedException("record refused by the broker (simulated)",
                            ErrorLocation.ofFile(p.fileName()).withRecordIndex(r.index()), null, null);
                }
            }
        }
        pages.forEach(p -> records.addAll(p.records()));
        envelopes.addAll(with);
    }

    /** Makes every commit holding a record whose index matches fail as Kafka fails a record it can never take. */
    public InMemoryTransactionalPublisher refusing(LongPredicate recordIndex) {
        this.refused = recordIndex;
        return this;
    }

    public List<OutgoingRecord> records() {
        return records;
    }

    public List<Envelope> envelopes() {
        return envelopes;
    }

    public List<Envelope> envelopes(String topic) {
        return envelopes.stream().filter(e -> e.topic().equals(topic)).toList();
    }

    public int commits() {
        return commits;
    }

    @Override
    public void close() {
    }
}
