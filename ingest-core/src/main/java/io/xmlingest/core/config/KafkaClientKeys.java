package io.xmlingest.core.config;

import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;

/**
 * What Kafka's own clients accept under the {@code kafka.client.} prefix: their config names,
 * which of them are secrets, and the ones xmlingest sets itself because its guarantees rest on
 * them (a user value there would be silently overridden, or would break exactly-once).
 */
public final class KafkaClientKeys {
    private KafkaClientKeys() {
    }

    public static final Set<String> PRODUCER = ProducerConfig.configNames();
    public static final Set<String> CONSUMER = ConsumerConfig.configNames();
    public static final Set<String> ADMIN = AdminClientConfig.configNames();

    /** Keys xmlingest owns, with the setting to use instead (empty when there is none to use). */
    static final Map<String, String> OWNED = Map.ofEntries(
            Map.entry("bootstrap.servers", "kafka.bootstrap.servers"),
            Map.entry("compression.type", "kafka.compression.type"),
            Map.entry("linger.ms", "kafka.linger.ms"),
            Map.entry("batch.size", "kafka.batch.size"),
            Map.entry("max.request.size", "kafka.max.request.size"),
            Map.entry("delivery.timeout.ms", "kafka.delivery.timeout.ms"),
            Map.entry("transaction.timeout.ms", "kafka.transaction.timeout.ms"),
            Map.entry("transactional.id", "worker.id"),
            Map.entry("enable.idempotence", ""),
            Map.entry("acks", ""),
            Map.entry("max.in.flight.requests.per.connection", ""),
            Map.entry("isolation.level", ""),
            Map.entry("enable.auto.commit", ""),
            Map.entry("auto.offset.reset", ""),
            Map.entry("allow.auto.create.topics", ""),
            Map.entry("key.serializer", ""),
            Map.entry("value.serializer", ""),
            Map.entry("key.deserializer", ""),
            Map.entry("value.deserializer", ""));

    /** Null when {@code key} may be passed through, else why not. */
    static String problem(String key) {
        if (OWNED.containsKey(key)) {
            String instead = OWNED.get(key);
            return "xmlingest sets " + key + " itself"
                    + (instead.isEmpty() ? ", because its delivery guarantees depend on it" : "; use " + instead);
        }
        if (!PRODUCER.contains(key) && !CONSUMER.contains(key) && !ADMIN.contains(key)) {
            return "not a Kafka producer, consumer or admin client setting";
        }
        return null;
    }

    /** True for the keys Kafka itself types as passwords, such as sasl.jaas.config and ssl.key.password. */
    public static boolean isSecret(String key) {
        return isPassword(ProducerConfig.configDef(), key) || isPassword(ConsumerConfig.configDef(), key)
                || isPassword(AdminClientConfig.configDef(), key);
    }

    private static boolean isPassword(ConfigDef def, String key) {
        ConfigDef.ConfigKey k = def.configKeys().get(key);
        return k != null && k.type == ConfigDef.Type.PASSWORD;
    }
}
