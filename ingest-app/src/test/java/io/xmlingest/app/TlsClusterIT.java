package io.xmlingest.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.xmlingest.app.AppProcess.Result;
import io.xmlingest.app.kafka.ClientListener;
import io.xmlingest.app.kafka.EmbeddedKafkaBroker;
import io.xmlingest.datagen.DatagenCommand;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's secured-cluster examples as written: SASL_SSL with SCRAM-SHA-512, the broker's
 * certificate checked against a PKCS12 trust store, the non-secret settings in a properties file
 * and the secrets in XMLINGEST_KAFKA_CLIENT_* variables; and mutual TLS, a client certificate in
 * place of SASL. The certificates are made for the test by the JDK's keytool.
 */
class TlsClusterIT {

    private static final String PASSWORD = "xmlingest-S3cret";
    private static final String STORE_PASSWORD = "changeit-42";
    private static final String BROKER_STORE_PASSWORD = "broker-only-7";
    private static EmbeddedKafkaBroker broker;
    private static EmbeddedKafkaBroker mutualBroker;
    private static Path brokerDir;
    private static TestCertificates certificates;

    @TempDir
    Path dir;

    @BeforeAll
    static void startBroker() throws Exception {
        brokerDir = Files.createTempDirectory("xmlingest-scram-kafka");
        // The clients' stores and the brokers' have passwords of their own, so a mix-up would show.
        certificates = TestCertificates.forLoopback(brokerDir.resolve("tls"), BROKER_STORE_PASSWORD, STORE_PASSWORD);
        broker = EmbeddedKafkaBroker.start(brokerDir.resolve("scram"), "127.0.0.1", 0, ClientListener.scramOverTls(
                Map.of("xmlingest", PASSWORD), certificates.keystore(), BROKER_STORE_PASSWORD));
        mutualBroker = EmbeddedKafkaBroker.start(brokerDir.resolve("mutual"), "127.0.0.1", 0, ClientListener.mutualTls(
                certificates.keystore(), BROKER_STORE_PASSWORD, certificates.clientTruststore(), BROKER_STORE_PASSWORD));
        for (String b : new String[] {"scram", "mutual"}) {
            // The format step needs a settings file; the brokers' secrets stay out of it.
            assertThat(Files.readString(brokerDir.resolve(b).resolve("server.properties")))
                    .doesNotContain(PASSWORD).doesNotContain(BROKER_STORE_PASSWORD).doesNotContain("jaas");
        }
    }

    @AfterAll
    static void stopBrokers() {
        for (EmbeddedKafkaBroker b : new EmbeddedKafkaBroker[] {broker, mutualBroker}) {
            if (b != null) {
                b.close();
            }
        }
    }

    /** The README's secured.properties, pointed at the test broker and trust store. */
    private Path securedProperties() throws Exception {
        return Files.writeString(dir.resolve("secured.properties"), String.join("\n",
                "kafka.bootstrap.servers=" + broker.bootstrapServers(),
                "kafka.client.security.protocol=SASL_SSL",
                "kafka.client.sasl.mechanism=SCRAM-SHA-512",
                "kafka.client.ssl.truststore.location=" + certificates.truststore(),
                "kafka.client.ssl.truststore.type=PKCS12", ""));
    }

    private static Map<String, String> secrets(String password) {
        return Map.of(
                "XMLINGEST_KAFKA_CLIENT_SASL_JAAS_CONFIG", jaas(password),
                "XMLINGEST_KAFKA_CLIENT_SSL_TRUSTSTORE_PASSWORD", STORE_PASSWORD);
    }

    private static String jaas(String password) {
        return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"xmlingest\" password=\""
                + password + "\";";
    }

