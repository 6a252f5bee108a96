package io.xmlingest.core.checkpoint;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The last committed checkpoint of every file. Writing a checkpoint is part of a page's
 * transaction, so it is not this interface's business; this one reads them back, and is told
 * of each commit so that it need not read its own writes.
 */
public interface CheckpointStore extends AutoCloseable {

    /** Catches up with every checkpoint committed so far, by this process or any other. */
    void refresh();

    /**
     * Tells {@code progress} each time a {@link #refresh} receives checkpoints: a long read of a
     * large topic is Kafka answering, not Kafka away. One listener; a later one replaces it.
     */
    default void onProgress(Runnable progress) {
    }

    /** The last checkpoint stored under {@code key}: a file id, or a shard's {@link Checkpoint#key(String, int)}. */
    Optional<Checkpoint> find(String key);

    /** Records a checkpoint this process has just committed, not as any worker's. */
    default void committed(Checkpoint checkpoint) {
        committed(checkpoint, null);
    }

    /** Records a checkpoint this process has just committed as {@code worker} (null: no worker's). */
    void committed(Checkpoint checkpoint, String worker);

    /**
     * What to delete to forget the files that one of {@code workers} completed before
     * {@code epochMillis} (by when their completed checkpoint was written): each such file's key and,
     * for a file cut into shards, its shards' keys. Nothing is forgotten here; see {@link #forget}.
     */
    List<String> completedBefore(long epochMillis, Set<String> workers);

    /** Forgets what is stored under these keys, once their deletion is committed. */
    void forget(Collection<String> keys);

    @Override
    void close();
}
