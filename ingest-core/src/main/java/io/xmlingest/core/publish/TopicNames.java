package io.xmlingest.core.publish;

import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;

/**
 * The worker's four topics. Only records go to the record topic; the others are named after it
 * unless set, so one setting is enough to run a worker.
 */
public record TopicNames(String records, String deadLetters, String status, String checkpoints) {

    public static TopicNames of(IngestConfig config) {
        String records = config.get(IngestSettings.TOPIC);
        return new TopicNames(records,
                orDerived(config.get(IngestSettings.TOPIC_DEAD_LETTERS), records + ".dlq"),
                orDerived(config.get(IngestSettings.TOPIC_STATUS), records + ".status"),
                orDerived(config.get(IngestSettings.TOPIC_CHECKPOINTS), records + ".checkpoints"));
    }

    private static String orDerived(String value, String derived) {
        return value.isBlank() ? derived : value;
    }
}
