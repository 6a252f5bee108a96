package io.xmlingest.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.xmlingest.app.AppProcess.Result;
import io.xmlingest.app.cli.ExitCodes;
import io.xmlingest.app.kafka.EmbeddedKafkaBroker;
import io.xmlingest.datagen.DatagenCommand;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker that only lets clients in with SASL/PLAIN credentials: the kafka.client.* settings,
 * given as environment variables the way a container would get them, reach it from every client
 * xmlingest makes (admin, producers, the transactional one, consumers), and the password is never printed.
 */
class SecuredClusterIT {

    private static final String PASSWORD = "pl41n-s3cret";

    @TempDir
    static Path dir;
    private static EmbeddedKafkaBroker broker;

    @BeforeAll
    static void startSecuredBroker() {
        broker = EmbeddedKafkaBroker.start(dir.resolve("kafka"), "127.0.0.1", 0, Map.of("ingest", PASSWORD));
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    private static Map<String, String> credentials(String password) {
        Map<String, String> env = new HashMap<>();
        env.put("XMLINGEST_KAFKA_CLIENT_SECURITY_PROTOCOL", "SASL_PLAINTEXT");
        env.put("XMLINGEST_KAFKA_CLIENT_SASL_MECHANISM", "PLAIN");
        env.put("XMLINGEST_KAFKA_CLIENT_SASL_JAAS_CONFIG", "org.apache.kafka.common.security.plain.PlainLoginModule "
                + "required username=\"ingest\" password=\"" + password + "\";");
        env.put("XMLINGEST_KAFKA_BOOTSTRAP_SERVERS", broker.bootstrapServers());
        return env;
    }

    @Test
    void ingestAndTheWorkerPublishAndReadBackWithCredentials() throws Exception {
        DatagenCommand.generate(dir.resolve("persons.xml"), 1_500, 9);
        Result ingest = AppProcess.run(dir, credentials(PASSWORD), "ingest", "persons.xml", "--topic", "secured");
        assertThat(ingest.exit()).as(ingest.stderr()).isZero();
        Result read = AppProcess.run(dir, credentials(PASSWORD), "read", "--topic", "secured");
        assertThat(read.exit()).as(read.stderr()).isZero();
        assertThat(read.stdout()).hasSize(1_500);
        assertThat(read.stderr()).doesNotContain(PASSWORD);

        // The worker: transactional producer, checkpoint consumer and admin client, all authenticated.
        Path inbox = Files.createDirectories(dir.resolve("inbox"));
        List<String> command = List.of(AppProcess.javaBin(), "-jar", AppProcess.appJar(), "worker", "--inbox",
                inbox.toString(), "--topic", "secured-worker", "--http-port", "-1", "-s", "inbox.settle.ms=0");
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
                .redirectErrorStream(true).redirectOutput(dir.resolve("worker.log").toFile());
        builder.environment().putAll(credentials(PASSWORD));
        Process worker = builder.start();
        try {
            Files.copy(dir.resolve("persons.xml"), inbox.resolve("persons.xml.part"));
            Files.move(inbox.resolve("persons.xml.part"), inbox.resolve("persons.xml"));
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (!Files.exists(inbox.resolve("done/persons.xml")) && System.nanoTime() < deadline && worker.isAlive()) {
                Thread.sleep(100);
            }
            assertThat(inbox.resolve("done/persons.xml")).as(Files.readString(dir.resolve("worker.log"))).exists();
        } finally {
            worker.destroy();
            worker.waitFor(30, TimeUnit.SECONDS);
        }
        Result readWorker = AppProcess.run(dir, credentials(PASSWORD), "read", "--topic", "secured-worker");
        assertThat(readWorker.stdout()).hasSize(1_500);
        assertThat(Files.readString(dir.resolve("worker.log"))).doesNotContain(PASSWORD);
    }

    @Test
    void aWrongPasswordIsAClearErrorAndTheConfigCommandNeverShowsTheSecret() throws Exception {
        Result wrong = AppProcess.run(dir, credentials("wrong"), "ingest", "nothing.xml", "--topic", "t",
                "-s", "topic.ready.timeout.ms=5000");
        assertThat(wrong.exit()).isEqualTo(ExitCodes.KAFKA_UNAVAILABLE);
        assertThat(wrong.stderr()).containsIgnoringCase("authentication");

        Result config = AppProcess.run(dir, credentials(PASSWORD), "config");
        assertThat(config.exit()).as(config.stderr()).isZero();
        assertThat(config.stdout()).contains("kafka.client.sasl.jaas.config = [hidden]  [environment]",
                "kafka.client.security.protocol = SASL_PLAINTEXT  [environment]");
        assertThat(String.join("\n", config.stdout())).doesNotContain(PASSWORD);
    }
}
