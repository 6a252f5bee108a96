package io.xmlingest.core.publish;

import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.config.KafkaClientKeys;
import io.xmlingest.core.config.KafkaClientKeys.Client;
import io.xmlingest.core.error.ConfigException;
import java.util.Properties;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Kafka client properties derived from xmlingest's settings. Every client starts from the
 * kafka.client.* keys it knows (security, SASL, SSL and the like), and xmlingest's own keys, which
 * that family refuses, are set over them.
 */
public final class KafkaClientSettings {
    private KafkaClientSettings() {
    }

    public static String bootstrapServers(IngestConfig config) {
        String servers = config.get(IngestSettings.BOOTSTRAP_SERVERS);
        if (servers.isBlank()) {
            throw new ConfigException(IngestSettings.BOOTSTRAP_SERVERS.key(),
                    IngestSettings.BOOTSTRAP_SERVERS.key() + " is empty: name the brokers as host:port");
        }
        return servers;
    }

    /** Idempotent, acks from all in-sync replicas: a retried send never writes a record twice. */
    public static Properties producer(IngestConfig config) {
        Properties p = passedThrough(config, Client.PRODUCER);
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(config));
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, config.get(IngestSettings.COMPRESSION));
        p.put(ProducerConfig.LINGER_MS_CONFIG, config.get(IngestSettings.LINGER_MS));
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, (int) (long) config.get(IngestSettings.BATCH_SIZE));
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, (int) (long) config.get(IngestSettings.MAX_REQUEST_SIZE));
        int delivery = config.get(IngestSettings.DELIVERY_TIMEOUT_MS);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, delivery);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.min(30_000, delivery - config.get(IngestSettings.LINGER_MS)));
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "xmlingest-producer");
        return p;
    }

    /**
     * The worker's producer: transactional under a stable id, so that a restarted worker fences
     * the one that died and aborts what it left open. Blocking calls give up after the
     * transaction timeout, so a lost broker surfaces as an error the worker retries.
     */
    public static Properties transactionalProducer(IngestConfig config, String transactionalId) {
        Properties p = producer(config);
        int timeout = config.get(IngestSettings.TRANSACTION_TIMEOUT_MS);
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        p.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, timeout);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Math.min(timeout, 30_000));
        // A batch never expires: it stays in its transaction until Kafka takes it or the transaction
        // is aborted, rather than failing the transaction and leaving its fate to a new producer.
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Integer.MAX_VALUE);
        // initTransactions after a crash is answered "concurrent transactions" while the coordinator aborts the
        // dead worker's transaction, and the client sleeps this long, not growing, before each retry: 100 ms by
        // default, for an abort that takes a few. Kafka itself uses 20 ms for the same wait on adding partitions.
        // Other retries still back off exponentially, up to retry.backoff.max.ms.
        p.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 20);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "xmlingest-" + transactionalId);
        return p;
    }

    /** A consumer's connection properties; the caller sets deserializers and isolation. */
    public static Properties consumer(IngestConfig config) {
        Properties p = passedThrough(config, Client.CONSUMER);
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(config));
        return p;
    }

    public static Properties admin(IngestConfig config) {
        Properties p = passedThrough(config, Client.ADMIN);
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(config));
        p.put(AdminClientConfig.CLIENT_ID_CONFIG, "xmlingest-admin");
        return p;
    }

    /** The kafka.client.* keys this kind of client knows; giving it others would only make it warn. */
    private static Properties passedThrough(IngestConfig config, Client client) {
        Properties p = new Properties();
        config.get(IngestSettings.KAFKA_CLIENT).forEach((key, value) -> {
            if (KafkaClientKeys.accepts(client, key)) {
                p.put(key, value);
            }
        });
        return p;
    }
}
