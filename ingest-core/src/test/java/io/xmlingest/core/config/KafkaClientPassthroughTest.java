package io.xmlingest.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.core.config.IngestConfig.Shown;
import io.xmlingest.core.config.IngestConfig.Source;
import io.xmlingest.core.error.ConfigException;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

/** kafka.client.*: one declaration for every Kafka client key, from flags, environment and file, checked and masked. */
class KafkaClientPassthroughTest {

    private static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required "
            + "username=\"alice\" password=\"alice-secret\";";

    @Test
    void environmentVariablesMapToDottedKeys() {
        IngestConfig c = IngestConfig.resolve(IngestSettings.ALL, Map.of(), Map.of(
                "XMLINGEST_KAFKA_CLIENT_SECURITY_PROTOCOL", "SASL_SSL",
                "XMLINGEST_KAFKA_CLIENT_SASL_MECHANISM", "SCRAM-SHA-512",
                "XMLINGEST_KAFKA_CLIENT_SASL_JAAS_CONFIG", JAAS,
                "XMLINGEST_KAFKA_CLIENT_SSL_TRUSTSTORE_LOCATION", "/etc/kafka/truststore.p12",
                "XMLINGEST_KAFKA_COMPRESSION_TYPE", "zstd"), Map.of());
        assertThat(c.get(IngestSettings.KAFKA_CLIENT)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "security.protocol", "SASL_SSL",
                "sasl.mechanism", "SCRAM-SHA-512",
                "sasl.jaas.config", JAAS,
                "ssl.truststore.location", "/etc/kafka/truststore.p12"));
        // A fixed setting that shares the kafka. prefix is still itself, not a passed-through key.
        assertThat(c.get(IngestSettings.COMPRESSION)).isEqualTo("zstd");
    }

    @Test
    void everyKafkaClientKeySurvivesTheTripThroughItsEnvironmentVariable() {
        Set<String> all = new TreeSet<>(ProducerConfig.configNames());
        all.addAll(ConsumerConfig.configNames());
        all.addAll(AdminClientConfig.configNames());
        Setting<Map<String, String>> family = IngestSettings.KAFKA_CLIENT;
        for (String key : all) {
            String env = "XMLINGEST_KAFKA_CLIENT_" + key.toUpperCase(java.util.Locale.ROOT).replace('.', '_');
            assertThat(family.memberOfEnvVar(env)).as(env).contains(key);
        }
    }

    @Test
    void eachKeyTakesTheHighestLayerThatHasIt() {
        IngestConfig c = IngestConfig.resolve(IngestSettings.ALL,
                Map.of("kafka.client.sasl.mechanism", "PLAIN"),
                Map.of("XMLINGEST_KAFKA_CLIENT_SASL_MECHANISM", "SCRAM-SHA-256",
                        "XMLINGEST_KAFKA_CLIENT_SECURITY_PROTOCOL", "SASL_PLAINTEXT"),
                Map.of("kafka.client.security.protocol", "SSL", "kafka.client.metadata.max.age.ms", "60000"));
        assertThat(c.get(IngestSettings.KAFKA_CLIENT)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "sasl.mechanism", "PLAIN", "security.protocol", "SASL_PLAINTEXT", "metadata.max.age.ms", "60000"));
        assertThat(c.shown()).contains(
                new Shown("kafka.client.metadata.max.age.ms", "60000", Source.FILE),
                new Shown("kafka.client.sasl.mechanism", "PLAIN", Source.FLAG),
                new Shown("kafka.client.security.protocol", "SASL_PLAINTEXT", Source.ENVIRONMENT));
        assertThat(c.sourceOf(IngestSettings.KAFKA_CLIENT)).isEqualTo(Source.FLAG);
        assertThat(IngestConfig.of(IngestSettings.ALL, Map.of()).get(IngestSettings.KAFKA_CLIENT)).isEmpty();
    }

    @Test
    void keysXmlingestOwnsAreRefusedNamingTheSettingToUseInstead() {
        assertRefused("kafka.client.bootstrap.servers", "b:9092", "kafka.bootstrap.servers");
        assertRefused("kafka.client.acks", "1", "always all");
        assertRefused("kafka.client.enable.idempotence", "false", "always idempotent");
        assertRefused("kafka.client.transactional.id", "x", "worker.id");
        assertRefused("kafka.client.isolation.level", "read_uncommitted", "read_committed");
        assertRefused("kafka.client.value.serializer", "org.apache.kafka.common.serialization.StringSerializer",
                "bytes");
        assertRefused("kafka.client.compression.type", "gzip", "kafka.compression.type");
        assertRefused("kafka.client.linger.ms", "5", "kafka.linger.ms");
        assertRefused("kafka.client.delivery.timeout.ms", "5000", "kafka.delivery.timeout.ms");
        assertRefused("kafka.client.transaction.timeout.ms", "5000", "kafka.transaction.timeout.ms");
    }

    @Test
    void aKeyNoKafkaClientKnowsIsRefusedWithASuggestion() {
        assertThatThrownBy(() -> IngestConfig.of(IngestSettings.ALL, Map.of("kafka.client.sasl.mechansim", "PLAIN")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("kafka.client.sasl.mechansim")
                .hasMessageContaining("not a Kafka producer, consumer or admin client setting")
                .hasMessageContaining("did you mean sasl.mechanism");
        assertThatThrownBy(() -> IngestConfig.resolve(IngestSettings.ALL, Map.of(),
                Map.of("XMLINGEST_KAFKA_CLIENT_LISTENERS", "PLAINTEXT://:9092"), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("kafka.client.listeners")
                .hasMessageContaining("environment variable XMLINGEST_KAFKA_CLIENT_LISTENERS");
    }

    @Test
    void valuesAreCheckedAsKafkaChecksThem() {
        assertThatThrownBy(() -> IngestConfig.of(IngestSettings.ALL, Map.of("kafka.client.security.protocol", "SASL_SSSL")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("kafka.client.security.protocol='SASL_SSSL'")
                .hasMessageContaining("(flag)");
        assertThatThrownBy(() -> IngestConfig.resolve(IngestSettings.ALL, Map.of(), Map.of(),
                Map.of("kafka.client.metadata.max.age.ms", "soon")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("kafka.client.metadata.max.age.ms")
                .hasMessageContaining("(config file)");
    }

    @Test
    void secretsAreHiddenWhereverSettingsArePrinted() {
        IngestConfig c = IngestConfig.resolve(IngestSettings.ALL,
                Map.of("kafka.client.ssl.truststore.password", "trust-secret"),
                Map.of("XMLINGEST_KAFKA_CLIENT_SASL_JAAS_CONFIG", JAAS),
                Map.of("kafka.client.ssl.key.password", "key-secret", "kafka.client.sasl.mechanism", "PLAIN"));
        assertThat(c.shown()).contains(
                new Shown("kafka.client.sasl.jaas.config", IngestConfig.HIDDEN, Source.ENVIRONMENT),
                new Shown("kafka.client.ssl.truststore.password", IngestConfig.HIDDEN, Source.FLAG),
                new Shown("kafka.client.ssl.key.password", IngestConfig.HIDDEN, Source.FILE),
                new Shown("kafka.client.sasl.mechanism", "PLAIN", Source.FILE));
        assertThat(c.shown()).noneSatisfy(s -> assertThat(s.text()).containsAnyOf("secret"));
        // The values themselves are intact for the clients.
        assertThat(c.get(IngestSettings.KAFKA_CLIENT)).containsEntry("ssl.truststore.password", "trust-secret");
        assertThat(KafkaClientKeys.isSecret("sasl.oauthbearer.client.credentials.client.secret")).isTrue();
        assertThat(KafkaClientKeys.isSecret("ssl.truststore.location")).isFalse();
    }

    @Test
    void aSecretIsNotRepeatedInAnError() {
        assertThatThrownBy(() -> IngestConfig.resolve(IngestSettings.ALL, Map.of(),
                Map.of("XMLINGEST_KAFKA_CLIENT_SSL_KEYSTORE_PASSWORD", "hunter2", "XMLINGEST_KAFKA_CLIENT_ACKS", "1"),
                Map.of("kafka.client.sasl.jaas.config", JAAS, "kafka.client.enable.idempotence", "false")))
                .isInstanceOf(ConfigException.class)
                .hasMessageNotContaining("hunter2").hasMessageNotContaining("alice-secret");
        Setting<Map<String, String>> strict = Setting.family("test.", "A family that refuses every value.",
                (key, value) -> "too short", key -> key.endsWith("password"));
        assertThatThrownBy(() -> strict.parseMember("db.password", "s3cret", "flag"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("invalid setting test.db.password=[hidden] (flag): too short")
                .hasMessageNotContaining("s3cret");
        assertThatThrownBy(() -> strict.parseMember("db.user", "sam", "flag"))
                .hasMessageStartingWith("invalid setting test.db.user='sam' (flag): too short");
    }

    /**
     * Kafka parses the JAAS text only as a client connects, and then fails without naming it: the
     * worker took that for Kafka away and retried for ever. Refused at start now, without its secret.
     */
    @Test
    void aJaasConfigurationKafkaCannotReadIsRefusedAtStartWithoutShowingIt() {
        assertThatThrownBy(() -> IngestConfig.resolve(IngestSettings.ALL, Map.of(), Map.of(),
                Map.of("kafka.client.sasl.jaas.config", "garbage password=\"s3cr3t\"")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("kafka.client.sasl.jaas.config=[hidden]")
                .hasMessageContaining("not a valid JAAS configuration")
                .hasMessageNotContaining("s3cr3t");
        assertThat(KafkaClientKeys.check("sasl.jaas.config", JAAS)).isNull();
        // Left empty by a template for a cluster without SASL: no client reads it, and it was taken before.
        assertThat(KafkaClientKeys.check("sasl.jaas.config", "")).isNull();
    }

    @Test
    void theFamilyKeepsItsMembersThroughWith() {
        IngestConfig c = IngestConfig.resolve(IngestSettings.ALL, Map.of(),
                Map.of("XMLINGEST_KAFKA_CLIENT_SASL_MECHANISM", "PLAIN"), Map.of())
                .with(Map.of("kafka.bootstrap.servers", "127.0.0.1:9092"));
        assertThat(c.get(IngestSettings.KAFKA_CLIENT)).containsExactlyEntriesOf(Map.of("sasl.mechanism", "PLAIN"));
        assertThat(c.get(IngestSettings.BOOTSTRAP_SERVERS)).isEqualTo("127.0.0.1:9092");
    }

    @Test
    void theConfigTableDocumentsTheFamilyInOneRow() {
        String table = ConfigDocPrinter.markdownTable(IngestSettings.ALL);
        assertThat(table).contains("| `kafka.client.<key>` | `XMLINGEST_KAFKA_CLIENT_<KEY>` | string, per key | (none) |");
    }

    private static void assertRefused(String key, String value, String instead) {
        assertThatThrownBy(() -> IngestConfig.of(IngestSettings.ALL, Map.of(key, value)))
                .as(key)
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(key)
                .hasMessageContaining("xmlingest sets")
                .hasMessageContaining(instead);
    }
}
