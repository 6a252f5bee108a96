package io.xmlingest.app.worker;

import io.xmlingest.app.AppSettings;
import io.xmlingest.core.checkpoint.CheckpointStore;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.publish.Envelope;
import io.xmlingest.core.publish.TransactionalPublisher;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Forgets files that completed longer ago than {@code worker.completed.retention.ms}: their
 * checkpoints (a whole file's, and its shards' if it was cut) are deleted with tombstones on the
 * compacted checkpoint topic, committed like any checkpoint, and then from the store's memory. So
 * a long-lived worker holds what it ingested within the retention, not everything it ever did.
 *
 * <p>A tombstone cannot be made conditional on what it deletes, so what is deleted is worked out
 * just before: from the store read up to then, only files a worker of this inbox completed, and
 * none that some worker of the inbox has in hand (a completed file not yet moved on still needs its
 * checkpoint).
 */
final class CompletedRetention {

    private static final Logger LOG = LoggerFactory.getLogger(CompletedRetention.class);
    private static final long CHECK_MILLIS = 60_000;
    // Deletions per transaction: a long-idle worker's first look may find a great many.
    private static final int BATCH = 10_000;

    private final long retentionMillis;
    private final String topic;
    private final Clock clock;
    private long lastCheck = Long.MIN_VALUE;

    CompletedRetention(IngestConfig config, String checkpointTopic, Clock clock) {
        this.retentionMillis = config.get(AppSettings.COMPLETED_RETENTION_MS);
        this.topic = checkpointTopic;
        this.clock = clock;
    }

    /**
     * The keys to delete now: empty when retention is off, the last look was less than a minute
     * ago, or nothing is old enough. Reads the store up to now first.
     */
    List<String> due(CheckpointStore store, Inbox inbox) {
        long now = clock.millis();
        if (retentionMillis == 0 || (lastCheck != Long.MIN_VALUE && now - lastCheck < CHECK_MILLIS)) {
            return List.of();
        }
        lastCheck = now;
        try {
            store.refresh();
            // Only files this inbox's workers completed: a worker of another inbox on the same topics may hold
            // one it completed and has not moved yet, which no folder here shows.
            List<String> keys = store.completedBefore(now - retentionMillis, inbox.workerIds());
            if (keys.isEmpty()) {
                return keys;
            }
            Set<String> held = inbox.fileIdsInHand();
            return keys.stream().filter(k -> !held.contains(fileIdOf(k))).toList();
        } catch (UncheckedIOException e) {
            // Not knowing what is in hand, delete nothing: the next look, a minute on, tries again.
            LOG.warn("not forgetting old files this time: {}", e.getMessage());
            return List.of();
        }
    }

    private static String fileIdOf(String key) {
        int slash = key.indexOf('/');
        return slash < 0 ? key : key.substring(0, slash);
    }

    /** Whether something written at {@code epochMillis} is older than any retention may be: an hour. */
    boolean olderThanShortestRetention(long epochMillis) {
        return clock.millis() - epochMillis >= AppSettings.COMPLETED_RETENTION_MIN_MS;
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
