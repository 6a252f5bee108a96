package io.xmlingest.core.publish;

import io.xmlingest.core.page.Page;
import java.util.concurrent.CompletableFuture;

/**
 * Hands pages to the downstream system. Not shared between threads.
 */
public interface PagePublisher extends AutoCloseable {

    /**
     * Starts publishing a page. The future completes with the page once every record of it is
     * acknowledged, or exceptionally with an {@link io.xmlingest.core.error.IngestException}
     * naming the first record that failed: a {@link io.xmlingest.core.error.RetriableIngestException}
     * if the same page may succeed later, a {@link io.xmlingest.core.error.FileFailedException} if not.
     * A publisher whose other records of the page may be published all the same fails it, once
     * each record is answered, with a {@link PartlyPublished} holding that exception.
     */
    CompletableFuture<Page> publish(Page page);

    @Override
    void close();
}
