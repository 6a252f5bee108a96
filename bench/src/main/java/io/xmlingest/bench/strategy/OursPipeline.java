package io.xmlingest.bench.strategy;

import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.page.Page;
import io.xmlingest.core.pipeline.FileSummary;
import io.xmlingest.core.pipeline.IngestListener;
import io.xmlingest.core.pipeline.IngestionPipeline;
import io.xmlingest.core.publish.KafkaPagePublisher;
import io.xmlingest.core.publish.PagePublisher;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * Ours, the real pipeline with its own phase timers: into a publisher that drops pages
 * (split + bind + serialize), or into a real broker through the plain ingest path (end to end).
 */
final class OursPipeline implements Strategy {

    private final boolean toKafka;
    private PagePublisher publisher;
    private IngestConfig config;

    OursPipeline(boolean toKafka) {
        this.toKafka = toKafka;
    }

    @Override
    public void prepare(Path file, Context context) {
        if (toKafka) {
            if (context.bootstrapServers() == null) {
                throw new IllegalStateException("the end-to-end strategy needs a broker");
            }
            config = IngestConfig.of(IngestSettings.ALL, Map.of(
                    IngestSettings.TOPIC.key(), "bench-" + UUID.randomUUID(),
                    IngestSettings.BOOTSTRAP_SERVERS.key(), context.bootstrapServers()));
            publisher = KafkaPagePublisher.open(config);
        } else {
            config = IngestConfig.of(IngestSettings.ALL, Map.of(IngestSettings.TOPIC.key(), "none"));
            publisher = new Dropping();
        }
    }

    @Override
    public Outcome run(Path file, Context context) {
        FileSummary s = IngestionPipeline.create(config, publisher, IngestListener.NONE).ingest(file);
        return new Outcome(s.records(), s.messageBytes(), s.phases());
    }

    @Override
    public void cleanUp() {
        if (publisher != null) {
            publisher.close();
            publisher = null;
        }
    }

    /** Acknowledges every page at once and keeps nothing, so memory stays flat. */
    private static final class Dropping implements PagePublisher {
        @Override
        public CompletableFuture<Page> publish(Page page) {
            return CompletableFuture.completedFuture(page);
        }

        @Override
        public void close() {
        }
    }
}
