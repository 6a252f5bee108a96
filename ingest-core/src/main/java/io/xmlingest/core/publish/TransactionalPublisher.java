package io.xmlingest.core.publish;

import io.xmlingest.core.page.Page;
import java.util.List;

/**
 * Publishes pages and the messages that belong with them all or nothing: a consumer reading
 * committed data sees the whole batch or none of it. Not shared between threads.
 */
public interface TransactionalPublisher extends AutoCloseable {

    /**
     * Adds a page's records to the open transaction, opening one if none is. They may be sent at
     * once, but become visible only with the next {@link #commit}; failures may surface only there.
     */
    void send(Page page);

    /**
     * Adds {@code with} to the open transaction (opening one if none is) and returns once
     * everything sent since the last commit is committed. Throws a
     * {@link io.xmlingest.core.error.RetriableIngestException} when Kafka cannot be reached or
     * refuses for a while (nothing of the transaction is visible; this publisher is then spent and
     * a new one must be opened), a {@link io.xmlingest.core.error.FileFailedException} when a
     * message can never be published (the transaction is aborted; the publisher can go on).
     */
    void commit(List<Envelope> with);

    /**
     * How long the {@link #send} or {@link #commit} in progress has been waiting with nothing
     * acknowledged, in nanoseconds; 0 when none is in progress. Read from any thread: a worker's
     * health tells from it that Kafka has stopped answering long before a commit's own timeout
     * says so, and a step that is slow only because Kafka drains a full buffer slowly keeps
     * seeing acknowledgements, so it is not taken for an outage.
     */
    default long waitingNanos() {
        return 0;
    }

    @Override
    void close();
}
