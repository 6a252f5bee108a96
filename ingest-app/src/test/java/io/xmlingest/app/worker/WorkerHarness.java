package io.xmlingest.app.worker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xmlingest.app.AppProcess;
import io.xmlingest.app.AppSettings;
import io.xmlingest.app.TestBroker;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.pipeline.IngestionPipeline;
import io.xmlingest.core.pipeline.RecordModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** Runs workers in this JVM against a real broker, and reads what they leave behind. */
final class WorkerHarness {

    static final ObjectMapper JSON = new ObjectMapper();

    final String bootstrap;
    final String topic;
    final Path inbox;
    final Map<String, String> settings = new HashMap<>();
    /** The workers' clock for worker.completed.retention.ms, which a test moves on instead of waiting hours. */
    final MovableClock clock = new MovableClock();

    static final class MovableClock extends Clock {
        private final AtomicLong ahead = new AtomicLong();

        void advance(Duration by) {
            ahead.addAndGet(by.toMillis());
        }

        @Override
        public long millis() {
            return System.currentTimeMillis() + ahead.get();
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis());
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException("a test clock in UTC");
        }
    }

    WorkerHarness(String bootstrap, Path inbox, String... keyValues) {
        this.bootstrap = bootstrap;
        this.topic = TestBroker.uniqueTopic("worker");
        this.inbox = inbox;
        settings.putAll(Map.of("topic", topic, "kafka.bootstrap.servers", bootstrap, "inbox.dir", inbox.toString(),
                "inbox.poll.interval.ms", "50", "inbox.settle.ms", "0", "http.port", "-1", "worker.id", "it-" + topic,
                "page.max.records", "100", "worker.retry.max.backoff.ms", "2000"));
        for (int i = 0; i < keyValues.length; i += 2) {
            settings.put(keyValues[i], keyValues[i + 1]);
        }
    }

    IngestConfig config() {
        return IngestConfig.of(AppSettings.ALL, settings);
    }

    /** A started worker thread. */
    record Running(Worker worker, Thread thread) implements AutoCloseable {
        void stop() throws InterruptedException {
            worker.requestStop();
            assertThat(worker.awaitStopped(60_000)).as("worker stopped").isTrue();
            thread.join(10_000);
        }

        @Override
        public void close() throws InterruptedException {
            stop();
        }
    }

    Running start() {
        IngestConfig config = config();
        RecordModel model = IngestionPipeline.model(config);
        Worker w = new Worker(config, () -> model, inbox, config.get(AppSettings.WORKER_ID), StartupTimeline.unwatched(),
                clock);
        Thread t = new Thread(w, "worker-" + topic);
        t.start();
        return new Running(w, t);
    }

    /**
     * Starts the shipped jar's worker as a process with these settings (and {@code keyValues} over
     * them), its output to {@code log}: a process, so that a test can kill it with SIGKILL.
     */
    Process process(Path log, String... keyValues) throws IOException {
        Map<String, String> all = new HashMap<>(settings);
        for (int i = 0; i < keyValues.length; i += 2) {
            all.put(keyValues[i], keyValues[i + 1]);
        }
        List<String> command = new ArrayList<>(List.of(AppProcess.javaBin(), "-Xmx256m", "-XX:+UseParallelGC", "-jar",
                AppProcess.appJar(), "worker"));
        all.forEach((k, v) -> command.addAll(List.of("-s", k + "=" + v)));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /** Drops a file as a producer should: written under a .part name, then renamed. */
    Path drop(Path source, String name) throws IOException {
        Files.createDirectories(inbox);
        Path part = inbox.resolve(name + ".part");
        Files.copy(source, part);
        return Files.move(part, inbox.resolve(name));
    }

    Path done(String name) {
        return inbox.resolve("done").resolve(name);
    }

    Path failed(String name) {
        return inbox.resolve("failed").resolve(name);
    }

    /** Removes a folder and everything in it, as an operator's rm -r would. */
    static void deleteTree(Path folder) throws IOException {
        try (var all = Files.walk(folder)) {
            for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toSeconds() + " s waiting for " + what);
            }
            Thread.sleep(50);
        }
    }

    static JsonNode report(Path finished) {
        try {
            return JSON.readTree(Files.readString(finished.resolveSibling(finished.getFileName() + ".report.json")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    List<ConsumerRecord<byte[], byte[]>> records() {
        return TestBroker.readCommitted(bootstrap, topic);
    }

    List<JsonNode> values(String topicName) {
        return TestBroker.readCommitted(bootstrap, topicName).stream().map(r -> {
            try {
                return JSON.readTree(new String(r.value(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).toList();
    }

    List<JsonNode> status() {
        return values(topic + ".status");
    }

    List<JsonNode> deadLetters() {
        return values(topic + ".dlq");
    }

    static long header(ConsumerRecord<byte[], byte[]> r, String name) {
        return Long.parseLong(new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8));
    }

    static List<Path> list(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.toList();
        }
    }
}
