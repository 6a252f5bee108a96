package io.xmlingest.core.pipeline;

import io.xmlingest.core.checkpoint.CheckpointStore;
import io.xmlingest.core.checkpoint.KafkaCheckpointStore;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.RetriableIngestException;
import io.xmlingest.core.publish.KafkaClientFailures;
import io.xmlingest.core.publish.KafkaClientSettings;
import io.xmlingest.core.publish.KafkaTopics;
import io.xmlingest.core.publish.KafkaTransactionalPublisher;
import io.xmlingest.core.publish.TopicNames;
import io.xmlingest.core.publish.TransactionalPublisher;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.admin.NewTopic;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.KafkaException;

/**
 * What the exactly-once path needs from Kafka, opened in the order that makes it safe: the
 * transactional producer's initialisation fences a dead predecessor with the same id and aborts
 * its open transaction, and only then are the checkpoints read to their end, which is therefore
 * taken after every transaction of the predecessor is settled.
 */
public final class KafkaSession implements AutoCloseable {

    private final KafkaTransactionalPublisher publisher;
    private final KafkaCheckpointStore checkpoints;
    /** False when the store is shared with other sessions, and outlives this one. */
    private final boolean ownsCheckpoints;

    private KafkaSession(KafkaTransactionalPublisher publisher, KafkaCheckpointStore checkpoints, boolean ownsCheckpoints) {
        this.publisher = publisher;
        this.checkpoints = checkpoints;
        this.ownsCheckpoints = ownsCheckpoints;
    }

    /**
     * @param giveUp  true when a commit waiting for Kafka should stop waiting (the worker is stopping)
     * @param trouble told why commits are being retried while Kafka is away, and null when they succeed again
     * @param steps   told how long each step of opening took
     * @throws RetriableIngestException when Kafka cannot be reached; try again later
     */
    public static KafkaSession open(IngestConfig config, TopicNames topics, String transactionalId,
                                    BooleanSupplier giveUp, Consumer<String> trouble, StepTimes steps) {
        return open(config, topics, transactionalId, giveUp, trouble, steps, () -> { });
    }

    /**
     * As {@link #open(IngestConfig, TopicNames, String, BooleanSupplier, Consumer, StepTimes)}, running
     * {@code beforeFence} first, for a caller that opens the session while it still checks whether it may
     * run at all: until that returns, nothing is done that a live holder of the transactional id would
     * notice. What it throws ends the opening, and everything opened so far is closed.
     */
    public static KafkaSession open(IngestConfig config, TopicNames topics, String transactionalId,
                                    BooleanSupplier giveUp, Consumer<String> trouble, StepTimes steps,
                                    Runnable beforeFence) {
        Duration timeout = Duration.ofMillis(config.get(IngestSettings.TOPIC_READY_TIMEOUT_MS));
        KafkaProducer<byte[], byte[]> producer = null;
        KafkaCheckpointStore store = null;
        // Making a Kafka client is mostly loading classes, and neither the producer nor its fence needs a topic:
        // they run while the checkpoint consumer is made, checks the topics and reads ahead, on another thread.
        CompletableFuture<KafkaCheckpointStore> checked = CompletableFuture.supplyAsync(
                () -> checkpointsReadAhead(config, topics, timeout, steps), KafkaSession::inBackground);
        try {
            producer = steps.time("producer", () -> new KafkaProducer<>(
                    KafkaClientSettings.transactionalProducer(config, transactionalId)));
            beforeFence.run();
            steps.time("initTransactions", producer::initTransactions);
            store = await(checked);
            // Only this read counts: one that ended before the predecessor was fenced could miss its last commit
            // (one still being completed, or made by a predecessor not quite dead), whose records would go out
            // again. The end it reads to is taken now, after the fence; the read ahead only left less to read.
            steps.time("checkpoints", store::refresh);
            return new KafkaSession(new KafkaTransactionalPublisher(producer, giveUp, trouble), store, true);
        } catch (RuntimeException e) {
            checked.thenAccept(KafkaCheckpointStore::close);
            throw failedToOpen(producer, e);
        }
    }

    /**
     * A session on a checkpoint store that it shares with others (see {@link #checkpoints(IngestConfig,
     * TopicNames, StepTimes)}) and does not close. The store reads on from where it was, so opening a
     * session costs the producer and the checkpoints committed since the store last read, not a read
     * of every checkpoint ever kept. As in {@link #open}, the store reads on only after the producer
     * has fenced its predecessor.
     *
     * @throws RetriableIngestException when Kafka cannot be reached; try again later
     */
    public static KafkaSession open(IngestConfig config, KafkaCheckpointStore shared, String transactionalId,
                                    BooleanSupplier giveUp, Consumer<String> trouble) {
        KafkaProducer<byte[], byte[]> producer = null;
        try {
            producer = new KafkaProducer<>(KafkaClientSettings.transactionalProducer(config, transactionalId));
            producer.initTransactions();
            shared.refresh();
            return new KafkaSession(new KafkaTransactionalPublisher(producer, giveUp, trouble), shared, false);
        } catch (KafkaException | RetriableIngestException e) {
            throw failedToOpen(producer, e);
        }
    }

