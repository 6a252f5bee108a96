package io.xmlingest.app.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.xmlingest.app.TestBroker;
import io.xmlingest.core.checkpoint.Checkpoint;
import io.xmlingest.core.checkpoint.CheckpointCodec;
import io.xmlingest.core.checkpoint.FileState;
import io.xmlingest.core.checkpoint.KafkaCheckpointStore;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.pipeline.KafkaSession;
import io.xmlingest.core.pipeline.StepTimes;
import io.xmlingest.core.publish.Envelope;
import io.xmlingest.core.publish.KafkaClientSettings;
import io.xmlingest.core.publish.MessageHeaders;
import io.xmlingest.core.publish.TopicNames;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * The worker re-reads the checkpoint topic before each file. A commit's markers are written
 * after the commit returns, so that read can end before the worker's own last checkpoint: it
 * once took a completed file back to its previous checkpoint, and the same content dropped again
 * was ingested a second time from there.
 */
class CheckpointStoreIT {

    private static Checkpoint checkpoint(FileState state, long next, long records) {
        return new Checkpoint("f1", "a.xml", state, next, null, records, 0, next / 100, null);
    }

    /**
     * A sharing worker opens a session per shard on one store, so that a shard's start does not
     * re-read every checkpoint ever kept. The store must still show, once the session is open,
     * what any predecessor under the session's transactional id committed, and outlive the session.
     */
    @Test
    void sessionsOnASharedStoreReadOnAfterTheirFenceAndLeaveItOpen() {
        IngestConfig config = IngestConfig.of(IngestSettings.ALL, Map.of(
                IngestSettings.TOPIC.key(), TestBroker.uniqueTopic("shared-store"),
                IngestSettings.BOOTSTRAP_SERVERS.key(), TestBroker.bootstrapServers()));
        TopicNames topics = TopicNames.of(config);
        java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
        try (KafkaCheckpointStore shared = KafkaSession.checkpoints(config, topics, StepTimes.NONE, reads::incrementAndGet)) {
            assertThat(shared.find("f1/0")).isEmpty();
            assertThat(reads).as("a read that received nothing").hasValue(0);
            try (KafkaSession first = KafkaSession.open(config, shared, "shared-store-shard-0", () -> false, t -> { })) {
                first.publisher().commit(List.of(envelope(topics, shard("f1/0", 0, 500))));
            }
            // Another worker, with a store of its own, commits a shard's checkpoint and dies.
            try (KafkaSession other = KafkaSession.open(config, topics, "shared-store-shard-1", () -> false, t -> { },
                    StepTimes.NONE)) {
                other.publisher().commit(List.of(envelope(topics, shard("f1/1", 1, 700))));
            }
            // This worker takes shard 1 over: its session, on the store it still has open, sees that commit.
            try (KafkaSession takeOver = KafkaSession.open(config, shared, "shared-store-shard-1", () -> false, t -> { })) {
                assertThat(takeOver.checkpoints().find("f1/1")).get().extracting(Checkpoint::nextRecordIndex)
                        .isEqualTo(700L);
                assertThat(takeOver.checkpoints().find("f1/0")).get().extracting(Checkpoint::nextRecordIndex)
                        .isEqualTo(500L);
            }
            // What the worker's health takes for Kafka answering during a long read.
            assertThat(reads).as("reads that received checkpoints").hasPositiveValue();
            shared.refresh();
            assertThat(shared.find("f1/1")).isPresent();
        }
    }

    /**
     * A session reads the checkpoints ahead while its producer is made and fences the predecessor,
     * so that a restart waits for neither in turn. What the predecessor commits after that read and
     * before the fence must still be seen, and what it left open must not.
     */
    @Test
    void aSessionSeesWhatItsPredecessorCommittedAfterTheReadAheadAndNotWhatItLeftOpen() throws Exception {
        IngestConfig config = IngestConfig.of(IngestSettings.ALL, Map.of(
                IngestSettings.TOPIC.key(), TestBroker.uniqueTopic("fence-race"),
                IngestSettings.BOOTSTRAP_SERVERS.key(), TestBroker.bootstrapServers()));
        TopicNames topics = TopicNames.of(config);
        String transactionalId = "xmlingest-" + topics.checkpoints();
        try (KafkaSession first = KafkaSession.open(config, topics, "other-" + transactionalId, () -> false, t -> { },
                StepTimes.NONE)) {
            first.publisher().commit(List.of(envelope(topics, checkpoint(FileState.IN_PROGRESS, 500, 500))));
        }
        CountDownLatch readAhead = new CountDownLatch(1);
        List<String> steps = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (KafkaProducer<byte[], byte[]> predecessor = new KafkaProducer<>(
                KafkaClientSettings.transactionalProducer(config, transactionalId))) {
            predecessor.initTransactions();
            StepTimes between = new StepTimes() {
                @Override
                public void took(String step, long startNanos, long endNanos) {
                    steps.add(step);
                    if (step.equals("checkpoints ahead")) {
                        readAhead.countDown();
                    }
                }

                @Override
                public <T> T time(String step, Supplier<T> work) {
                    if (step.equals("initTransactions")) {
                        try {
                            assertThat(readAhead.await(30, TimeUnit.SECONDS)).as("the read ahead ended").isTrue();
                            predecessor.beginTransaction();
                            predecessor.send(record(topics, checkpoint(FileState.IN_PROGRESS, 900, 900)));
                            predecessor.commitTransaction();
                            predecessor.beginTransaction();
                            predecessor.send(record(topics, checkpoint(FileState.IN_PROGRESS, 1300, 1300)));
                            predecessor.flush();
                        } catch (InterruptedException e) {
                            throw new AssertionError(e);
                        }
                    }
                    return StepTimes.super.time(step, work);
                }
            };
            try (KafkaSession next = KafkaSession.open(config, topics, transactionalId, () -> false, t -> { }, between)) {
                assertThat(next.checkpoints().find("f1")).get().extracting(Checkpoint::nextRecordIndex)
                        .as("committed after the read ahead, before the fence: seen; left open: aborted by the fence")
                        .isEqualTo(900L);
            }
            assertThat(steps).containsSubsequence("checkpoints ahead", "initTransactions", "checkpoints");
        }
    }

