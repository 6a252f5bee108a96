package io.xmlingest.bench;

import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.publish.KafkaClientSettings;
import io.xmlingest.core.publish.KafkaTopics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * One message per record into a new topic, with xmlingest's producer settings (idempotent, acks from
 * all, lz4, linger and batch size as configured) but no transactions, and a count of what the broker
 * acknowledged: a ceiling that lost sends would flatter itself.
 */
final class KafkaSink implements AutoCloseable {

    private final String topic = "ceiling-" + UUID.randomUUID();
    private final KafkaProducer<byte[], byte[]> producer;
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private final String prefix = UUID.randomUUID() + ":";

    KafkaSink(String bootstrapServers) {
        IngestConfig config = IngestConfig.of(IngestSettings.ALL, Map.of(IngestSettings.TOPIC.key(), topic,
                IngestSettings.BOOTSTRAP_SERVERS.key(), bootstrapServers));
        try (Admin admin = Admin.create(KafkaClientSettings.admin(config))) {
            KafkaTopics.ensure(admin, topic, config.get(IngestSettings.TOPIC_PARTITIONS), -1, Duration.ofSeconds(60));
        }
        producer = new KafkaProducer<>(KafkaClientSettings.producer(config));
    }

    /** Keyed as the worker keys records without a key of their own: the file and the record's index. */
    void send(long index, byte[] value) {
        producer.send(new ProducerRecord<>(topic, (prefix + index).getBytes(StandardCharsets.UTF_8), value), (m, e) -> {
            if (e != null) {
                failure.compareAndSet(null, e);
            } else {
                acknowledged.incrementAndGet();
            }
        });
    }

    /** Waits for every send so far; fails unless the broker acknowledged {@code expected} messages in all. */
    void awaitAll(long expected) {
        producer.flush();
        if (failure.get() != null) {
            throw new IllegalStateException("a send failed", failure.get());
        }
        if (acknowledged.get() != expected) {
            throw new IllegalStateException(acknowledged.get() + " messages acknowledged, " + expected + " sent");
        }
        acknowledged.set(0);
    }

    String topic() {
        return topic;
    }

    @Override
    public void close() {
        producer.close();
    }
}
