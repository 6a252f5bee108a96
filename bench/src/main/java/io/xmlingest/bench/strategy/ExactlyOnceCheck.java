package io.xmlingest.bench.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.publish.CommittedEnd;
import io.xmlingest.core.publish.KafkaClientSettings;
import io.xmlingest.core.publish.MessageHeaders;
import io.xmlingest.core.publish.TopicNames;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * What one file's exactly-once ingestion left in Kafka, as a read_committed consumer sees it: the
 * record topic's messages and their record indexes, and the status topic's events. A run passes
 * when the record topic holds exactly N messages with N distinct indexes 0..N-1 and the status
 * topic one {@code completed} event counting N records.
 */
public final class ExactlyOnceCheck {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * @param messages         messages in the record topic
     * @param distinct         distinct record indexes among them within 0..N-1
     * @param duplicates       messages whose index was already seen
     * @param unreadable       messages without a readable index, or with one outside 0..N-1
     * @param firstDuplicate   the smallest index seen twice, or -1
     * @param firstMissing     the smallest index in 0..N-1 not seen, or -1
     * @param completed        {@code completed} events in the status topic
     * @param completedRecords the record count the last {@code completed} event carries, or -1
     * @param failed           {@code failed} events in the status topic
     */
    public record Tally(long messages, long distinct, long duplicates, long unreadable, long firstDuplicate, long firstMissing,
                 int completed, long completedRecords, int failed) {

        /** What was found, for the report next to the figures it vouches for. */
        public String summary() {
            return String.format(java.util.Locale.ROOT, "%,d messages with %,d distinct record indexes, %d completed event",
                    messages, distinct, completed);
        }

        /** What is wrong, each problem in words; empty when every record is there exactly once. */
        public List<String> problems(long expected) {
            List<String> p = new ArrayList<>();
            if (messages != expected) {
                p.add(messages + " messages, expected " + expected);
            }
            if (distinct != expected) {
                p.add(distinct + " distinct record indexes, expected " + expected
                        + (firstMissing >= 0 ? " (the first missing is " + firstMissing + ")" : ""));
            }
            if (duplicates > 0) {
                p.add(duplicates + " messages repeat an index (the first is " + firstDuplicate + ")");
            }
            if (unreadable > 0) {
                p.add(unreadable + " messages without a " + MessageHeaders.RECORD_INDEX + " header in 0.." + (expected - 1));
            }
            if (completed != 1) {
                p.add(completed + " completed events, expected 1");
            } else if (completedRecords != expected) {
                p.add("the completed event counts " + completedRecords + " records, expected " + expected);
            }
            if (failed > 0) {
                p.add(failed + " failed events");
            }
            return p;
        }
    }

    private ExactlyOnceCheck() {
    }

    /**
     * Reads until the tally is clean, or until it can no longer become clean (a record seen twice,
     * too many messages) or {@code timeout} has passed. A commit's markers are written to each
     * partition after the commit returns, so a read straight after it can still miss the last
     * transaction's records in some partitions; a shortfall is read again, an excess never.
     */
    public static Tally readSettled(IngestConfig config, TopicNames topics, long expected, Duration timeout) {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        for (int attempt = 1; ; attempt++) {
            Tally t = read(config, topics, expected, timeout);
            if (attempt > 1) {
                System.err.printf(java.util.Locale.ROOT, "exactly-once check, read %d after %.0f ms: %s%n", attempt,
                        (System.nanoTime() - start) / 1e6, t.summary());
            }
            boolean unfixable = t.duplicates() > 0 || t.messages() > expected || t.unreadable() > 0 || t.failed() > 0
                    || t.completed() > 1;
            if (t.problems(expected).isEmpty() || unfixable || System.nanoTime() > deadline) {
                return t;
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return t;
            }
        }
    }

    static Tally read(IngestConfig config, TopicNames topics, long expected, Duration timeout) {
        if (expected > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("cannot check more than " + Integer.MAX_VALUE + " records: " + expected);
        }
        BitSet seen = new BitSet((int) expected);
        long[] counts = new long[3];
        long[] firstDuplicate = {-1};
        readAll(config, topics.records(), timeout, r -> {
            counts[0]++;
            long index = index(r);
            if (index < 0 || index >= expected) {
                counts[2]++;
            } else if (seen.get((int) index)) {
                counts[1]++;
                firstDuplicate[0] = firstDuplicate[0] < 0 ? index : Math.min(firstDuplicate[0], index);
            } else {
                seen.set((int) index);
            }
        });
        int[] events = new int[2];
        long[] completedRecords = {-1};
        readAll(config, topics.status(), timeout, r -> {
            JsonNode event = status(r);
            switch (event.path("event").asText()) {
                case "completed" -> {
                    events[0]++;
                    completedRecords[0] = event.path("records").asLong(-1);
                }
                case "failed" -> events[1]++;
                default -> { }
            }
        });
        int missing = seen.nextClearBit(0);
        return new Tally(counts[0], seen.cardinality(), counts[1], counts[2], firstDuplicate[0],
                missing < expected ? missing : -1, events[0], completedRecords[0], events[1]);
    }

    /** Reads a topic from its start to its last stable offset, which for read_committed is everything committed. */
    private static void readAll(IngestConfig config, String topic, Duration timeout,
                                Consumer<ConsumerRecord<byte[], byte[]>> each) {
        Properties p = KafkaClientSettings.consumer(config);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        // The check runs in the measured JVM, which may have as little as -Xmx64m: keep each fetch small.
        p.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 4 << 20);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "bench-exactly-once-check");
        long deadline = System.nanoTime() + timeout.toNanos();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, timeout).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = CommittedEnd.of(consumer, partitions, p, timeout);
            while (!caughtUp(consumer, end, timeout)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + topic + " to its end within " + timeout);
                }
                consumer.poll(Duration.ofMillis(200)).forEach(each);
            }
        }
    }

    private static boolean caughtUp(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end, Duration timeout) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey(), timeout) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    private static long index(ConsumerRecord<byte[], byte[]> r) {
        Header h = r.headers().lastHeader(MessageHeaders.RECORD_INDEX);
        if (h == null || h.value() == null) {
            return -1;
        }
        try {
            return Long.parseLong(new String(h.value(), StandardCharsets.UTF_8));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static JsonNode status(ConsumerRecord<byte[], byte[]> r) {
        try {
            return JSON.readTree(r.value());
        } catch (IOException e) {
            throw new IllegalStateException("unreadable status event at " + r.topic() + "-" + r.partition() + " offset "
                    + r.offset() + ": " + e.getMessage(), e);
        }
    }
}
