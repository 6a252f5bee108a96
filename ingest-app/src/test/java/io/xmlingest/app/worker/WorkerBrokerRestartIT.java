package io.xmlingest.app.worker;

import static io.xmlingest.app.worker.WorkerHarness.await;
import static io.xmlingest.app.worker.WorkerHarness.header;
import static org.assertj.core.api.Assertions.assertThat;

import io.xmlingest.app.kafka.EmbeddedKafkaBroker;
import io.xmlingest.core.publish.MessageHeaders;
import io.xmlingest.datagen.DatagenCommand;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker goes away in the middle of a file and comes back on the same port: the worker
 * reports itself unhealthy, backs off, reconnects, resumes from its last checkpoint, and the file
 * ends with every record exactly once.
 */
class WorkerBrokerRestartIT {

    private static final long TRANSACTION_TIMEOUT_MS = 10_000;

    @TempDir
    Path dir;

    @Test
    void aBrokerStoppedAndRestartedMidFileLosesAndRepeatsNothing() throws Exception {
        restartMidFile(2000);
    }

    /** An outage longer than a commit's own timeout: the commit is retried until the broker is back. */
    @Test
    void aLongerOutageIsWaitedOutAndLosesAndRepeatsNothing() throws Exception {
        restartMidFile(15_000);
    }

    /**
     * A worker with no file sends Kafka nothing of its own accord: it asks while idle, so its health
     * follows the broker, and it takes the next file once the broker is back.
     */
    @Test
    void anIdleWorkerReportsTheBrokerGoneAndBackAndThenTakesTheNextFile() throws Exception {
        idleOutage("idle", 500, Duration.ofMinutes(1), outage -> {
            assertThat(outage.down()).startsWith("DOWN").contains("127.0.0.1:" + outage.port());
            assertThat(outage.h().records()).hasSize(500);
        }, "topic.ready.timeout.ms", "10000");
    }

    /**
     * A worker sharing files (work.shards &gt; 0) has no session of its own while idle; its look
     * over the checkpoints every few seconds is what finds Kafka gone, and it says so long before
     * that read gives up (topic.ready.timeout.ms, a minute here as by default).
     */
    @Test
    void anIdleSharingWorkerReportsTheBrokerGoneAndBackAndThenSharesTheNextFile() throws Exception {
        idleOutage("shared-idle", 3000, Duration.ofSeconds(40), outage -> {
            assertThat(outage.down()).startsWith("DOWN: Kafka at 127.0.0.1:" + outage.port() + " has not answered for ")
                    .endsWith(" s (reading the checkpoint topic)");
            assertExactlyOnce(outage.h(), 3000);
            assertThat(outage.h().status()).extracting(s -> s.get("event").asText())
                    .containsExactly("started", "shard-completed", "shard-completed", "completed");
        }, "work.shards", "2");
    }

    /** What an idle worker said of Kafka while the broker was away, and the harness it then ingested a file with. */
    private record IdleOutage(WorkerHarness h, int port, String down) {
    }

    /**
     * Stops the broker under an idle worker, waits at most {@code noticeWithin} for it to say so,
     * brings the broker back on the same port, has the worker ingest a file of {@code records}, and
     * runs {@code checks} once the worker has stopped, while the broker still runs.
     */
    private void idleOutage(String name, int records, Duration noticeWithin, Consumer<IdleOutage> checks,
                            String... settings) throws Exception {
        int port = freePort();
        Path brokerDir = dir.resolve("broker-" + name);
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(brokerDir, "127.0.0.1", port);
        try {
            WorkerHarness h = new WorkerHarness(broker.bootstrapServers(), Files.createDirectories(dir.resolve("inbox-" + name)),
                    settings);
            String down;
            try (WorkerHarness.Running w = h.start()) {
                await("the worker connects", Duration.ofMinutes(1), () -> w.worker().health().ready());
                broker.close();
                // Before the worker asked while idle, it said UP for as long as the inbox stayed empty.
                await("the idle worker notices", noticeWithin, () -> !w.worker().health().ready());
                down = w.worker().health().checks().get("kafka");
                // Dropped while Kafka is away, it is left in the inbox for a worker that can ingest it, not held.
                Path file = DatagenCommand.generate(dir.resolve("persons-" + name + ".xml"), records, 5, 0.0);
                h.drop(file, "persons.xml");
                Thread.sleep(3000);
                assertThat(h.inbox.resolve("persons.xml")).as("not claimed while Kafka is away").exists();
                broker = EmbeddedKafkaBroker.start(brokerDir, "127.0.0.1", port);
                await("the worker reconnects", Duration.ofMinutes(2), () -> w.worker().health().ready());
                await("persons.xml done", Duration.ofMinutes(3), () -> Files.exists(h.done("persons.xml")));
            }
            checks.accept(new IdleOutage(h, port, down));
        } finally {
            broker.close();
        }
    }

