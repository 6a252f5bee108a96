package io.xmlingest.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.xmlingest.app.AppSettings;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.KafkaClientKeys;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The read command's consumer is one of xmlingest's clients like the others: kafka.client.* reaches it. */
class ReadCommandTest {

    @Test
    void theReadersConsumerTakesThePassedThroughKeysAndSetsOnlyOwnedOnes() {
        Properties bare = ReadCommand.consumerProperties(IngestConfig.of(AppSettings.ALL,
                Map.of("kafka.bootstrap.servers", "broker:9093")));
        assertThat(KafkaClientKeys.ownedKeys()).containsAll(bare.keySet().stream().map(String::valueOf).toList());

        Properties secured = ReadCommand.consumerProperties(IngestConfig.of(AppSettings.ALL, Map.of(
                "kafka.bootstrap.servers", "broker:9093", "kafka.client.security.protocol", "SSL",
                "kafka.client.ssl.truststore.location", "/etc/kafka/truststore.p12",
                "kafka.client.buffer.memory", "1048576")));
        assertThat(secured).containsEntry("security.protocol", "SSL")
                .containsEntry("ssl.truststore.location", "/etc/kafka/truststore.p12")
                .containsEntry("isolation.level", "read_committed")
                .doesNotContainKey("buffer.memory");
    }
}
