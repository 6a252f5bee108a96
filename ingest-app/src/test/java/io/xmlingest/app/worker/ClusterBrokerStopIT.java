package io.xmlingest.app.worker;

import static io.xmlingest.app.worker.WorkerHarness.await;
import static io.xmlingest.app.worker.WorkerHarness.header;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.xmlingest.app.EmbeddedKafkaCluster;
import io.xmlingest.core.publish.MessageHeaders;
import io.xmlingest.datagen.DatagenCommand;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One node of a three-node cluster, the leader of the record topic's partition 0, goes away in
 * the middle of a file and stays away until the file is done: with three replicas and two required
 * in sync, the worker carries on (the node's partition leaders move to the others, and so does the
 * transaction coordinator or the controller if it was one), and the file ends with every record and
 * every dead letter exactly once. Unlike {@link WorkerBrokerRestartIT}, Kafka is never wholly away:
 * what is tested is leaders changing under open transactions.
 */
class ClusterBrokerStopIT {

    private static final long RECORDS = 200_000;
    private static final long SEED = 23;
    private static final double INVALID = 0.0002;
    /** A tenth of the file committed before the broker stops: well inside the file, whatever the machine. */
    private static final long STOP_AFTER = RECORDS / 10;
    private static final Pattern RECORDS_TOTAL = Pattern.compile("(?m)^xmlingest_records_total (\\d+)");

    @TempDir
    Path dir;

    @Test
    void theRecordTopicsLeaderStoppedMidFileLosesAndRepeatsNothing() throws Exception {
        Path file = DatagenCommand.generate(dir.resolve("persons.xml"), RECORDS, SEED, INVALID);
        Set<Long> expected = new HashSet<>();
        for (long i = 0; i < RECORDS; i++) {
            if (!DatagenCommand.isInvalid(i, SEED, INVALID)) {
                expected.add(i);
            }
        }
        long invalid = RECORDS - expected.size();
        assertThat(invalid).as("dead letters in the file").isPositive();

        try (EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.start(dir.resolve("cluster"))) {
            // Every topic the worker creates, record topic to checkpoints, gets three replicas: one node may go.
            WorkerHarness h = new WorkerHarness(cluster.bootstrapServers(), Files.createDirectories(dir.resolve("inbox")),
                    "topic.replication.factor", "3");
            int stopped;
            try (WorkerHarness.Running w = h.start()) {
                h.drop(file, "persons.xml");
                await(STOP_AFTER + " records committed", Duration.ofMinutes(5),
                        () -> committed(w.worker()) >= STOP_AFTER);
                stopped = cluster.leader(h.topic, 0);
                assertThat(stopped).as("partition 0's leader").isPositive();
                assertThat(Files.exists(h.done("persons.xml")))
                        .as("persons.xml still in progress when node %d stops (%d records committed)", stopped,
                                committed(w.worker()))
                        .isFalse();
                cluster.stop(stopped);
                await("another leader for partition 0", Duration.ofMinutes(1),
                        () -> cluster.leader(h.topic, 0) > 0 && cluster.leader(h.topic, 0) != stopped);
                await("persons.xml done with node " + stopped + " down", Duration.ofMinutes(10),
                        () -> Files.exists(h.done("persons.xml")) || Files.exists(h.failed("persons.xml")));
                assertThat(Files.exists(h.done("persons.xml"))).as("persons.xml in done/, not failed/").isTrue();
            }

            assertThat(cluster.running()).doesNotContain(stopped);
            Map<Long, String> where = new HashMap<>();
            List<String> twice = new ArrayList<>();
            for (ConsumerRecord<byte[], byte[]> r : h.records()) {
                long i = header(r, MessageHeaders.RECORD_INDEX);
                String at = r.partition() + "@" + r.offset();
                String earlier = where.put(i, at);
                if (earlier != null) {
                    twice.add(i + " at " + earlier + " and " + at);
                }
            }
            assertThat(twice).as("records published twice").isEmpty();
            assertThat(where.keySet()).as("record indexes published").hasSize(expected.size()).isEqualTo(expected);

            Set<Long> dead = new HashSet<>();
            for (JsonNode d : h.deadLetters()) {
                assertThat(dead.add(d.get("recordIndex").asLong())).as("dead letter %s once", d.get("recordIndex"))
                        .isTrue();
            }
            assertThat(dead).hasSize((int) invalid).doesNotContainAnyElementsOf(expected);

            List<JsonNode> status = h.status();
            assertThat(status).extracting(s -> s.get("event").asText()).containsExactly("started", "completed");
            assertThat(status.get(1).get("records").asLong()).isEqualTo(expected.size());
            assertThat(status.get(1).get("deadLetters").asLong()).isEqualTo(invalid);

            cluster.restart(stopped);
            assertThat(cluster.running()).hasSize(EmbeddedKafkaCluster.NODES);
            cluster.awaitFullyReplicated(Duration.ofMinutes(3));
        }
    }

    /**
     * The same with two workers sharing the file in shards: the work topic's group, its offsets
     * and every shard's transactions carry on across the stop.
     */
    @Test
    void workersSharingAFileInShardsLoseAndRepeatNothingWhenALeaderStops() throws Exception {
        DatagenCommand.generate(dir.resolve("shared.xml"), RECORDS, SEED, INVALID);
        try (EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.start(dir.resolve("cluster"))) {
            Path inbox = Files.createDirectories(dir.resolve("inbox"));
            WorkerHarness a = new WorkerHarness(cluster.bootstrapServers(), inbox, "topic.replication.factor", "3",
                    "work.shards", "8", "work.partitions", "4");
            WorkerHarness b = new WorkerHarness(cluster.bootstrapServers(), inbox);
            b.settings.putAll(a.settings);
            b.settings.put("worker.id", a.settings.get("worker.id") + "-b");
            int stopped;
            try (WorkerHarness.Running wa = a.start(); WorkerHarness.Running wb = b.start()) {
                a.drop(dir.resolve("shared.xml"), "shared.xml");
                await(STOP_AFTER + " records committed", Duration.ofMinutes(5),
                        () -> committed(wa.worker()) + committed(wb.worker()) >= STOP_AFTER);
                assertThat(Files.exists(a.done("shared.xml"))).as("shared.xml in progress when the node stops").isFalse();
                stopped = cluster.leader(a.topic, 0);
                cluster.stop(stopped);
                await("shared.xml done with node " + stopped + " down", Duration.ofMinutes(10),
                        () -> Files.exists(a.done("shared.xml")) || Files.exists(a.failed("shared.xml")));
                assertThat(Files.exists(a.done("shared.xml"))).as("shared.xml in done/, not failed/").isTrue();
            }
            SharedWorkIT.assertExactlyOnce(a, (int) RECORDS, SEED, INVALID, 8);
            cluster.restart(stopped);
            cluster.awaitFullyReplicated(Duration.ofMinutes(3));
        }
    }

    private static long committed(Worker worker) {
        Matcher m = RECORDS_TOTAL.matcher(worker.metrics().scrape());
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }
}