    /** A worker lives long: a completed file's shard checkpoints must not stay in its memory for ever. */
    @Test
    void anEndedFilesShardCheckpointsAreLetGoAndNotTakenBack() throws Exception {
        String bootstrap = TestBroker.bootstrapServers();
        String topic = checkpointTopic(bootstrap);
        Properties consumer = consumer(bootstrap);
        Checkpoint ended = new Checkpoint("f2", "b.xml", FileState.COMPLETED, 1200, null, 1200, 0, 3, null, -1, 2);
        try (KafkaProducer<byte[], byte[]> producer = producer(bootstrap);
             KafkaCheckpointStore early = store(consumer, topic)) {
            for (Checkpoint c : List.of(shard("f2/0", 0, 500), shard("f2/1", 1, 700))) {
                send(producer, topic, c, null);
            }
            early.refresh();
            assertThat(early.find("f2/1")).isPresent();
            send(producer, topic, ended, null);
            // A shard's checkpoint after its file's end (none is written so, but a reader must not take it back).
            send(producer, topic, shard("f2/1", 1, 700), null);
            early.refresh();
            assertThat(early.find("f2")).get().extracting(Checkpoint::state).isEqualTo(FileState.COMPLETED);
            assertThat(early.find("f2/0")).isEmpty();
            assertThat(early.find("f2/1")).isEmpty();
        }
        try (KafkaCheckpointStore fresh = store(consumer, topic)) {
            fresh.refresh();
            assertThat(fresh.find("f2")).isPresent();
            assertThat(fresh.find("f2/0")).isEmpty();
            assertThat(fresh.find("f2/1")).isEmpty();
            // This worker's own ending, recorded as its commit returns, lets the shards go too; a failed file's
            // stay, as its failed shards are taken up from them when it is dropped again.
            fresh.committed(shard("f3/0", 0, 10));
            fresh.committed(new Checkpoint("f3", "c.xml", FileState.FAILED, 10, null, 10, 0, 1, "bad", -1, 1));
            assertThat(fresh.find("f3/0")).isPresent();
            fresh.committed(new Checkpoint("f3", "c.xml", FileState.COMPLETED, 10, null, 10, 0, 1, null, -1, 1));
            assertThat(fresh.find("f3/0")).isEmpty();
        }
        // A failed file's shards stay for a reader too, and that file dropped again and taken up by another worker
        // reads as in progress here.
        Checkpoint failed = new Checkpoint("f4", "d.xml", FileState.FAILED, 10, null, 9, 1, 1, "bad", -1, 1);
        try (KafkaProducer<byte[], byte[]> producer = producer(bootstrap);
             KafkaCheckpointStore reader = store(consumer, topic)) {
            send(producer, topic, shard("f4/0", 0, 10), null);
            send(producer, topic, failed, null);
            reader.refresh();
            assertThat(reader.find("f4/0")).isPresent();
            send(producer, topic, failed.reopened(), null);
            reader.refresh();
            assertThat(reader.find("f4")).get().extracting(Checkpoint::state).isEqualTo(FileState.IN_PROGRESS);
        }
    }

