package io.xmlingest.bench;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A record topic as a downstream read_committed consumer sees it while a worker is killed and started
 * again: how many messages have arrived, and when the first record a successor committed arrived. It is
 * how the restart measurement sees the worker, from outside: asking the restarting worker itself (its
 * /metrics) costs the start-up some of the CPU it is being timed on.
 */
final class KafkaTopicWatch implements AutoCloseable {

    /**
     * A fetch waits at most this long for new data. The broker answers a waiting fetch as soon as a commit
     * moves the last stable offset, so this only bounds the error should it not.
     */
    static final int FETCH_MAX_WAIT_MS = 20;

    private final KafkaConsumer<byte[], byte[]> committed;
    private final KafkaConsumer<byte[], byte[]> logEnds;
    private final List<TopicPartition> partitions;
    private long messages;

    /** Waits up to {@code timeout} for the topic to exist (the worker creates it), then reads it from its start. */
    KafkaTopicWatch(String bootstrapServers, String topic, Duration timeout, BooleanSupplier writerAlive) {
        committed = consumer(bootstrapServers, "read_committed");
        logEnds = consumer(bootstrapServers, "read_uncommitted");
        try {
            long deadline = System.nanoTime() + timeout.toNanos();
            List<TopicPartition> found = List.of();
            while (found.isEmpty()) {
                found = committed.partitionsFor(topic, Duration.ofSeconds(5)).stream()
                        .map(p -> new TopicPartition(topic, p.partition())).toList();
                if (found.isEmpty()) {
                    check(deadline, writerAlive, "the worker did not create " + topic);
                    sleep(100);
                }
            }
            partitions = found;
            committed.assign(partitions);
            committed.seekToBeginning(partitions);
            logEnds.assign(partitions); // unassigned, it logs a warning for every partition it is told the end of
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String bootstrapServers, String isolation) {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation,
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, FETCH_MAX_WAIT_MS,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    long messages() {
        return messages;
    }

    /** Reads until at least {@code count} messages have arrived. */
    void awaitMessages(long count, Duration timeout, BooleanSupplier writerAlive) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (messages < count) {
            check(deadline, writerAlive, "only " + messages + " of " + count + " records were committed");
            messages += committed.poll(Duration.ofMillis(100)).count();
        }
    }

    /**
     * Each partition's log end, committed or not, to be taken once the writer is dead. A producer asks for a
     * commit only once every record of the transaction is acknowledged, so whatever a killed worker can still
     * have committed (a commit it asked for just before it died) lies before this mark, and every record at or
     * past it is a successor's.
     */
    Map<TopicPartition, Long> mark(Duration timeout) {
        return logEnds.endOffsets(partitions, timeout);
    }

    /** Reads up to the last stable offset as it is now: all committed so far, nothing past a transaction still open. */
    void drain(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<TopicPartition, Long> ends = committed.endOffsets(partitions, timeout);
        while (partitions.stream().anyMatch(p -> committed.position(p) < ends.get(p))) {
            check(deadline, () -> true, "the topic was not read to its last stable offset");
            messages += committed.poll(Duration.ofMillis(100)).count();
        }
    }

    /**
     * Reads until a record at or past {@code mark} arrives, and returns the {@link System#nanoTime()} it arrived
     * at; records before the mark (a killed worker's last commit, completed after it died) are counted only.
     */
    long awaitFirstPast(Map<TopicPartition, Long> mark, Duration timeout, BooleanSupplier writerAlive) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            ConsumerRecords<byte[], byte[]> records = committed.poll(Duration.ofMillis(50));
            long arrived = System.nanoTime();
            messages += records.count();
            for (ConsumerRecord<byte[], byte[]> r : records) {
                if (r.offset() >= mark.get(new TopicPartition(r.topic(), r.partition()))) {
                    return arrived;
                }
            }
            check(deadline, writerAlive, "no new record was committed");
        }
    }

    private static void check(long deadline, BooleanSupplier writerAlive, String what) {
        if (!writerAlive.getAsBoolean()) {
            throw new IllegalStateException(what + ": the worker stopped");
        }
        if (System.nanoTime() > deadline) {
            throw new IllegalStateException(what + " in time");
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public void close() {
        committed.close();
        logEnds.close();
    }
}
