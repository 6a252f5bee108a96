package io.xmlingest.core.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ConfigException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopicNamesTest {

    private static TopicNames of(String... keyValues) {
        Map<String, String> settings = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            settings.put(keyValues[i], keyValues[i + 1]);
        }
        return TopicNames.of(IngestConfig.of(IngestSettings.ALL, settings));
    }

    @Test
    void theOtherTopicsAreNamedAfterTheFirstRecordTopicUnlessSet() {
        TopicNames t = of("topic", "orders,refunds", "topic.status", "audit");
        assertThat(t.recordTopics()).containsExactly("orders", "refunds");
        assertThat(t.deadLetters()).isEqualTo("orders.dlq");
        assertThat(t.status()).isEqualTo("audit");
        assertThat(t.checkpoints()).isEqualTo("orders.checkpoints");
    }

    @Test
    void twoUsesOfOneTopicAreRefusedNamingTheSetting() {
        // Before, dead letters and status events were published into the record topic, among the records.
        assertThatThrownBy(() -> of("topic", "same", "topic.dlq", "same"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("(setting: topic.dlq)")
                .hasMessageContaining("topic.dlq names topic same, which topic names too; each use needs a topic of its own");
        assertThatThrownBy(() -> of("topic", "a,b", "topic.status", "b"))
                .hasMessageContaining("topic.status names topic b, which topic names too");
        assertThatThrownBy(() -> of("topic", "t", "topic.checkpoints", "t.dlq"))
                .hasMessageContaining("topic.checkpoints names topic t.dlq, which topic.dlq names too");
        // The setting named is the one that was set, not the one that follows topic.
        assertThatThrownBy(() -> of("topic", "t", "topic.dlq", "t.status"))
                .hasMessageContaining("(setting: topic.dlq)")
                .hasMessageContaining("topic.dlq names topic t.status, which topic.status names too, being empty (topic "
                        + "with a suffix)");
    }

    @Test
    void aDerivedNameKafkaWouldRefuseNamesTheSettingThatAvoidsIt() {
        String topic = "a".repeat(245);
        assertThatThrownBy(() -> of("topic", topic))
                .isInstanceOf(ConfigException.class).hasMessageContaining("(setting: topic.status)")
                .hasMessageContaining("topic.status is empty, so it would be topic with a suffix, and topic name '"
                        + topic + ".status' has 252 characters, Kafka allows at most 249: set topic.status or a shorter topic");
        TopicNames set = of("topic", topic, "topic.status", "s", "topic.checkpoints", "c");
        assertThat(List.of(set.deadLetters(), set.status(), set.checkpoints())).containsExactly(topic + ".dlq", "s", "c");
    }
}
