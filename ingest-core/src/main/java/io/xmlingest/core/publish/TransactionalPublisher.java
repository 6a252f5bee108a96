package io.xmlingest.core.publish;

import io.xmlingest.core.page.Page;
import java.util.List;

/**
 * Publishes a page and the messages that belong with it all or nothing: a consumer reading
 * committed data sees the whole batch or none of it. Not shared between threads.
 */
public interface TransactionalPublisher extends AutoCloseable {

    /**
     * Publishes the pages' records and {@code with}, and returns once they
     * are committed. Throws a {@link io.xmlingest.core.error.RetriableIngestException} when Kafka
     * cannot be reached or refuses for a while (nothing of the batch is visible; this publisher is
     * then spent and a new one must be opened), a {@link io.xmlingest.core.error.FileFailedException}
     * when a message can never be published.
     */
    void commit(List<Page> pages, List<Envelope> with);

    @Override
    void close();
}
