package io.xmlingest.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.xmlingest.app.AppProcess.Result;
import io.xmlingest.app.kafka.ClientListener;
import io.xmlingest.app.kafka.EmbeddedKafkaBroker;
import io.xmlingest.datagen.DatagenCommand;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster that takes only authenticated clients (SASL_PLAINTEXT, PLAIN), reached by the shipped
 * jar with its credentials in XMLINGEST_KAFKA_CLIENT_* variables, as a user would run it.
 */
class SecuredClusterIT {

    private static final String PASSWORD = "alice-Secr3t";
    private static EmbeddedKafkaBroker broker;
    private static Path brokerDir;

    @TempDir
    Path dir;

    @BeforeAll
    static void startSecuredBroker() throws Exception {
        brokerDir = Files.createTempDirectory("xmlingest-sasl-kafka");
        broker = EmbeddedKafkaBroker.start(brokerDir, "127.0.0.1", 0, ClientListener.saslPlain(Map.of("alice", PASSWORD)));
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    private static Map<String, String> credentials(String password) {
        return Map.of(
                "XMLINGEST_KAFKA_CLIENT_SECURITY_PROTOCOL", "SASL_PLAINTEXT",
                "XMLINGEST_KAFKA_CLIENT_SASL_MECHANISM", "PLAIN",
                "XMLINGEST_KAFKA_CLIENT_SASL_JAAS_CONFIG", jaas(password));
    }

    private static String jaas(String password) {
        return "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"alice\" password=\""
                + password + "\";";
    }

    @Test
    void ingestAndReadAuthenticateWithCredentialsFromTheEnvironment() throws Exception {
        DatagenCommand.generate(dir.resolve("persons.xml"), 2_000, 11);
        String topic = TestBroker.uniqueTopic("secured");

        Result ingest = AppProcess.run(dir, credentials(PASSWORD), "ingest", "persons.xml", "--topic", topic,
                "--bootstrap-servers", broker.bootstrapServers());
        assertThat(ingest.exit()).as(ingest.stderr()).isZero();
        assertThat(ingest.stdout()).anySatisfy(l -> assertThat(l).startsWith("persons.xml: 2000 records"));
        assertThat(ingest.stderr()).doesNotContain(PASSWORD);

        Result read = AppProcess.run(dir, credentials(PASSWORD), "read", "--topic", topic,
                "--bootstrap-servers", broker.bootstrapServers());
        assertThat(read.exit()).as(read.stderr()).isZero();
        assertThat(read.stdout()).hasSize(2_000);

        List<ConsumerRecord<byte[], byte[]>> records = readAuthenticated(topic);
        assertThat(records).hasSize(2_000);
        assertThat(SecuredWorkerRun.distinctRecordIndexes(records)).hasSize(2_000);
    }

    @Test
    void theWorkerPublishesExactlyOnceThroughTheSecuredListener() throws Exception {
        String log = SecuredWorkerRun.ingestsExactlyOnce(dir, "secured-it", List.of("--bootstrap-servers",
                broker.bootstrapServers()), credentials(PASSWORD), TestBroker.uniqueTopic("secured-worker"), 12,
                SecuredClusterIT::readAuthenticated);
        assertThat(log).doesNotContain(PASSWORD);
    }

    @Test
    void aWrongPasswordStopsIngestWithAClearErrorAndTheSettingsExitCode() throws Exception {
        DatagenCommand.generate(dir.resolve("persons.xml"), 100, 13);
        String topic = TestBroker.uniqueTopic("refused");

        Result ingest = AppProcess.run(dir, credentials("not-" + PASSWORD), "ingest", "persons.xml", "--topic", topic,
                "--bootstrap-servers", broker.bootstrapServers());
        assertThat(ingest.exit()).as(ingest.stderr()).isEqualTo(2);
        assertThat(ingest.stderr())
                .contains("error: Kafka did not accept xmlingest's credentials")
                .contains("Authentication failed")
                .contains("kafka.client.sasl.jaas.config")
                .doesNotContain(PASSWORD)
                .doesNotContain("\tat ");

        Result read = AppProcess.run(dir, credentials("not-" + PASSWORD), "read", "--topic", topic,
                "--bootstrap-servers", broker.bootstrapServers());
        assertThat(read.exit()).as(read.stderr()).isEqualTo(2);
        assertThat(read.stderr()).contains("error: Kafka did not accept xmlingest's credentials");
        assertThat(read.stdout()).isEmpty();
    }

    @Test
    void aWorkerWithAWrongPasswordSaysSoAndWaitsForKafkaToAcceptIt() throws Exception {
        Path inbox = dir.resolve("inbox");
        Files.createDirectories(inbox);
        Path log = dir.resolve("refused-worker.err");
        ProcessBuilder builder = new ProcessBuilder(AppProcess.javaBin(), "-jar", AppProcess.appJar(), "worker",
                "--inbox", inbox.toString(), "--topic", TestBroker.uniqueTopic("refused-worker"),
                "--bootstrap-servers", broker.bootstrapServers(), "--http-port", "-1")
                .directory(dir.toFile()).redirectOutput(dir.resolve("refused-worker.out").toFile())
                .redirectError(log.toFile());
        builder.environment().putAll(credentials("not-" + PASSWORD));
        Process worker = builder.start();
        try {
            long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
            while (!Files.readString(log).contains("did not accept") && worker.isAlive()
                    && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            // A service keeps trying (the cluster's credentials may be rotated before its own), saying why.
            assertThat(worker.isAlive()).as(Files.readString(log)).isTrue();
            assertThat(Files.readString(log))
                    .contains("Kafka did not accept xmlingest's credentials")
                    .contains("Authentication failed")
                    .contains("trying again")
                    .doesNotContain(PASSWORD);
        } finally {
            worker.destroy();
            assertThat(worker.waitFor(60, TimeUnit.SECONDS)).as("worker stops on SIGTERM").isTrue();
        }
    }

    @Test
    void configShowsWhereEachSecretCameFromButNeverItsValue() throws Exception {
        Path file = dir.resolve("secured.properties");
        Files.writeString(file, "kafka.client.sasl.mechanism=SCRAM-SHA-256\nkafka.client.metadata.max.age.ms=60000\n"
                + "kafka.client.ssl.key.password=key-" + PASSWORD + "\n");
        Result config = AppProcess.run(dir, credentials(PASSWORD), "config", "--config", file.toString(),
                "-s", "kafka.client.ssl.truststore.password=trust-" + PASSWORD,
                "-s", "kafka.client.ssl.truststore.location=/etc/kafka/truststore.p12");
        assertThat(config.exit()).as(config.stderr()).isZero();
        assertThat(config.stdout()).contains(
                "kafka.client.sasl.jaas.config = [hidden]  [environment]",
                "kafka.client.security.protocol = SASL_PLAINTEXT  [environment]",
                "kafka.client.sasl.mechanism = PLAIN  [environment]",
                "kafka.client.metadata.max.age.ms = 60000  [file]",
                "kafka.client.ssl.key.password = [hidden]  [file]",
                "kafka.client.ssl.truststore.password = [hidden]  [flag]",
                "kafka.client.ssl.truststore.location = /etc/kafka/truststore.p12  [flag]");
        assertThat(String.join("\n", config.stdout()) + config.stderr()).doesNotContain(PASSWORD);

        Result owned = AppProcess.run(dir, Map.of("XMLINGEST_KAFKA_CLIENT_BOOTSTRAP_SERVERS", "elsewhere:9092"),
                "config");
        assertThat(owned.exit()).isEqualTo(2);
        assertThat(owned.stderr()).contains("kafka.client.bootstrap.servers")
                .contains("XMLINGEST_KAFKA_CLIENT_BOOTSTRAP_SERVERS").contains("use kafka.bootstrap.servers");
    }

    /** Every committed record of the topic, read as alice. */
    private static List<ConsumerRecord<byte[], byte[]>> readAuthenticated(String topic) {
        return TestBroker.readCommitted(broker.bootstrapServers(), topic, Map.of("security.protocol", "SASL_PLAINTEXT",
                "sasl.mechanism", "PLAIN", "sasl.jaas.config", jaas(PASSWORD)));
    }
}
