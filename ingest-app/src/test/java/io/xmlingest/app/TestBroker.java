package io.xmlingest.app;

import io.xmlingest.app.kafka.EmbeddedKafkaBroker;
import io.xmlingest.core.publish.CommittedEnd;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * One real KRaft broker for the whole test JVM, started from Kafka's own artifacts the same way
 * the application starts its embedded broker; and a read_committed reader for assertions.
 */
public final class TestBroker {
    private static EmbeddedKafkaBroker broker;

    private TestBroker() {
    }

    public static synchronized String bootstrapServers() {
        if (broker == null) {
            try {
                Path dir = Files.createTempDirectory("xmlingest-it-kafka");
                broker = EmbeddedKafkaBroker.start(dir, "127.0.0.1", 0);
                Runtime.getRuntime().addShutdownHook(new Thread(broker::close));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
        return broker.bootstrapServers();
    }

    public static String uniqueTopic(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Every committed record of the topic, read from the beginning up to the end offsets as of the call. */
    public static List<ConsumerRecord<byte[], byte[]>> readCommitted(String bootstrap, String topic) {
        return readCommitted(bootstrap, topic, Map.of());
    }

    /** Every committed record of the topic, read by a consumer with these extra settings (security, say). */
    public static List<ConsumerRecord<byte[], byte[]>> readCommitted(String bootstrap, String topic,
            Map<String, String> consumerSettings) {
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        forEachCommitted(bootstrap, topic, consumerSettings, out::add);
        return out;
    }

    /** Hands every committed record of the topic to {@code each}, holding none: for topics too big to keep. */
    public static void forEachCommitted(String bootstrap, String topic, Map<String, String> consumerSettings,
            Consumer<ConsumerRecord<byte[], byte[]>> each) {
        Properties p = new Properties();
        p.putAll(consumerSettings);
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p)) {
            List<TopicPartition> parts = c.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            c.assign(parts);
            c.seekToBeginning(parts);
            var end = CommittedEnd.of(c, parts, p, Duration.ofSeconds(30));
            long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
            while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("could not read " + topic + " to its end in 5 minutes");
                }
                c.poll(Duration.ofMillis(500)).forEach(each);
            }
        }
    }
}
