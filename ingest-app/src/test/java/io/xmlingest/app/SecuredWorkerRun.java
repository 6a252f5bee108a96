package io.xmlingest.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xmlingest.datagen.DatagenCommand;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * What the secured-cluster tests check alike: the worker jar, started as a user starts it, ingests
 * a file with some invalid records through the secured listener, every valid record once on the
 * topic and every invalid one in the dead letters.
 */
final class SecuredWorkerRun {
    private SecuredWorkerRun() {
    }

    /**
     * Runs the worker in {@code dir} with {@code connection} (its flags for reaching Kafka) and
     * {@code env}, then stops it with SIGTERM. Returns its log.
     *
     * @param read every committed record of a topic, read with the same credentials
     */
    static String ingestsExactlyOnce(Path dir, String workerId, List<String> connection, Map<String, String> env,
                                     String topic, long seed, Function<String, List<ConsumerRecord<byte[], byte[]>>> read)
            throws Exception {
        Path inbox = Files.createDirectories(dir.resolve("inbox"));
        List<String> command = new ArrayList<>(List.of(AppProcess.javaBin(), "-jar", AppProcess.appJar(), "worker",
                "--inbox", inbox.toString(), "--topic", topic, "--http-port", "-1", "-s", "worker.id=" + workerId));
        command.addAll(connection);
        Map<String, String> environment = new HashMap<>(env);
        environment.put("XMLINGEST_INBOX_SETTLE_MS", "0");
        environment.put("XMLINGEST_INBOX_POLL_INTERVAL_MS", "50");
        environment.put("XMLINGEST_PAGE_MAX_RECORDS", "200");
        Path log = dir.resolve(workerId + ".err");
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
                .redirectOutput(dir.resolve(workerId + ".out").toFile()).redirectError(log.toFile());
        builder.environment().putAll(environment);
        Process worker = builder.start();
        try {
            DatagenCommand.generate(inbox.resolve("persons.xml"), 3_000, seed, 0.01);
            Path report = inbox.resolve("done").resolve("persons.xml.report.json");
            long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
            while (!Files.exists(report) && worker.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(report).as(Files.readString(log)).exists();
            JsonNode outcome = new ObjectMapper().readTree(Files.readString(report));
            assertThat(outcome.get("outcome").asText()).isEqualTo("completed");
            long deadLetters = outcome.get("deadLetters").asLong();
            assertThat(deadLetters).isPositive();

            List<ConsumerRecord<byte[], byte[]>> records = read.apply(topic);
            assertThat(records).hasSize((int) (3_000 - deadLetters));
            assertThat(distinctRecordIndexes(records)).hasSize((int) (3_000 - deadLetters));
            assertThat(read.apply(topic + ".dlq")).hasSize((int) deadLetters);
            List<String> events = read.apply(topic + ".status").stream()
                    .map(r -> new String(r.value(), StandardCharsets.UTF_8)).toList();
            assertThat(events).anySatisfy(e -> assertThat(e).contains("\"event\":\"completed\""));
        } finally {
            worker.destroy();
            assertThat(worker.waitFor(60, TimeUnit.SECONDS)).as("worker stops on SIGTERM").isTrue();
        }
        String text = Files.readString(log);
        assertThat(text).contains("worker " + workerId + " stopped");
        return text;
    }

    static Set<String> distinctRecordIndexes(List<ConsumerRecord<byte[], byte[]>> records) {
        Set<String> indexes = new HashSet<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            indexes.add(new String(r.headers().lastHeader("xmlingest.record.index").value(), StandardCharsets.UTF_8));
        }
        return indexes;
    }
}
