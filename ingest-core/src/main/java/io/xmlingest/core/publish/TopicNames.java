package io.xmlingest.core.publish;

import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.config.Setting;
import io.xmlingest.core.config.Validators;
import io.xmlingest.core.error.ConfigException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The worker's topics. Only records go to the record topics (one per record type, or one for
 * all); the others are named after the first unless set, so one setting is enough to run a worker.
 */
public record TopicNames(List<String> recordTopics, String deadLetters, String status, String checkpoints) {

    public TopicNames {
        recordTopics = List.copyOf(new LinkedHashSet<>(recordTopics));
    }

    /**
     * The topics the settings name. Each topic has one use: dead letters, status events or
     * checkpoints in a record topic would reach its consumers as records, and checkpoints need a
     * compacted topic of their own.
     *
     * @throws ConfigException naming the setting when two uses share a topic, or a name made from
     *                         {@code topic} is one Kafka does not allow
     */
    public static TopicNames of(IngestConfig config) {
        List<String> records = config.get(IngestSettings.TOPIC);
        String first = records.get(0);
        Map<String, Setting<?>> used = new LinkedHashMap<>();
        for (String t : records) {
            used.put(t, IngestSettings.TOPIC);
        }
        return new TopicNames(records,
                own(used, IngestSettings.TOPIC_DEAD_LETTERS, config, first + ".dlq"),
                own(used, IngestSettings.TOPIC_STATUS, config, first + ".status"),
                own(used, IngestSettings.TOPIC_CHECKPOINTS, config, first + ".checkpoints"));
    }

    private static String own(Map<String, Setting<?>> used, Setting<String> setting, IngestConfig config, String derived) {
        String set = config.get(setting);
        String name = set.isBlank() ? derived : set;
        if (set.isBlank()) {
            String problem = Validators.topicName(false).apply(name);
            if (problem != null) {
                throw new ConfigException(setting.key(), setting.key() + " is empty, so it would be " + IngestSettings.TOPIC.key()
                        + " with a suffix, and " + problem + ": set " + setting.key() + " or a shorter " + IngestSettings.TOPIC.key());
            }
        }
        Setting<?> other = used.putIfAbsent(name, setting);
        if (other != null) {
            // The one to change is the one that was set: a derived name follows topic.
            boolean followsTopic = set.isBlank();
            String toChange = followsTopic ? other.key() : setting.key();
            throw new ConfigException(toChange, toChange + " names topic " + name + ", which " + (followsTopic
                    ? setting.key() + " names too, being empty ("
                    + IngestSettings.TOPIC.key() + " with a suffix)" : other.key() + " names too")
                    + "; each use needs a topic of its own (its messages would reach the other's consumers)");
        }
        return name;
    }

    /** Every topic the worker uses: the record topics, then dead letters, status and checkpoints. */
    public List<String> all() {
        List<String> all = new ArrayList<>(recordTopics);
        all.addAll(List.of(deadLetters, status, checkpoints));
        return all;
    }

    /** The first record topic: the one the other topics are named after. */
    public String records() {
        return recordTopics.get(0);
    }

}
