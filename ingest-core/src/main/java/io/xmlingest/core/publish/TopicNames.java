package io.xmlingest.core.publish;

import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The worker's topics. Only records go to the record topics (one per record type, or one for
 * all); the others are named after the first unless set, so one setting is enough to run a worker.
 */
public record TopicNames(List<String> recordTopics, String deadLetters, String status, String checkpoints) {

    public TopicNames {
        recordTopics = List.copyOf(new LinkedHashSet<>(recordTopics));
    }

    public static TopicNames of(IngestConfig config) {
        List<String> records = config.get(IngestSettings.TOPIC);
        String first = records.get(0);
        return new TopicNames(records,
                orDerived(config.get(IngestSettings.TOPIC_DEAD_LETTERS), first + ".dlq"),
                orDerived(config.get(IngestSettings.TOPIC_STATUS), first + ".status"),
                orDerived(config.get(IngestSettings.TOPIC_CHECKPOINTS), first + ".checkpoints"));
    }

    /** The first record topic: the one the other topics are named after. */
    public String records() {
        return recordTopics.get(0);
    }

    private static String orDerived(String value, String derived) {
        return value.isBlank() ? derived : value;
    }
}