    /**
     * worker.completed.retention.ms deletes completed files with tombstones. A store forgets a file on
     * reading its tombstone, but not one it has since taken up again: a tombstone read late must not
     * undo this process's newer checkpoint.
     */
    @Test
    void aTombstoneForgetsACompletedFileButNotOneTakenUpSince() throws Exception {
        String bootstrap = TestBroker.bootstrapServers();
        String topic = checkpointTopic(bootstrap);
        Properties consumer = consumer(bootstrap);
        Checkpoint gone = new Checkpoint("f4", "d.xml", FileState.COMPLETED, 10, null, 10, 0, 1, null);
        Checkpoint again = new Checkpoint("f5", "e.xml", FileState.COMPLETED, 10, null, 10, 0, 1, null);
        try (KafkaProducer<byte[], byte[]> producer = producer(bootstrap);
             KafkaCheckpointStore store = store(consumer, topic)) {
            for (Checkpoint c : List.of(gone, again)) {
                send(producer, topic, c, "w1");
            }
            // A shard of a file cut anew (the same content dropped again after it was forgotten) is running here.
            store.committed(new Checkpoint("f6", "f.xml", FileState.IN_PROGRESS, 0, null, 0, 0, 0, null, -1, 2), "w1");
            store.committed(shard("f6/0", 0, 10), "w1");
            store.refresh();
            assertThat(store.find("f4")).isPresent();
            assertThat(store.completedBefore(System.currentTimeMillis() + 1, Set.of("w1")))
                    .containsExactlyInAnyOrder("f4", "f5");
            assertThat(store.completedBefore(System.currentTimeMillis() + 1, Set.of("w2"))).isEmpty();
            // f5 is dropped again after someone else deleted it, and this process has started on it.
            store.committed(new Checkpoint("f5", "e.xml", FileState.IN_PROGRESS, 4, null, 4, 0, 1, null), "w1");
            for (String key : List.of("f4", "f5", "f6/0")) {
                producer.send(new ProducerRecord<>(topic, key.getBytes(), null)).get();
            }
            store.refresh();
            assertThat(store.find("f4")).isEmpty();
            assertThat(store.find("f5")).get().extracting(Checkpoint::state).isEqualTo(FileState.IN_PROGRESS);
            assertThat(store.find("f6/0")).as("a shard of a file running here again").isPresent();
            assertThat(store.completedBefore(System.currentTimeMillis() + 1, Set.of("w1"))).isEmpty();
        }
        try (KafkaCheckpointStore fresh = store(consumer, topic)) {
            fresh.refresh();
            assertThat(fresh.find("f4")).isEmpty();
            assertThat(fresh.find("f5")).isEmpty();
        }
    }

    private static Checkpoint shard(String key, int shard, long next) {
        String fileId = key.substring(0, key.indexOf('/'));
        return new Checkpoint(fileId, "a.xml", FileState.IN_PROGRESS, next, null, next, 0, 1, null, shard, 0);
    }

    /** A topic of one partition for a store to read, as the checkpoint topic has. */
    private static String checkpointTopic(String bootstrap) throws Exception {
        String topic = TestBroker.uniqueTopic("checkpoints");
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        }
        return topic;
    }

    private static KafkaCheckpointStore store(Properties consumer, String topic) {
        return new KafkaCheckpointStore(consumer, topic, Duration.ofSeconds(30));
    }

    private static Properties consumer(String bootstrap) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        return p;
    }

    /** Writes a checkpoint as a worker does ({@code worker} null: as one written before workers named themselves). */
    private static void send(KafkaProducer<byte[], byte[]> producer, String topic, Checkpoint c, String worker)
            throws Exception {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, c.key().getBytes(StandardCharsets.UTF_8),
                CheckpointCodec.encode(c));
        if (worker != null) {
            record.headers().add(MessageHeaders.WORKER, worker.getBytes(StandardCharsets.UTF_8));
        }
        producer.send(record).get();
    }

    private static KafkaProducer<byte[], byte[]> producer(String bootstrap) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        return new KafkaProducer<>(p);
    }

    private static ProducerRecord<byte[], byte[]> record(TopicNames topics, Checkpoint c) {
        return new ProducerRecord<>(topics.checkpoints(), c.key().getBytes(StandardCharsets.UTF_8), CheckpointCodec.encode(c));
    }

    private static Envelope envelope(TopicNames topics, Checkpoint c) {
        return new Envelope(topics.checkpoints(), c.key().getBytes(StandardCharsets.UTF_8), CheckpointCodec.encode(c),
                Map.of());
    }

    @Test
    void aRefreshNeverTakesAFileBackToAnOlderCheckpoint() throws Exception {
        String bootstrap = TestBroker.bootstrapServers();
        String topic = checkpointTopic(bootstrap);
        try (KafkaProducer<byte[], byte[]> producer = producer(bootstrap)) {
            for (long next : new long[] {1000, 2000, 2600}) {
                send(producer, topic, checkpoint(FileState.IN_PROGRESS, next, next), null);
            }
        }
        Properties consumer = consumer(bootstrap);
        try (KafkaCheckpointStore store = store(consumer, topic)) {
            // What the worker records when its last commit returns, before the topic shows it.
            store.committed(checkpoint(FileState.COMPLETED, 3000, 3000));
            store.refresh();
            assertThat(store.find("f1")).get().extracting(Checkpoint::state).isEqualTo(FileState.COMPLETED);
        }
        try (KafkaCheckpointStore fresh = store(consumer, topic)) {
            fresh.refresh();
            assertThat(fresh.find("f1")).get().extracting(Checkpoint::nextRecordIndex).isEqualTo(2600L);
        }
    }
}
