package io.xmlingest.bench.strategy;

import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.encode.JsonRecordEncoder;
import io.xmlingest.core.publish.KafkaClientSettings;
import io.xmlingest.core.publish.KafkaTopics;
import io.xmlingest.datagen.PersonFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.PartitionInfo;

/**
 * Ceiling: the Kafka producer alone, with the pipeline's producer settings, sending as many
 * pre-serialized person messages (real JSON values of the same records, so the same sizes and
 * compressibility) as the file has records, and waiting for every acknowledgement.
 */
final class ProducerCeiling implements Strategy {

    private static final int DISTINCT = 4096;
    private final byte[][] values = new byte[DISTINCT][];
    private final byte[][] keys = new byte[DISTINCT][];
    private KafkaProducer<byte[], byte[]> producer;
    private String topic;

    ProducerCeiling() {
        PersonFactory persons = new PersonFactory(42);
        JsonRecordEncoder encoder = new JsonRecordEncoder();
        for (int i = 0; i < DISTINCT; i++) {
            values[i] = encoder.encode(persons.next(i + 1));
            keys[i] = Integer.toString(i + 1).getBytes(StandardCharsets.UTF_8);
        }
    }

    @Override
    public void prepare(Path file, Context context) {
        topic = "bench-producer-" + UUID.randomUUID();
        IngestConfig config = IngestConfig.of(IngestSettings.ALL, Map.of(IngestSettings.TOPIC.key(), topic,
                IngestSettings.BOOTSTRAP_SERVERS.key(), context.bootstrapServers()));
        try (Admin admin = Admin.create(KafkaClientSettings.admin(config))) {
            KafkaTopics.ensure(admin, topic, config.get(IngestSettings.TOPIC_PARTITIONS), -1, Duration.ofSeconds(60));
        }
        producer = new KafkaProducer<>(KafkaClientSettings.producer(config));
        // Metadata can name a partition's leader before that broker serves it. Sends into that gap
        // were retried, and at 1M records the idempotent producer then met OutOfOrderSequenceException;
        // one acknowledged record per partition, outside the timed run, closes the gap.
        List<Future<RecordMetadata>> firsts = new ArrayList<>();
        for (PartitionInfo p : producer.partitionsFor(topic)) {
            firsts.add(producer.send(new ProducerRecord<>(topic, p.partition(), keys[0], values[0])));
        }
        try {
            for (Future<RecordMetadata> f : firsts) {
                f.get(60, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            throw new IllegalStateException("the new topic " + topic + " did not take a first record on every partition", e);
        }
    }

    @Override
    public Outcome run(Path file, Context context) {
        AtomicLong acked = new AtomicLong();
        AtomicReference<Exception> failure = new AtomicReference<>();
        long bytes = 0;
        for (long i = 0; i < context.expectedRecords(); i++) {
            int k = (int) (i % DISTINCT);
            bytes += values[k].length;
            producer.send(new ProducerRecord<>(topic, keys[k], values[k]), (m, e) -> {
                if (e != null) {
                    failure.compareAndSet(null, e);
                } else {
                    acked.incrementAndGet();
                }
            });
        }
        producer.flush();
        if (failure.get() != null) {
            throw new IllegalStateException("a send failed", failure.get());
        }
        return new Outcome(acked.get(), bytes, null);
    }

    @Override
    public void cleanUp() {
        if (producer != null) {
            producer.close();
            producer = null;
        }
    }
}
