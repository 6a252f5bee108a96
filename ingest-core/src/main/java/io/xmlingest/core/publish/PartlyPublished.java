package io.xmlingest.core.publish;

import io.xmlingest.core.error.IngestException;
import io.xmlingest.core.page.Page;
import java.util.Optional;

/**
 * How a page's future fails once every one of its records has been answered: with the failure
 * of the first record that failed, and the records Kafka took all the same. Without a
 * transaction those are published, so whoever reports what a failed file left in the topic must
 * count them.
 */
public final class PartlyPublished extends RuntimeException {

    private final transient Page taken;
    private final IngestException failure;

    /** @param taken the page's records Kafka acknowledged, in their order; null when it took none */
    public PartlyPublished(Page taken, IngestException failure) {
        super(failure.getMessage(), failure, false, false);
        this.taken = taken;
        this.failure = failure;
    }

    public Optional<Page> taken() {
        return Optional.ofNullable(taken);
    }

    public IngestException failure() {
        return failure;
    }
}
