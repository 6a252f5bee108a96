package io.xmlingest.app.cli;

import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ConfigException;
import io.xmlingest.core.error.RetriableIngestException;
import io.xmlingest.core.publish.KafkaClientSettings;
import java.io.BufferedOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "read", mixinStandardHelpOptions = true,
        description = "Prints the topic's records, one JSON value per line, reading committed data only, "
                + "and exits when caught up with the end of the topic as it was at start.",
        footer = {"", "Examples:", "  java -jar ingest-app.jar read --topic persons --max 3",
            "  java -jar ingest-app.jar read --topic persons \\",
            "      --bootstrap-servers broker:9092 | wc -l"})
final class ReadCommand implements Callable<Integer> {

    @Option(names = "--topic", paramLabel = "TOPIC[,TOPIC...]", description = "The topic or topics to read (setting topic).")
    String topic;

    @Option(names = "--max", paramLabel = "N", description = "Stop after N records (0: print none).")
    long max = Long.MAX_VALUE;

    @Mixin
    SettingsOptions options;

    @Spec
    CommandSpec spec;

    private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);

    @Override
    public Integer call() {
        if (max < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--max must be 0 or more, not " + max);
        }
        IngestConfig settings = options.resolve(topic == null ? Map.of() : Map.of(IngestSettings.TOPIC.key(), topic));
        List<String> names = settings.get(IngestSettings.TOPIC);
        PrintStream out = new PrintStream(new BufferedOutputStream(System.out, 1 << 16), false, StandardCharsets.UTF_8);
        try (KafkaTarget kafka = KafkaTarget.open(settings);
             KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProperties(kafka.config()))) {
            List<TopicPartition> partitions = new java.util.ArrayList<>();
            long waitMs = settings.get(IngestSettings.TOPIC_READY_TIMEOUT_MS);
            for (String name : names) {
                List<PartitionInfo> infos;
                try {
                    infos = consumer.partitionsFor(name, Duration.ofMillis(waitMs));
                } catch (TimeoutException e) {
                    throw new RetriableIngestException("Kafka at " + kafka.config().get(IngestSettings.BOOTSTRAP_SERVERS)
                            + " did not say within " + waitMs + " ms which partitions topic " + name + " has: "
                            + e.getMessage(), null, IngestSettings.TOPIC_READY_TIMEOUT_MS.key(), e);
                }
                if (infos == null || infos.isEmpty()) {
                    // Nothing to wait for: the name is wrong, or nothing was ingested into it yet.
                    throw new ConfigException(IngestSettings.TOPIC.key(), "topic " + name + " does not exist at "
                            + kafka.config().get(IngestSettings.BOOTSTRAP_SERVERS));
                }
                infos.forEach(i -> partitions.add(new TopicPartition(name, i.partition())));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long printed = 0;
            while (printed < max && !caughtUp(consumer, end)) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    if (r.offset() >= end.get(new TopicPartition(r.topic(), r.partition())) || printed >= max) {
                        continue;
                    }
                    // A tombstone (a deleted checkpoint, say) has no value: JSON's null, so every line stays one value.
                    byte[] value = r.value() == null ? NULL : r.value();
                    out.write(value, 0, value.length);
                    out.write('\n');
                    printed++;
                }
            }
        } finally {
            out.flush();
        }
        return ExitCodes.OK;
    }

    private static boolean caughtUp(KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    /** The brokers and the kafka.client.* keys of every consumer, with what reading needs over them. */
    static Properties consumerProperties(IngestConfig config) {
        Properties p = KafkaClientSettings.consumer(config);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "xmlingest-read");
        return p;
    }
}
