package io.xmlingest.core.pipeline;

import io.xmlingest.core.checkpoint.Checkpoint;
import io.xmlingest.core.checkpoint.CheckpointStore;
import io.xmlingest.core.checkpoint.FileState;
import io.xmlingest.core.publish.Envelope;
import io.xmlingest.core.publish.TopicNames;
import io.xmlingest.core.split.CompressedInput;
import io.xmlingest.core.split.Shard;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The file-level messages of a file ingested in shards: its started event and first checkpoint
 * when it is cut, and its completed or failed event with its final checkpoint once every shard
 * has ended. Each shard commits its own records, dead letters and checkpoints
 * ({@link TransactionalIngestion} with a {@link FileJob#shard()}); these only frame them.
 */
public final class ShardedFiles {

    private final TopicNames topics;
    private final String worker;

    public ShardedFiles(TopicNames topics, String worker) {
        this.topics = topics;
        this.worker = worker;
    }

    /** To commit with the file's work orders: its started event, and a checkpoint saying it is under way. */
    public List<Envelope> planned(FileJob file, int shards) {
        FileMessages messages = new FileMessages(topics, file.name(), file.fileId(), worker);
        Checkpoint cut = new Checkpoint(file.fileId(), file.name(), FileState.IN_PROGRESS, 0, null, 0, 0, 0, null, -1,
                shards);
        return List.of(messages.planned(file.bytes(), inflatedBytes(file), shards), messages.checkpoint(cut));
    }

    /**
     * To commit with new work orders for a failed file's failed shards, dropped again: each of those
     * shards, and the file, in progress again where they stood. No event: the file's completed or
     * failed event follows once the shards have ended again, with totals counted afresh from them.
     */
    public List<Envelope> retried(Checkpoint failedFile, List<Checkpoint> failedShards) {
        FileMessages messages = new FileMessages(topics, failedFile.fileName(), failedFile.fileId(), worker);
        List<Envelope> all = new ArrayList<>();
        for (Checkpoint c : failedShards) {
            all.add(messages.checkpoint(c.reopened()));
        }
        all.add(messages.checkpoint(failedFile.reopened()));
        return all;
    }

    /**
     * The shard a shard's checkpoint is the progress of, as it was cut, so that a failed shard can
     * be ordered again without its first work order. Empty when the checkpoint does not keep its
     * bounds: one written before shards kept them.
     */
    public static Optional<Shard> shardOf(Checkpoint shard) {
        return shard.shard() < 0 || shard.bounds() == null ? Optional.empty()
                : Optional.of(Positions.shard(shard.shard(), shard.bounds()));
    }

    /**
     * The file's ending, when every one of its {@code shards} has ended and the file itself has
     * not: its completed event (or failed, if a shard failed) and final checkpoint, counting
     * every shard. Empty while a shard is under way, or when the ending is already committed.
     */
    public Optional<Ending> ending(FileJob file, int shards, CheckpointStore store) {
        if (!endable(file.fileId(), shards, store)) {
            return Optional.empty();
        }
        long records = 0;
        long deadLetters = 0;
        long pages = 0;
        long next = 0;
        Checkpoint failed = null;
        for (int i = 0; i < shards; i++) {
            Checkpoint c = store.find(Checkpoint.key(file.fileId(), i)).orElseThrow();
            records += c.records();
            deadLetters += c.deadLetters();
            pages += c.pages();
            next = Math.max(next, c.nextRecordIndex());
            if (c.state() == FileState.FAILED && failed == null) {
                failed = c;
            }
        }
        FileMessages messages = new FileMessages(topics, file.name(), file.fileId(), worker);
        Checkpoint total = new Checkpoint(file.fileId(), file.name(), failed == null ? FileState.COMPLETED : FileState.FAILED,
                next, null, records, deadLetters, pages, failed == null ? null : failed.reason(), -1, shards, null,
                failed == null ? null : failed.failure());
        // Each shard's run logged what it passed over; the file's event does not gather them.
        Envelope event = failed == null ? messages.completed(total, file.bytes(), inflatedBytes(file), Map.of())
                : messages.shardsFailed(total, failed.shard(), failed.reason(), failed.failure());
        return Optional.of(new Ending(total, List.of(event, messages.checkpoint(total))));
    }

    /**
     * A compressed file's inflated size, from the plain copy its shards read; -1 for a plain file, or
     * when the copy is gone (its events then give the file's size alone).
     */
    private static long inflatedBytes(FileJob file) {
        return CompressedInput.copySize(file.path(), file.fileId());
    }

    /** True when, as {@code store} tells, every one of the file's {@code shards} has ended and the file has not. */
    public static boolean endable(String fileId, int shards, CheckpointStore store) {
        if (store.find(fileId).map(Checkpoint::isFinished).orElse(false)) {
            return false;
        }
        for (int i = 0; i < shards; i++) {
            if (!store.find(Checkpoint.key(fileId, i)).map(Checkpoint::isFinished).orElse(false)) {
                return false;
            }
        }
        return true;
    }

    /** A file's final checkpoint and the messages that commit it. */
    public record Ending(Checkpoint checkpoint, List<Envelope> messages) {
    }
}
