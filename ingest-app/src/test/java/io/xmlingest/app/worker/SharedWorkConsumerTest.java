package io.xmlingest.app.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.app.AppSettings;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.KafkaClientKeys;
import io.xmlingest.core.error.ConfigException;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The sharing workers' consumer sets its group's keys itself, and kafka.client.* may not quietly differ. */
class SharedWorkConsumerTest {

    @Test
    void everyKeyTheWorkConsumerSetsIsOneThatKafkaClientRefuses() {
        Properties p = SharedWork.consumerProperties(IngestConfig.of(AppSettings.ALL,
                Map.of("kafka.bootstrap.servers", "broker:9093")), "orders.work", "w1");
        assertThat(KafkaClientKeys.ownedKeys()).containsAll(p.keySet().stream().map(String::valueOf).toList());
        assertThat(p).containsEntry("group.id", "orders.work-workers")
                .containsEntry("session.timeout.ms", 10_000)
                .containsEntry("max.poll.records", 1)
                .containsEntry("group.protocol", "classic");
    }

    @Test
    void aGroupKeyGivenAsKafkaClientIsRefusedWithTheReason() {
        for (String key : new String[] {"group.id", "group.instance.id", "group.protocol", "partition.assignment.strategy",
            "session.timeout.ms", "heartbeat.interval.ms", "max.poll.interval.ms"}) {
            assertThatThrownBy(() -> IngestConfig.of(AppSettings.ALL, Map.of("kafka.client." + key, "1")))
                    .as(key).isInstanceOf(ConfigException.class)
                    .hasMessageContaining("xmlingest sets " + key + " itself");
        }
    }

    @Test
    void passedThroughConnectionKeysStillReachIt() {
        Properties p = SharedWork.consumerProperties(IngestConfig.of(AppSettings.ALL, Map.of(
                "kafka.bootstrap.servers", "broker:9093", "kafka.client.security.protocol", "SSL")), "t.work", "w1");
        assertThat(p).containsEntry("security.protocol", "SSL").containsEntry("bootstrap.servers", "broker:9093");
    }
}