    @Test
    void ingestReadAndTheWorkerRunAsTheReadmeSays() throws Exception {
        Path settings = securedProperties();
        DatagenCommand.generate(dir.resolve("persons.xml"), 2_000, 21);
        String topic = TestBroker.uniqueTopic("scram");

        Result ingest = AppProcess.run(dir, secrets(PASSWORD), "ingest", "persons.xml", "--topic", topic,
                "--config", settings.toString());
        assertThat(ingest.exit()).as(ingest.stderr()).isZero();
        assertThat(ingest.stdout()).anySatisfy(l -> assertThat(l).startsWith("persons.xml: 2000 records"));

        Result read = AppProcess.run(dir, secrets(PASSWORD), "read", "--topic", topic, "--config", settings.toString());
        assertThat(read.exit()).as(read.stderr()).isZero();
        assertThat(read.stdout()).hasSize(2_000);
        assertThat(SecuredWorkerRun.distinctRecordIndexes(readAuthenticated(topic))).hasSize(2_000);

        String log = SecuredWorkerRun.ingestsExactlyOnce(dir, "scram-it", List.of("--config", settings.toString()),
                secrets(PASSWORD), TestBroker.uniqueTopic("scram-worker"), 22, TlsClusterIT::readAuthenticated);
        assertThat(log).doesNotContain(PASSWORD).doesNotContain(STORE_PASSWORD);
        assertThat(ingest.stderr() + read.stderr()).doesNotContain(PASSWORD).doesNotContain(STORE_PASSWORD);
    }

    @Test
    void aWrongScramPasswordIsRefusedWithTheSettingToCheck() throws Exception {
        Path settings = securedProperties();
        DatagenCommand.generate(dir.resolve("persons.xml"), 100, 23);

        Result ingest = AppProcess.run(dir, secrets("not-" + PASSWORD), "ingest", "persons.xml",
                "--topic", TestBroker.uniqueTopic("scram-refused"), "--config", settings.toString());
        assertThat(ingest.exit()).as(ingest.stderr()).isEqualTo(2);
        assertThat(ingest.stderr())
                .contains("error: Kafka did not accept xmlingest's credentials")
                .contains("SCRAM-SHA-512")
                .contains("kafka.client.sasl.jaas.config")
                .doesNotContain(PASSWORD)
                .doesNotContain("\tat ");
    }

    @Test
    void aBrokerCertificateTheTrustStoreDoesNotHoldIsRefusedNamingTheTrustStoreSettings() throws Exception {
        // Without the trust store the JVM's own authorities are asked, and none signed the test broker's certificate.
        Path settings = Files.writeString(dir.resolve("untrusting.properties"), String.join("\n",
                "kafka.bootstrap.servers=" + broker.bootstrapServers(),
                "kafka.client.security.protocol=SASL_SSL",
                "kafka.client.sasl.mechanism=SCRAM-SHA-512", ""));
        DatagenCommand.generate(dir.resolve("persons.xml"), 100, 24);

        Result ingest = AppProcess.run(dir, Map.of("XMLINGEST_KAFKA_CLIENT_SASL_JAAS_CONFIG", jaas(PASSWORD)),
                "ingest", "persons.xml", "--topic", TestBroker.uniqueTopic("untrusted"), "--config", settings.toString());
        assertThat(ingest.exit()).as(ingest.stderr()).isEqualTo(2);
        // Not "Kafka did not accept xmlingest's credentials": it is xmlingest that refused the broker.
        assertThat(ingest.stderr())
                .contains("error: xmlingest does not trust the Kafka broker's certificate: "
                        + "unable to find valid certification path to requested target")
                .contains("kafka.client.ssl.truststore.location")
                .doesNotContain("did not accept")
                .doesNotContain(PASSWORD)
                .doesNotContain("\tat ");
    }

