package io.xmlingest.core.config;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.SaslConfigs;

/**
 * The Kafka client keys that {@code kafka.client.*} may pass through, as Kafka's own client
 * config declarations define them: which client knows a key, which values are secret, and which
 * keys xmlingest sets itself and so refuses, naming what to use instead.
 */
public final class KafkaClientKeys {
    private KafkaClientKeys() {
    }

    /** The kinds of client xmlingest makes. */
    public enum Client { PRODUCER, CONSUMER, ADMIN }

    private static final Map<Client, ConfigDef> DECLARED = new EnumMap<>(Map.of(
            Client.PRODUCER, ProducerConfig.configDef(),
            Client.CONSUMER, ConsumerConfig.configDef(),
            Client.ADMIN, AdminClientConfig.configDef()));

    /**
     * Keys that xmlingest sets on some client, with why and what to use instead. A passed-through
     * value would either be overwritten without a word or break a guarantee, so each is refused.
     */
    private static final Map<String, String> OWNED = owned();

    private static Map<String, String> owned() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("bootstrap.servers", "use " + IngestSettings.BOOTSTRAP_SERVERS.key() + " (or --bootstrap-servers)");
        m.put("client.id", "xmlingest names each of its clients (xmlingest-producer, xmlingest-<worker id>, "
                + "xmlingest-checkpoints, xmlingest-admin, xmlingest-read)");
        m.put("compression.type", "use " + IngestSettings.COMPRESSION.key());
        m.put("linger.ms", "use " + IngestSettings.LINGER_MS.key());
        m.put("batch.size", "use " + IngestSettings.BATCH_SIZE.key());
        m.put("max.request.size", "use " + IngestSettings.MAX_REQUEST_SIZE.key());
        m.put("delivery.timeout.ms", "use " + IngestSettings.DELIVERY_TIMEOUT_MS.key());
        m.put("request.timeout.ms", "the producer's follows " + IngestSettings.DELIVERY_TIMEOUT_MS.key());
        m.put("transaction.timeout.ms", "use " + IngestSettings.TRANSACTION_TIMEOUT_MS.key());
        m.put("max.block.ms", "the worker's producer follows " + IngestSettings.TRANSACTION_TIMEOUT_MS.key());
        m.put("transactional.id", "the worker's transactional id is its worker.id");
        m.put("enable.idempotence", "the producer is always idempotent, so a retried send is never written twice");
        m.put("acks", "always all, which the idempotent producer needs");
        m.put("max.in.flight.requests.per.connection", "always 5, the most an idempotent producer keeps in order");
        m.put("retry.backoff.ms", "the worker's producer retries after 20 ms, so a restart aborts its predecessor's "
                + "transaction quickly");
        m.put("key.serializer", "keys and values are bytes that xmlingest encodes");
        m.put("value.serializer", "keys and values are bytes that xmlingest encodes");
        m.put("key.deserializer", "keys and values are read as bytes");
        m.put("value.deserializer", "keys and values are read as bytes");
        m.put("isolation.level", "xmlingest reads committed records only (read_committed)");
        m.put("enable.auto.commit", "xmlingest commits offsets itself: the work topic's once a shard has ended, none elsewhere");
        m.put("auto.offset.reset", "xmlingest's consumers read from the beginning");
        m.put("allow.auto.create.topics", "xmlingest creates its topics itself (see topic.partitions), "
                + "the checkpoint topic compacted");
        m.put("fetch.max.wait.ms", "the checkpoint reader waits 10 ms, so a restart reads its checkpoints quickly");
        m.put("max.poll.records", "the read command polls 5000 records at a time, and a sharing worker takes one work "
                + "order at a time");
        // The work topic's consumer group (work.shards > 0): its members must agree on these, and the
        // sharing guarantees rest on them.
        m.put("group.id", "workers sharing files form the group <work.topic>-workers; change work.topic to form another");
        m.put("group.protocol", "the work topic's group uses the classic protocol, with cooperative sticky assignment");
        m.put("partition.assignment.strategy", "the work topic's group uses cooperative sticky assignment, so a shard "
                + "stays with its worker through a rebalance");
        m.put("group.instance.id", "one value given to every sharing worker would make them fence each other; "
                + "each worker joins the group as a member of its own");
        m.put("session.timeout.ms", "a sharing worker that stops heartbeating loses its shards after 10 s");
        m.put("heartbeat.interval.ms", "a sharing worker heartbeats every third of its 10 s session");
        m.put("max.poll.interval.ms", "a sharing worker may hold a work order for an hour, as a shard of a huge file "
                + "takes minutes");
        return Map.copyOf(m);
    }

    /** The keys xmlingest sets itself, which kafka.client.* refuses. */
    public static Set<String> ownedKeys() {
        return OWNED.keySet();
    }

    /** True when this client declares the key, so it is passed to it (others would warn it is unknown). */
    public static boolean accepts(Client client, String key) {
        return DECLARED.get(client).configKeys().containsKey(key);
    }

    /** True when the key's value must never be shown: Kafka declares it a password, or it is a JAAS configuration. */
    public static boolean isSecret(String key) {
        if (SaslConfigs.SASL_JAAS_CONFIG.equals(key)) {
            return true;
        }
        for (ConfigDef def : DECLARED.values()) {
            ConfigDef.ConfigKey declared = def.configKeys().get(key);
            if (declared != null && declared.type == ConfigDef.Type.PASSWORD) {
                return true;
            }
        }
        return false;
    }

    /**
     * Null when the key may be passed through with this value, else why not: xmlingest owns it,
     * no client knows it, or a client that knows it would refuse the value. Values are checked the
     * way the clients check them, so a mistake stops start-up rather than the first connection.
     */
    public static String check(String key, String value) {
        String instead = OWNED.get(key);
        if (instead != null) {
            return "xmlingest sets " + key + " itself: " + instead;
        }
        boolean known = false;
        for (ConfigDef def : DECLARED.values()) {
            ConfigDef.ConfigKey declared = def.configKeys().get(key);
            if (declared == null) {
                continue;
            }
            known = true;
            try {
                Object parsed = ConfigDef.parseType(key, value, declared.type);
                if (declared.validator != null) {
                    declared.validator.ensureValid(key, parsed);
                }
            } catch (org.apache.kafka.common.config.ConfigException e) {
                // Kafka's message repeats the value, which must not be shown for a secret.
                return isSecret(key) ? "not a valid value for a " + declared.type.name().toLowerCase(Locale.ROOT) + " setting"
                        : e.getMessage();
            }
        }
        if (known && "sasl.jaas.config".equals(key) && !value.isBlank()) {
            // A password to Kafka's definitions, so no check there: the clients parse it only as they connect, and
            // then fail without naming it, which the worker took for Kafka away and retried for ever.
            try {
                org.apache.kafka.common.security.JaasContext.loadClientContext(
                        Map.of(key, new org.apache.kafka.common.config.types.Password(value)));
            } catch (IllegalArgumentException e) {
                // Its message quotes parts of the text, which may hold the password.
                return "not a valid JAAS configuration (LoginModuleClass FLAG key=\"value\" ...;), as Kafka reads it";
            }
        }
        if (!known) {
            Set<String> all = new TreeSet<>();
            DECLARED.values().forEach(def -> all.addAll(def.names()));
            return key + " is not a Kafka producer, consumer or admin client setting"
                    + IngestConfig.closest(key, all);
        }
        return null;
    }
}
