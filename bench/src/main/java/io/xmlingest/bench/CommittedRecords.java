package io.xmlingest.bench;

import io.xmlingest.core.publish.MessageHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * What a downstream read_committed consumer of a record topic has received: how many messages and
 * which record indexes, and when the first record committed after a given moment arrived. It is how
 * the restart measurement sees the worker, from outside: asking the restarting worker itself (its
 * /metrics) costs the start-up some of the CPU it is being timed on.
 */
final class CommittedRecords implements AutoCloseable {

    /**
     * A fetch waits at most this long for new data. The broker answers a waiting fetch as soon as a commit
     * moves the last stable offset, so this only bounds the error should it not.
     */
    static final int FETCH_MAX_WAIT_MS = 20;

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<TopicPartition> partitions;
    private final BitSet indexes = new BitSet();
    private long messages;

    /** Waits up to {@code timeout} for the topic to exist (the worker creates it), then reads it from its start. */
    CommittedRecords(String bootstrapServers, String topic, Duration timeout, BooleanSupplier writerAlive) {
        consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, FETCH_MAX_WAIT_MS,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        try {
            long deadline = System.nanoTime() + timeout.toNanos();
            List<TopicPartition> found = List.of();
            while (found.isEmpty()) {
                found = consumer.partitionsFor(topic, Duration.ofSeconds(5)).stream()
                        .map(p -> new TopicPartition(topic, p.partition())).toList();
                if (found.isEmpty()) {
                    check(deadline, writerAlive, "the worker did not create " + topic);
                    sleep(100);
                }
            }
            partitions = found;
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
        } catch (RuntimeException e) {
            consumer.close();
            throw e;
        }
    }

    long messages() {
        return messages;
    }

    long distinctIndexes() {
        return indexes.cardinality();
    }

    /** Reads until at least {@code count} messages have arrived. */
    void awaitMessages(long count, Duration timeout, BooleanSupplier writerAlive) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (messages < count) {
            check(deadline, writerAlive, "only " + messages + " of " + count + " records were committed");
            take(consumer.poll(Duration.ofMillis(100)));
        }
    }

    /**
     * Reads up to the last stable offset as it is now: everything committed so far, and nothing past a
     * transaction still open (a killed writer's, until its successor aborts it).
     */
    void drain(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
        while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
            check(deadline, () -> true, "the topic was not read to its end");
            take(consumer.poll(Duration.ofMillis(100)));
        }
    }

    /** Reads until a record arrives, and returns the {@link System#nanoTime()} it arrived at. */
    long awaitNext(Duration timeout, BooleanSupplier writerAlive) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(50));
            if (!records.isEmpty()) {
                long arrived = System.nanoTime();
                take(records);
                return arrived;
            }
            check(deadline, writerAlive, "no new record was committed");
        }
    }

    private void take(ConsumerRecords<byte[], byte[]> records) {
        for (ConsumerRecord<byte[], byte[]> r : records) {
            messages++;
            Header index = r.headers().lastHeader(MessageHeaders.RECORD_INDEX);
            if (index == null) {
                throw new IllegalStateException("a message at " + r.topic() + "-" + r.partition() + "@" + r.offset()
                        + " has no " + MessageHeaders.RECORD_INDEX + " header");
            }
            indexes.set(Math.toIntExact(Long.parseLong(new String(index.value(), StandardCharsets.UTF_8))));
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
        consumer.close();
    }
}