    /** The same for a sharing worker in the middle of a shard: its session's commit waits for the broker. */
    @Test
    void aSharingWorkerReportsTheBrokerGoneMidShardAndLosesAndRepeatsNothing() throws Exception {
        int port = freePort();
        Path brokerDir = dir.resolve("broker-shared");
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(brokerDir, "127.0.0.1", port);
        int count = 200_000;
        try {
            Path file = DatagenCommand.generate(dir.resolve("persons-shared.xml"), count, 9, 0.0);
            WorkerHarness h = new WorkerHarness(broker.bootstrapServers(),
                    Files.createDirectories(dir.resolve("inbox-shared")), "work.shards", "2");
            try (WorkerHarness.Running w = h.start()) {
                h.drop(file, "persons.xml");
                await("some records committed", Duration.ofMinutes(2), () -> w.worker().metrics().scrape()
                        .matches("(?s).*xmlingest_records_total [1-9][0-9]{3,}.*"));
                broker.close();
                await("the worker notices", Duration.ofSeconds(20), () -> !w.worker().health().ready());
                // Mostly a page or commit of a shard; between the shards, whatever call the worker was in.
                assertThat(w.worker().health().checks().get("kafka")).matches("DOWN: Kafka at 127\\.0\\.0\\.1:" + port
                        + " (has not acknowledged a page or commit for \\d+ s|has not answered for \\d+ s \\(.+\\))");
                Thread.sleep(2000);
                broker = EmbeddedKafkaBroker.start(brokerDir, "127.0.0.1", port);
                await("persons.xml done", Duration.ofMinutes(3), () -> Files.exists(h.done("persons.xml")));
                assertThat(w.worker().health().ready()).isTrue();
            }
            assertExactlyOnce(h, count);
            assertThat(h.status()).extracting(s -> s.get("event").asText())
                    .containsExactly("started", "shard-completed", "shard-completed", "completed");
        } finally {
            broker.close();
        }
    }

    private static int freePort() throws java.io.IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** Every record index 0..count-1 published once; a repeat is named with where both copies are. */
    private static void assertExactlyOnce(WorkerHarness h, int count) {
        Map<Long, String> where = new HashMap<>();
        List<String> twice = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : h.records()) {
            long i = header(r, MessageHeaders.RECORD_INDEX);
            String at = r.partition() + "@" + r.offset() + " page " + new String(r.headers().lastHeader("xmlingest.page").value());
            String before = where.putIfAbsent(i, at);
            if (before != null) {
                twice.add(i + ": " + before + " and " + at);
            }
        }
        assertThat(twice).as("records published twice").isEmpty();
        assertThat(where).hasSize(count);
    }

    private void restartMidFile(long downMillis) throws Exception {
        int port = freePort();
        Path brokerDir = dir.resolve("broker-" + downMillis);
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(brokerDir, "127.0.0.1", port);
        try {
            Path file = DatagenCommand.generate(dir.resolve("persons-" + downMillis + ".xml"), 60_000, 9, 0.0);
            WorkerHarness h = new WorkerHarness(broker.bootstrapServers(), Files.createDirectories(dir.resolve("inbox-" + downMillis)),
                    "page.max.records", "100", "kafka.transaction.timeout.ms", String.valueOf(TRANSACTION_TIMEOUT_MS),
                    "topic.ready.timeout.ms", "10000");
            try (WorkerHarness.Running w = h.start()) {
                h.drop(file, "persons.xml");
                await("some records committed", Duration.ofMinutes(2), () -> w.worker().metrics().scrape()
                        .matches("(?s).*xmlingest_records_total [1-9][0-9]{3,}.*"));
                broker.close();
                await("the worker notices", Duration.ofMinutes(1), () -> !w.worker().health().ready());
                // Said once a commit has waited 5 s, long before the commit's own 30 s timeout would.
                assertThat(w.worker().health().checks().get("kafka"))
                        .startsWith("DOWN: Kafka at 127.0.0.1:" + port + " has not acknowledged a page or commit for");
                Thread.sleep(downMillis);
                broker = EmbeddedKafkaBroker.start(brokerDir, "127.0.0.1", port);
                await("persons.xml done", Duration.ofMinutes(3), () -> Files.exists(h.done("persons.xml")));
                assertThat(w.worker().health().ready()).isTrue();
                if (downMillis > TRANSACTION_TIMEOUT_MS) {
                    // Kafka aborted the transaction that outlived its timeout: the session was lost and reopened.
                    // A shorter outage may be ridden out on the same producer, the commit just waiting.
                    assertThat(w.worker().metrics().scrape()).containsPattern("xmlingest_kafka_failures_total [1-9]");
                }
            }
            assertExactlyOnce(h, 60_000);
            assertThat(h.status()).extracting(s -> s.get("event").asText()).containsExactly("started", "completed");
        } finally {
            broker.close();
        }
    }
}
