package io.xmlingest.core.checkpoint;

import io.xmlingest.core.error.RetriableIngestException;
import io.xmlingest.core.publish.MessageHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the compacted checkpoint topic with a read_committed consumer, so it sees exactly the
 * checkpoints whose records were committed with them. The latest checkpoint per file is kept in
 * memory: one small entry per file ingested (for ever, unless the worker deletes completed files'
 * checkpoints after {@code worker.completed.retention.ms}), which compaction also bounds on the
 * broker, and one per shard of a file cut into shards until that file has completed (a failed
 * file's stay, as its failed shards are taken up again when it is dropped again).
 */
public final class KafkaCheckpointStore implements CheckpointStore {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaCheckpointStore.class);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final String topic;
    private final Duration timeout;
    private final Map<String, Checkpoint> byFile = new HashMap<>();
    private final Map<String, CompletedFiles.Completion> completedAt = new HashMap<>();
    private volatile Runnable progress = () -> { };

    /** @param consumerProperties bootstrap servers and security settings; the rest is set here */
    public KafkaCheckpointStore(Properties consumerProperties, String topic, Duration timeout) {
        this(newConsumer(consumerProperties), topic, timeout);
    }

    /**
     * @param consumer made by {@link #newConsumer}; it may be used for other reads before it is handed
     *                 over (a session checks its topics with it), and is closed with the store
     */
    public KafkaCheckpointStore(KafkaConsumer<byte[], byte[]> consumer, String topic, Duration timeout) {
        this.consumer = consumer;
        this.topic = topic;
        this.timeout = timeout;
    }

    /** A consumer as the store needs it: read_committed, no group, never creating a topic by asking for it. */
    public static KafkaConsumer<byte[], byte[]> newConsumer(Properties consumerProperties) {
        return new KafkaConsumer<>(consumerProperties(consumerProperties));
    }

    /** {@code base} with what the store's consumer needs set over it. */
    public static Properties consumerProperties(Properties base) {
        Properties p = new Properties();
        p.putAll(base);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // A poll leaves a fetch waiting at the broker for new data, and the next refresh's request for the
        // end offsets queues behind it on the connection: with the default 500 ms, the re-read before each
        // file took 0.4 s. This consumer is only polled to catch up, so a short wait costs nothing.
        p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        // A topic made by a metadata request would lack the checkpoint topic's compaction.
        p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        p.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "xmlingest-checkpoints");
        return p;
    }

    @Override
    public synchronized void refresh() {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            if (consumer.assignment().isEmpty()) {
                List<PartitionInfo> partitions = consumer.partitionsFor(topic, timeout);
                consumer.assign(partitions.stream().map(i -> new TopicPartition(topic, i.partition())).toList());
                consumer.seekToBeginning(consumer.assignment());
            }
            // read_committed end offsets are the last stable offsets: everything committed so far.
            Map<TopicPartition, Long> end = consumer.endOffsets(consumer.assignment(), timeout);
            while (!caughtUp(end)) {
                if (System.nanoTime() > deadline) {
                    throw new RetriableIngestException("could not read the checkpoint topic " + topic + " to its end within "
                            + timeout.toMillis() + " ms", null, null, null);
                }
                ConsumerRecords<byte[], byte[]> read = consumer.poll(Duration.ofMillis(200));
                for (ConsumerRecord<byte[], byte[]> r : read) {
                    apply(r);
                }
                if (!read.isEmpty()) {
                    progress.run();
                }
            }
        } catch (KafkaException e) {
            throw new RetriableIngestException("cannot read the checkpoint topic " + topic + ": " + e, null, null, e);
        }
    }

    @Override
    public void onProgress(Runnable progress) {
        this.progress = progress;
    }

    /**
     * Returns once Kafka has told the checkpoint topic's end offsets, which only a partition's
     * leader can: proof that Kafka answers, for a worker with nothing to commit.
     *
     * @throws RetriableIngestException when no answer came within {@code within}
     */
    public synchronized void ping(Duration within) {
        Set<TopicPartition> partitions = consumer.assignment().isEmpty()
                ? Set.of(new TopicPartition(topic, 0)) : consumer.assignment();
        try {
            consumer.endOffsets(partitions, within);
        } catch (KafkaException e) {
            throw new RetriableIngestException("Kafka did not answer within " + within.toMillis() + " ms (" + e + ")",
                    null, null, e);
        }
    }

    private boolean caughtUp(Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey(), timeout) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    private void apply(ConsumerRecord<byte[], byte[]> r) {
        if (r.value() == null) {
            // A deletion (worker.completed.retention.ms) of a completed file nobody has taken up again. One
            // read late, after this process took the file up again or completed it anew, must not undo that:
            // then what is held is newer than the deletion, and stays.
            if (r.key() != null) {
                String key = new String(r.key(), StandardCharsets.UTF_8);
                if (deletes(key, r.timestamp())) {
                    CompletedFiles.forget(byFile, completedAt, List.of(key));
                }
            }
            return;
        }
        try {
            Checkpoint c = CheckpointCodec.decode(r.value());
            if (c.shard() >= 0 && completedInShards(c.fileId())) {
                return;
            }
            // A commit's markers are written after it returns, so a refresh right after this worker's
            // own last commit can read the commit before it: it must not take the file back there.
            Checkpoint held = byFile.get(c.key());
            if (held == null || !c.isBehind(held)) {
                byFile.put(c.key(), c);
                Header worker = r.headers().lastHeader(MessageHeaders.WORKER);
                CompletedFiles.note(completedAt, c, r.timestamp(),
                        worker == null ? null : new String(worker.value(), StandardCharsets.UTF_8));
                forgetShardsOnceEnded(c);
            }
        } catch (IllegalArgumentException e) {
            // Someone else's message on our topic must not stop the worker; it is not ours to read.
            LOG.warn("skipping an unreadable message at {}-{} offset {}: {}", r.topic(), r.partition(), r.offset(),
                    e.getMessage());
        }
    }

    /**
     * Whether a tombstone written at {@code timestamp} deletes what is held under {@code key}: a whole
     * file's completion from before it, or a shard of a file that is not running here again (a new cut
     * of the same content holds an unfinished checkpoint of the file).
     */
    private boolean deletes(String key, long timestamp) {
        Checkpoint held = byFile.get(key);
        if (held == null) {
            return true;
        }
        if (held.shard() >= 0) {
            Checkpoint file = byFile.get(held.fileId());
            return file == null || file.isFinished();
        }
        CompletedFiles.Completion done = completedAt.get(key);
        return done != null && done.at() <= timestamp;
    }

    @Override
    public synchronized Optional<Checkpoint> find(String fileId) {
        return Optional.ofNullable(byFile.get(fileId));
    }

    @Override
    public synchronized void committed(Checkpoint checkpoint, String worker) {
        byFile.put(checkpoint.key(), checkpoint);
        CompletedFiles.note(completedAt, checkpoint, System.currentTimeMillis(), worker);
        forgetShardsOnceEnded(checkpoint);
    }

    @Override
    public synchronized List<String> completedBefore(long epochMillis, Set<String> workers) {
        return CompletedFiles.before(completedAt, byFile, epochMillis, workers);
    }

    @Override
    public synchronized void forget(Collection<String> keys) {
        CompletedFiles.forget(byFile, completedAt, keys);
    }

    /**
     * A file cut into shards completes after all its shards have, and no shard of it runs again (an
     * order seen again is answered by the file's own checkpoint). So its shards' checkpoints are let
     * go: kept, they were twelve of every thirteen entries here with 12 shards a file, and this store
     * lives as long as the worker. A failed file's stay: dropped again, its failed shards are taken up
     * from them, and its ending counts every shard's.
     */
    private void forgetShardsOnceEnded(Checkpoint c) {
        if (c.shard() < 0 && c.state() == FileState.COMPLETED) {
            for (int i = 0; i < c.shards(); i++) {
                byFile.remove(Checkpoint.key(c.fileId(), i));
            }
        }
    }

    private boolean completedInShards(String fileId) {
        Checkpoint file = byFile.get(fileId);
        return file != null && file.state() == FileState.COMPLETED && file.shards() > 0;
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