    @Test
    void aClientCertificateStandsInForSasl() throws Exception {
        String common = String.join("\n",
                "kafka.bootstrap.servers=" + mutualBroker.bootstrapServers(),
                "kafka.client.security.protocol=SSL",
                "kafka.client.ssl.truststore.location=" + certificates.truststore(),
                "kafka.client.ssl.truststore.type=PKCS12", "");
        Path withCertificate = Files.writeString(dir.resolve("mutual.properties"), common
                + "kafka.client.ssl.keystore.location=" + certificates.clientKeystore() + "\n"
                + "kafka.client.ssl.keystore.type=PKCS12\n");
        Path withoutCertificate = Files.writeString(dir.resolve("no-certificate.properties"), common);
        Map<String, String> secrets = Map.of(
                "XMLINGEST_KAFKA_CLIENT_SSL_TRUSTSTORE_PASSWORD", STORE_PASSWORD,
                "XMLINGEST_KAFKA_CLIENT_SSL_KEYSTORE_PASSWORD", STORE_PASSWORD,
                "XMLINGEST_KAFKA_CLIENT_SSL_KEY_PASSWORD", STORE_PASSWORD);
        DatagenCommand.generate(dir.resolve("persons.xml"), 1_000, 25);
        String topic = TestBroker.uniqueTopic("mutual");

        Result ingest = AppProcess.run(dir, secrets, "ingest", "persons.xml", "--topic", topic,
                "--config", withCertificate.toString());
        assertThat(ingest.exit()).as(ingest.stderr()).isZero();
        Result read = AppProcess.run(dir, secrets, "read", "--topic", topic, "--config", withCertificate.toString());
        assertThat(read.exit()).as(read.stderr()).isZero();
        assertThat(read.stdout()).hasSize(1_000);

        Result refused = AppProcess.run(dir, Map.of("XMLINGEST_KAFKA_CLIENT_SSL_TRUSTSTORE_PASSWORD", STORE_PASSWORD),
                "ingest", "persons.xml", "--topic", topic, "--config", withoutCertificate.toString());
        assertThat(refused.exit()).as(refused.stderr()).isEqualTo(2);
        assertThat(refused.stderr())
                .contains("error: the TLS handshake with Kafka failed: ")
                .contains("the key store among them")
                .doesNotContain(STORE_PASSWORD)
                .doesNotContain("\tat ");

        // A key store password with no key store: Kafka's client will not start, and no retry can change that.
        Result misconfigured = AppProcess.run(dir, secrets, "ingest", "persons.xml", "--topic", topic,
                "--config", withoutCertificate.toString());
        assertThat(misconfigured.exit()).as(misconfigured.stderr()).isEqualTo(2);
        assertThat(misconfigured.stderr()).contains("error: Kafka's client refused its settings: SSL key store is not "
                + "specified, but key store password is specified (setting: kafka.client.*)").doesNotContain("\tat ");
        ProcessBuilder worker = new ProcessBuilder(AppProcess.javaBin(), "-jar", AppProcess.appJar(), "worker",
                "--config", withoutCertificate.toString(), "--inbox", Files.createDirectories(dir.resolve("inbox")).toString(),
                "--topic", topic, "--http-port", "-1").directory(dir.toFile())
                .redirectOutput(dir.resolve("worker.out").toFile()).redirectError(dir.resolve("worker.err").toFile());
        worker.environment().putAll(secrets);
        Process p = worker.start();
        assertThat(p.waitFor(2, TimeUnit.MINUTES)).as("a misconfigured worker stops").isTrue();
        assertThat(p.exitValue()).isEqualTo(2);
        assertThat(Files.readString(dir.resolve("worker.err"))).contains("Kafka's client refused its settings")
                .doesNotContain("Kafka is unavailable").doesNotContain(STORE_PASSWORD);
        assertThat(ingest.stderr() + read.stderr()).doesNotContain(STORE_PASSWORD);
    }

    /** Every committed record of the topic, read over the same listener with the same credentials. */
    private static List<ConsumerRecord<byte[], byte[]>> readAuthenticated(String topic) {
        return TestBroker.readCommitted(broker.bootstrapServers(), topic, Map.of(
                "security.protocol", "SASL_SSL", "sasl.mechanism", "SCRAM-SHA-512", "sasl.jaas.config", jaas(PASSWORD),
                "ssl.truststore.location", certificates.truststore().toString(), "ssl.truststore.type", "PKCS12",
                "ssl.truststore.password", STORE_PASSWORD));
    }
}
