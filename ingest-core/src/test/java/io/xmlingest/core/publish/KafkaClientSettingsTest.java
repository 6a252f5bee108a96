package io.xmlingest.core.publish;

import static org.assertj.core.api.Assertions.assertThat;

import io.xmlingest.core.checkpoint.KafkaCheckpointStore;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.config.KafkaClientKeys;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** Every client xmlingest makes gets the kafka.client.* keys it knows, and only those. */
class KafkaClientSettingsTest {

    private static final Map<String, String> SECURED = Map.of(
            "kafka.client.security.protocol", "SASL_SSL",
            "kafka.client.sasl.mechanism", "PLAIN",
            "kafka.client.sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required "
                    + "username=\"alice\" password=\"alice-secret\";",
            "kafka.client.ssl.truststore.location", "/etc/kafka/truststore.p12");

    private static IngestConfig config(Map<String, String> extra) {
        Map<String, String> flags = new HashMap<>(Map.of("kafka.bootstrap.servers", "broker:9093", "topic", "t"));
        flags.putAll(extra);
        return IngestConfig.of(IngestSettings.ALL, flags);
    }

    private static List<Properties> everyClient(IngestConfig c) {
        return List.of(KafkaClientSettings.producer(c), KafkaClientSettings.transactionalProducer(c, "w1"),
                KafkaClientSettings.consumer(c), KafkaCheckpointStore.consumerProperties(KafkaClientSettings.consumer(c)),
                KafkaClientSettings.admin(c));
    }

    @Test
    void securitySettingsReachEveryClient() {
        for (Properties p : everyClient(config(SECURED))) {
            assertThat(p).containsEntry("security.protocol", "SASL_SSL").containsEntry("sasl.mechanism", "PLAIN")
                    .containsEntry("ssl.truststore.location", "/etc/kafka/truststore.p12")
                    .containsKey("sasl.jaas.config").containsEntry("bootstrap.servers", "broker:9093");
        }
    }

    @Test
    void aKeyGoesOnlyToTheClientsThatKnowIt() {
        IngestConfig c = config(Map.of("kafka.client.buffer.memory", "67108864",
                "kafka.client.fetch.min.bytes", "1024",
                "kafka.client.default.api.timeout.ms", "90000",
                "kafka.client.metadata.max.age.ms", "60000"));
        Properties producer = KafkaClientSettings.producer(c);
        Properties consumer = KafkaClientSettings.consumer(c);
        Properties admin = KafkaClientSettings.admin(c);
        assertThat(producer).containsEntry("buffer.memory", "67108864").doesNotContainKeys("fetch.min.bytes",
                "default.api.timeout.ms");
        assertThat(consumer).containsEntry("fetch.min.bytes", "1024").containsEntry("default.api.timeout.ms", "90000")
                .doesNotContainKey("buffer.memory");
        assertThat(admin).containsEntry("default.api.timeout.ms", "90000")
                .doesNotContainKeys("buffer.memory", "fetch.min.bytes");
        for (Properties p : List.of(producer, consumer, admin)) {
            assertThat(p).containsEntry("metadata.max.age.ms", "60000");
        }
    }

    @Test
    void everyKeyXmlingestSetsItselfIsOneTheFamilyRefuses() {
        // Were one missing, a passed-through value would be overwritten without a word.
        for (Properties p : everyClient(config(Map.of()))) {
            // keySet, not stringPropertyNames, which leaves out keys whose values are not strings.
            assertThat(KafkaClientKeys.ownedKeys()).containsAll(p.keySet().stream().map(String::valueOf).toList());
        }
    }
}