    /**
     * Closes the producer made so far, if any; what to throw: Kafka's failure as one to retry, anything
     * else (a refused topic name, say) as it was, since retrying would not change it.
     */
    static RuntimeException failedToOpen(KafkaProducer<byte[], byte[]> producer, RuntimeException e) {
        if (producer != null) {
            producer.close(Duration.ZERO);
        }
        if (!(e instanceof KafkaException)) {
            return e;
        }
        // A client that could not even be made (a key store that does not open, say) is its settings' trouble, not the
        // brokers' address: said with the reasons below Kafka's wrappers, which named none of it.
        String said = KafkaClientFailures.reasons(e);
        boolean notMade = KafkaClientFailures.failedToConstruct(e);
        // (A bootstrap host that does not resolve stops a client being made too: that one is the address's.)
        boolean settings = notMade && !said.contains("bootstrap");
        return new RetriableIngestException("cannot open the Kafka session: "
                + (notMade ? "Kafka's client could not be made: " : "") + said, null,
                settings ? IngestSettings.KAFKA_CLIENT.key() + "*" : IngestSettings.BOOTSTRAP_SERVERS.key(), e);
    }

    /**
     * A checkpoint store to share between sessions, read to the end, once every topic is there. It
     * fences nobody, so what it reads may be overtaken by a commit still being completed; a session
     * opened on it reads on after its fence.
     *
     * @throws RetriableIngestException when Kafka cannot be reached; try again later
     */
    public static KafkaCheckpointStore checkpoints(IngestConfig config, TopicNames topics, StepTimes steps) {
        return checkpoints(config, topics, steps, () -> { });
    }

    /**
     * As {@link #checkpoints(IngestConfig, TopicNames, StepTimes)}, telling {@code progress} as
     * checkpoints come in, this first read included (see {@link KafkaCheckpointStore#onProgress}).
     */
    public static KafkaCheckpointStore checkpoints(IngestConfig config, TopicNames topics, StepTimes steps,
                                                   Runnable progress) {
        Duration timeout = Duration.ofMillis(config.get(IngestSettings.TOPIC_READY_TIMEOUT_MS));
        KafkaCheckpointStore store;
        try {
            store = checkpointsWithTopics(config, topics, timeout, steps);
        } catch (KafkaException e) {
            throw new RetriableIngestException("cannot read the checkpoints: " + e, null,
                    IngestSettings.BOOTSTRAP_SERVERS.key(), e);
        }
        try {
            store.onProgress(progress);
            store.refresh();
            return store;
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /**
     * The checkpoint store, once every topic is there, read as far as the topic's end was when it
     * looked, which may be short of a commit the predecessor is still completing. The read-committed
     * consumer holds back a transaction still open, so nothing read here can be undone later.
     */
    private static KafkaCheckpointStore checkpointsReadAhead(IngestConfig config, TopicNames topics, Duration timeout,
                                                             StepTimes steps) {
        KafkaCheckpointStore store = checkpointsWithTopics(config, topics, timeout, steps);
        try {
            steps.time("checkpoints ahead", store::refresh);
            return store;
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /** The checkpoint store, not yet read, once every topic is there; its consumer checks them. */
    private static KafkaCheckpointStore checkpointsWithTopics(IngestConfig config, TopicNames topics, Duration timeout,
                                                              StepTimes steps) {
        KafkaConsumer<byte[], byte[]> consumer = steps.time("checkpoint consumer",
                () -> KafkaCheckpointStore.newConsumer(KafkaClientSettings.consumer(config)));
        try {
            steps.time("topics", () -> ensureTopics(config, topics, consumer, timeout));
        } catch (RuntimeException e) {
            consumer.close(Duration.ZERO);
            throw e;
        }
        return new KafkaCheckpointStore(consumer, topics.checkpoints(), timeout);
    }

    private static void ensureTopics(IngestConfig config, TopicNames topics, KafkaConsumer<?, ?> consumer,
                                     Duration timeout) {
        if (KafkaTopics.allReady(consumer, topics.all(), timeout)) {
            return;
        }
        int partitions = config.get(IngestSettings.TOPIC_PARTITIONS);
        int replication = config.get(IngestSettings.TOPIC_REPLICATION_FACTOR);
        List<NewTopic> specs = new ArrayList<>();
        topics.recordTopics().forEach(t -> specs.add(KafkaTopics.spec(t, partitions, replication, Map.of())));
        specs.add(KafkaTopics.spec(topics.deadLetters(), partitions, replication, Map.of()));
        // One partition each: a file's status events and checkpoints are few, and read in order.
        specs.add(KafkaTopics.spec(topics.status(), 1, replication, Map.of()));
        specs.add(KafkaTopics.spec(topics.checkpoints(), 1, replication, Map.of("cleanup.policy", "compact")));
        KafkaTopics.ensure(KafkaClientSettings.admin(config), specs, timeout);
    }

    private static void inBackground(Runnable task) {
        Thread t = new Thread(task, "xmlingest-topics");
        t.setDaemon(true);
        t.start();
    }

    private static <T> T await(CompletableFuture<T> task) {
        try {
            return task.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    /**
     * Returns once Kafka answers a request (see {@link KafkaCheckpointStore#ping}); a session with
     * nothing to commit has no other way to learn that Kafka went away.
     *
     * @throws RetriableIngestException when no answer came within {@code within}
     */
    public void ping(Duration within) {
        checkpoints.ping(within);
    }

    public TransactionalPublisher publisher() {
        return publisher;
    }

    public CheckpointStore checkpoints() {
        return checkpoints;
    }

    @Override
    public void close() {
        publisher.close();
        if (ownsCheckpoints) {
            checkpoints.close();
        }
    }
}
