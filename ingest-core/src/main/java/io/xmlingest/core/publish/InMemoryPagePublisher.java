package io.xmlingest.core.publish;

import io.xmlingest.core.page.Page;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** A publisher that keeps pages in memory: the test double for everything that is not about Kafka. */
public final class InMemoryPagePublisher implements PagePublisher {

    private final List<Page> pages = Collections.synchronizedList(new ArrayList<>());
    private volatile RuntimeException failure;

    @Override
    public CompletableFuture<Page> publish(Page page) {
        if (failure != null) {
            return CompletableFuture.failedFuture(failure);
        }
        pages.add(page);
        return CompletableFuture.completedFuture(page);
    }

    /** Makes every later publish fail with this exception. */
    public void failWith(RuntimeException e) {
        this.failure = e;
    }

    public List<Page> pages() {
        return List.copyOf(pages);
    }

    @Override
    public void close() {
    }
}
