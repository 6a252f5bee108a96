package io.xmlingest.app.worker;

import io.xmlingest.app.AppSettings;
import io.xmlingest.core.checkpoint.CheckpointStore;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.publish.Envelope;
import io.xmlingest.core.publish.TransactionalPublisher;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Forgets files that completed longer ago than {@code worker.completed.retention.ms}: their
 * checkpoints (a whole file's, and its shards' if it was cut) are deleted with tombstones on the
 * compacted checkpoint topic, committed like any checkpoint, and then from the store's memory. So
 * a long-lived worker holds what it ingested within the retention, not everything it ever did.
 */
final class CompletedRetention {

    private static final Logger LOG = LoggerFactory.getLogger(CompletedRetention.class);
    private static final long MAX_CHECK_NANOS = TimeUnit.MINUTES.toNanos(1);
    // Deletions per transaction: a long-idle worker's first look may find a great many.
    private static final int BATCH = 10_000;

    private final long retentionMillis;
    private final long checkNanos;
    private final String topic;
    private long lastCheck;

    CompletedRetention(IngestConfig config, String checkpointTopic) {
        this.retentionMillis = config.get(AppSettings.COMPLETED_RETENTION_MS);
        this.checkNanos = Math.min(MAX_CHECK_NANOS, TimeUnit.MILLISECONDS.toNanos(retentionMillis));
        this.topic = checkpointTopic;
    }

    /** The keys to delete now; empty when retention is off, it is not yet time to look, or nothing is old enough. */
    List<String> due(CheckpointStore store) {
        if (retentionMillis == 0 || (lastCheck != 0 && System.nanoTime() - lastCheck < checkNanos)) {
            return List.of();
        }
        lastCheck = System.nanoTime();
        return store.completedBefore(System.currentTimeMillis() - retentionMillis);
    }

    /** Commits the deletions of {@code keys} and forgets them; a failed commit leaves them for the next look. */
    void delete(List<String> keys, CheckpointStore store, TransactionalPublisher publisher) {
        for (int from = 0; from < keys.size(); from += BATCH) {
            List<String> batch = keys.subList(from, Math.min(keys.size(), from + BATCH));
            List<Envelope> tombstones = new ArrayList<>(batch.size());
            for (String key : batch) {
                tombstones.add(new Envelope(topic, key.getBytes(StandardCharsets.UTF_8), null, Map.of()));
            }
            publisher.commit(tombstones);
            store.forget(batch);
        }
        long files = keys.stream().filter(k -> k.indexOf('/') < 0).count();
        LOG.info("forgot {} file(s) completed more than {} ms ago ({}; {} checkpoint(s) deleted): the same content "
                + "dropped again is ingested anew", files, retentionMillis, AppSettings.COMPLETED_RETENTION_MS.key(),
                keys.size());
    }
}
