package io.xmlingest.bench.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.app.kafka.EmbeddedKafkaBroker;
import io.xmlingest.bench.Bench;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.publish.KafkaClientSettings;
import io.xmlingest.core.publish.KafkaTopics;
import io.xmlingest.core.publish.MessageHeaders;
import io.xmlingest.core.publish.TopicNames;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The exactly-once strategy against a real broker, and the check that stands behind its figures. */
class ExactlyOnceCheckIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;

    private static EmbeddedKafkaBroker broker;

    @BeforeAll
    static void startBroker() {
        broker = EmbeddedKafkaBroker.start(dir.resolve("kafka"), "127.0.0.1", 0);
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @Test
    void theWorkerPathPublishesEveryRecordOnceAndTheCheckSaysSo() throws Exception {
        Path file = Bench.dataFile(dir.resolve("data"), 2500);
        Strategy.Context context = new Strategy.Context(2500, broker.bootstrapServers());
        OursExactlyOnce strategy = new OursExactlyOnce();
        for (int run = 0; run < 2; run++) {
            strategy.prepare(file, context);
            try {
                Strategy.Outcome outcome = strategy.run(file, context);
                assertThat(outcome.records()).isEqualTo(2500);
                assertThat(outcome.phases().identifyNanos()).as("the file hash is timed").isPositive();
                // Each run has topics of its own, so the second run's check does not see the first run's records.
                assertThat(strategy.verify(file, context, outcome))
                        .hasValue("2,500 messages with 2,500 distinct record indexes, 1 completed event");
            } finally {
                strategy.cleanUp();
            }
        }
    }

    @Test
    void readsCommittedRecordsOnlyAndNamesDuplicatesAndGaps() {
        String topic = "check-" + UUID.randomUUID();
        IngestConfig config = IngestConfig.of(IngestSettings.ALL, Map.of(IngestSettings.TOPIC.key(), topic,
                IngestSettings.BOOTSTRAP_SERVERS.key(), broker.bootstrapServers()));
        TopicNames topics = TopicNames.of(config);
        try (Admin admin = Admin.create(KafkaClientSettings.admin(config))) {
            KafkaTopics.ensure(admin, topics.records(), 3, -1, TIMEOUT);
            KafkaTopics.ensure(admin, topics.status(), 1, -1, TIMEOUT);
        }
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                KafkaClientSettings.transactionalProducer(config, topic))) {
            producer.initTransactions();
            producer.beginTransaction();
            for (long i = 0; i < 5; i++) {
                producer.send(record(topics.records(), i));
            }
            producer.send(new ProducerRecord<>(topics.status(),
                    "{\"event\":\"completed\",\"records\":5}".getBytes(StandardCharsets.UTF_8)));
            producer.commitTransaction();
            // What an aborted transaction wrote is what a crashed worker leaves: never seen by read_committed.
            producer.beginTransaction();
            for (long i = 0; i < 5; i++) {
                producer.send(record(topics.records(), i));
            }
            producer.flush();
            producer.abortTransaction();

            ExactlyOnceCheck.Tally clean = ExactlyOnceCheck.read(config, topics, 5, TIMEOUT);
            assertThat(clean.problems(5)).isEmpty();
            assertThat(clean.messages()).isEqualTo(5);

            // One more record is committed twice: the check must name it, and the missing one.
            producer.beginTransaction();
            producer.send(record(topics.records(), 2));
            producer.commitTransaction();
            ExactlyOnceCheck.Tally duplicated = ExactlyOnceCheck.read(config, topics, 6, TIMEOUT);
            assertThat(duplicated.problems(6)).containsExactly(
                    "5 distinct record indexes, expected 6 (the first missing is 5)",
                    "1 messages repeat an index (the first is 2)",
                    "the completed event counts 5 records, expected 6");
            assertThat(ExactlyOnceCheck.read(config, topics, 5, TIMEOUT).problems(5)).containsExactly(
                    "6 messages, expected 5", "1 messages repeat an index (the first is 2)");
        }
    }

    @Test
    void aRecordPublishedTwiceFailsTheRunLoudly() throws Exception {
        Path file = Bench.dataFile(dir.resolve("data"), 1000);
        Strategy.Context context = new Strategy.Context(1000, broker.bootstrapServers());
        OursExactlyOnce strategy = new OursExactlyOnce();
        strategy.prepare(file, context);
        try {
            Strategy.Outcome outcome = strategy.run(file, context);
            IngestConfig config = IngestConfig.of(IngestSettings.ALL, Map.of(IngestSettings.TOPIC.key(), "any",
                    IngestSettings.BOOTSTRAP_SERVERS.key(), broker.bootstrapServers()));
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(KafkaClientSettings.producer(config))) {
                producer.send(record(strategy.topics().records(), 417)).get();
            }
            assertThatThrownBy(() -> strategy.verify(file, context, outcome))
                    .hasMessageContaining("exactly-once check failed")
                    .hasMessageContaining(strategy.topics().records())
                    .hasMessageContaining("1001 messages, expected 1000")
                    .hasMessageContaining("1 messages repeat an index (the first is 417)");
        } finally {
            strategy.cleanUp();
        }
    }

    private static ProducerRecord<byte[], byte[]> record(String topic, long index) {
        ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(topic, Long.toString(index).getBytes(StandardCharsets.UTF_8),
                "{}".getBytes(StandardCharsets.UTF_8));
        r.headers().add(MessageHeaders.RECORD_INDEX, Long.toString(index).getBytes(StandardCharsets.UTF_8));
        return r;
    }
}
