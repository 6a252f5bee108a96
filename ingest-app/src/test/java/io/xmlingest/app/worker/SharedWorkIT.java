package io.xmlingest.app.worker;

import static io.xmlingest.app.worker.WorkerHarness.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.xmlingest.app.ReadmeExamples;
import io.xmlingest.app.TestBroker;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.pipeline.FileIdentity;
import io.xmlingest.core.pipeline.FileJob;
import io.xmlingest.core.pipeline.FileOutcome;
import io.xmlingest.core.pipeline.IngestListener;
import io.xmlingest.core.pipeline.IngestionPipeline;
import io.xmlingest.core.pipeline.KafkaSession;
import io.xmlingest.core.pipeline.RecordModel;
import io.xmlingest.core.pipeline.ShardedFiles;
import io.xmlingest.core.pipeline.TransactionalIngestion;
import io.xmlingest.core.pipeline.WorkOrder;
import io.xmlingest.core.publish.Envelope;
import io.xmlingest.core.publish.MessageHeaders;
import io.xmlingest.core.split.Shard;
import io.xmlingest.core.split.StaxShardPlanner;
import io.xmlingest.datagen.DatagenCommand;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Workers sharing files through the work topic, on a real broker. */
class SharedWorkIT {

    private static final Logger LOG = LoggerFactory.getLogger(SharedWorkIT.class);
    private static final Duration WAIT = Duration.ofMinutes(10);

    @TempDir
    Path dir;

    @Test
    void twoWorkersInOneJvmShareAFileCutIntoShardsAndEndItOnce() throws Exception {
        int count = 30_000;
        Path file = DatagenCommand.generate(dir.resolve("persons.xml"), count, 5, 0.01);
        Path inbox = Files.createDirectories(dir.resolve("inbox"));
        WorkerHarness a = new WorkerHarness(TestBroker.bootstrapServers(), inbox, "work.shards", "6", "work.partitions", "4");
        WorkerHarness b = secondOf(a);
        try (WorkerHarness.Running ra = a.start(); WorkerHarness.Running rb = b.start()) {
            a.drop(file, "persons.xml");
            await("persons.xml done", WAIT, () -> Files.exists(a.done("persons.xml")));
            // An order seen again after its file ended (a rebalance can hand one out twice) publishes nothing, although
            // the workers have let the ended file's shard checkpoints go.
            resendAndAwaitTaken(a, TestBroker.readCommitted(a.bootstrap, a.topic + ".work").get(0));
            // The same content again is not published twice.
            a.drop(file, "again.xml");
            await("again.xml done", WAIT, () -> Files.exists(a.done("again.xml")));
        }
        assertExactlyOnce(a, count, 5, 0.01, 6);
        assertThat(WorkerHarness.report(a.done("persons.xml")).get("outcome").asText()).isEqualTo("completed");
        assertThat(WorkerHarness.report(a.done("again.xml")).get("outcome").asText()).isEqualTo("already_ingested");
        assertThat(WorkerHarness.list(inbox.resolve("sharded"))).isEmpty();

        // The README's examples of the shared messages have the real ones' shape.
        ReadmeExamples readme = ReadmeExamples.load();
        List<JsonNode> status = a.status();
        for (JsonNode example : MessageContractIT.jsonLines(readme.block("shared-status-example"))) {
            JsonNode real = status.stream().filter(e -> e.get("event").equals(example.get("event"))).findFirst().orElseThrow();
            assertThat(MessageContractIT.shape(example)).as("README %s vs real %s", example, real)
                    .isEqualTo(MessageContractIT.shape(real));
        }
        List<ConsumerRecord<byte[], byte[]>> orders = TestBroker.readCommitted(a.bootstrap, a.topic + ".work");
        assertThat(orders).hasSize(7); // one of them sent twice
        assertThat(orders.stream().map(r -> new String(r.key(), StandardCharsets.UTF_8)).distinct()).hasSize(6);
        JsonNode example = MessageContractIT.jsonLines(readme.block("work-order-example")).get(0);
        JsonNode middle = null;
        for (ConsumerRecord<byte[], byte[]> r : orders) {
            JsonNode order = WorkerHarness.JSON.readTree(r.value());
            assertThat(new String(r.key(), StandardCharsets.UTF_8))
                    .isEqualTo(order.get("fileId").asText() + "/" + order.get("shard").asInt());
            if (order.get("shard").asInt() == 1) {
                middle = order;
            }
        }
        assertThat(MessageContractIT.shape(example)).isEqualTo(MessageContractIT.shape(middle));
        List<JsonNode> checkpoints = a.values(a.topic + ".checkpoints");
        assertThat(checkpoints).anySatisfy(c -> assertThat(c.path("shard").asInt(-1)).isEqualTo(5));
    }

    /** A second worker of {@code a}'s group: the same settings and inbox, an id of its own. */
    private static WorkerHarness secondOf(WorkerHarness a) {
        WorkerHarness b = new WorkerHarness(a.bootstrap, a.inbox);
        b.settings.putAll(a.settings);
        b.settings.put("worker.id", a.settings.get("worker.id") + "-b");
        return b;
    }

    private static void resendAndAwaitTaken(WorkerHarness h, ConsumerRecord<byte[], byte[]> order) throws Exception {
        long offset;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers", h.bootstrap),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            offset = producer.send(new ProducerRecord<>(order.topic(), order.partition(), order.key(), order.value()))
                    .get().offset();
        }
        TopicPartition partition = new TopicPartition(order.topic(), order.partition());
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", h.bootstrap))) {
            await("the order sent again taken and its offset committed", WAIT, () -> {
                try {
                    OffsetAndMetadata committed = admin.listConsumerGroupOffsets(order.topic() + "-workers")
                            .partitionsToOffsetAndMetadata().get().get(partition);
                    return committed != null && committed.offset() > offset;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
        }
    }

    /**
     * A compressed file is inflated once, by the worker that takes it from the inbox, into a plain
     * copy that goes to sharded/ with it; the cut and both workers' shards read the copy, which is
     * deleted as the file ends. Before, a sharing worker refused compressed files.
     */
    @Test
    void aGzipFileIsInflatedOnceAndItsShardsSharedByTwoWorkers() throws Exception {
        int count = 6000;
        Path inbox = Files.createDirectories(dir.resolve("inbox-gz"));
        Path plain = DatagenCommand.generate(dir.resolve("g.xml"), count, 9, 0.01);
        Path gz = dir.resolve("g.xml.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            Files.copy(plain, out);
        }
        // Named relative to the working directory, as a user names it: the work orders' paths are absolute, and the
        // file went to done/ under its name in sharded/, its file id first.
        Path relative = Path.of("").toAbsolutePath().relativize(inbox);
        WorkerHarness a = new WorkerHarness(TestBroker.bootstrapServers(), relative, "work.shards", "4", "work.partitions", "4");
        WorkerHarness b = secondOf(a);
        try (WorkerHarness.Running ra = a.start(); WorkerHarness.Running rb = b.start()) {
            a.drop(gz, "g.xml.gz");
            await("g.xml.gz done", WAIT, () -> Files.exists(a.done("g.xml.gz")));
            // Its identity is its inflated content's: the same XML dropped plain is not published again.
            a.drop(plain, "g.xml");
            await("g.xml done", WAIT, () -> Files.exists(a.done("g.xml")));
        }
        assertExactlyOnce(a, count, 9, 0.01, 4);
        assertThat(a.done("g.xml.gz")).hasSameBinaryContentAs(gz);
        assertThat(WorkerHarness.report(a.done("g.xml.gz")).get("outcome").asText()).isEqualTo("completed");
        assertThat(WorkerHarness.report(a.done("g.xml")).get("outcome").asText()).isEqualTo("already_ingested");
        JsonNode started = a.status().stream().filter(e -> e.get("event").asText().equals("started")).findFirst()
                .orElseThrow();
        assertThat(started.get("fileId").asText()).isEqualTo(FileIdentity.sha256(plain));
        assertThat(started.get("bytes").asLong()).as("the size dropped, as a worker alone gives it").isEqualTo(Files.size(gz));
        assertThat(started.get("inflatedBytes").asLong()).isEqualTo(Files.size(plain));
        JsonNode completed = a.status().stream().filter(e -> e.get("event").asText().equals("completed")).findFirst()
                .orElseThrow();
        assertThat(completed.get("inflatedBytes").asLong()).isEqualTo(Files.size(plain));
        assertThat(WorkerHarness.list(inbox.resolve("sharded"))).as("the copy deleted with its file").isEmpty();
        try (Stream<Path> left = Files.walk(inbox.resolve("processing"))) {
            assertThat(left.filter(Files::isRegularFile).toList()).as("nothing left in processing/").isEmpty();
        }
    }

    /**
     * Every shard ended but nobody ended the file (the enders of the last two shards each missed
     * the other's commit, or the ender died): the next worker to look over sharded/ ends it, once.
     */
    @Test
    void aFileWhoseShardsAllEndedButWasNotEndedIsEndedByTheNextWorkerToLook() throws Exception {
        Path inbox = Files.createDirectories(dir.resolve("inbox"));
        WorkerHarness h = new WorkerHarness(TestBroker.bootstrapServers(), inbox, "work.shards", "3",
                "worker.completed.retention.ms", "3600000");
        IngestConfig config = h.config();
        Path source = DatagenCommand.generate(dir.resolve("x.xml"), 3000, 9, 0.01);
        String fileId = FileIdentity.sha256(source);
        Path shared = Files.move(source, Files.createDirectories(inbox.resolve("sharded")).resolve(fileId + ".x.xml"));
        FileJob whole = new FileJob(shared, "x.xml", fileId, Files.size(shared), null);
        RecordModel model = IngestionPipeline.model(config);
        List<Shard> plan = new StaxShardPlanner(model.elements(), IngestionPipeline.limits(config)).plan(shared, "x.xml", 3);
        assertThat(plan).hasSize(3);
        TransactionalIngestion ingestion = new TransactionalIngestion(config, model, "test");
        try (KafkaSession session = KafkaSession.open(config, ingestion.topics(), "test-" + h.topic, () -> false, t -> { },
                StartupTimeline.unwatched())) {
            session.publisher().commit(new ShardedFiles(ingestion.topics(), "test").planned(whole, plan.size()));
            for (Shard shard : plan) {
                FileOutcome out = ingestion.ingest(new FileJob(shared, "x.xml", fileId, whole.bytes(), null, shard),
                        session.publisher(), IngestListener.NONE, () -> false);
                assertThat(out.ending()).isEqualTo(FileOutcome.Ending.COMPLETED);
            }
        }
        // A commit is visible to read_committed consumers once its markers are written, just after it returns.
        await("the shards' events", WAIT, () -> h.status().size() == 4);
        assertThat(h.status()).extracting(e -> e.get("event").asText())
                .containsExactly("started", "shard-completed", "shard-completed", "shard-completed");
        try (WorkerHarness.Running w = h.start()) {
            await("x.xml done", WAIT, () -> Files.exists(h.done("x.xml")));
            // worker.completed.retention.ms: two hours on, the ended file's checkpoint and its shards' are deleted.
            h.clock.advance(Duration.ofHours(2));
            await("the file's checkpoints deleted", WAIT, () -> TestBroker.readCommitted(h.bootstrap, h.topic + ".checkpoints")
                    .stream().filter(r -> r.value() == null).map(r -> new String(r.key(), StandardCharsets.UTF_8))
                    .collect(java.util.stream.Collectors.toSet())
                    .containsAll(List.of(fileId, fileId + "/0", fileId + "/1", fileId + "/2")));
            // An order of the forgotten file seen again (its offset's commit lost in a rebalance) is let go, not
            // left to wait for ever for a file that has moved to done/, blocking its partition.
            WorkOrder late = new WorkOrder(shared.toUri().toString(), "x.xml", fileId, whole.bytes(), plan.get(0));
            resendAndAwaitTaken(h, new ConsumerRecord<>(h.topic + ".work", 0, 0L,
                    late.key().getBytes(StandardCharsets.UTF_8), late.encode()));
            assertThat(w.worker().metrics().scrape()).contains("xmlingest_work_orders_blocked_total 0");
        }
        List<JsonNode> status = h.status();
        assertThat(status).extracting(e -> e.get("event").asText())
                .containsExactly("started", "shard-completed", "shard-completed", "shard-completed", "completed");
        assertThat(status.get(4).get("records").asLong()).isEqualTo(valid(3000));
        assertThat(WorkerHarness.report(h.done("x.xml")).get("outcome").asText()).isEqualTo("completed");
        assertThat(h.records()).hasSize(valid(3000));
    }

    /**
     * A work order whose file cannot be read here (a mount away) waits: it is put back and counted as
     * blocked, while Kafka is reported up; once the file is there, its shards are ingested once.
     */
    @Test
    void aWorkOrderWhoseFileCannotBeReadWaitsWithKafkaReportedUp() throws Exception {
        // Cut and ordered as a worker does it, but the file is not where the orders say (yet).
        HandCut cut = new HandCut("y.xml", false);
        WorkerHarness h = cut.h;
        cut.commit(cut.orders());
        try (WorkerHarness.Running w = h.start()) {
            await("an order put back", WAIT, () -> w.worker().metrics().scrape()
                    .matches("(?s).*xmlingest_work_orders_blocked_total [1-9].*"));
            String metrics = w.worker().metrics().scrape();
            assertThat(metrics).contains("xmlingest_kafka_failures_total 0").contains("xmlingest_kafka_up 1");
            assertThat(w.worker().health().checks().get("kafka")).isEqualTo("UP");
            assertThat(h.records()).isEmpty();

            Path part = Files.copy(cut.source, cut.shared.resolveSibling(cut.shared.getFileName() + ".part"));
            Files.move(part, cut.shared);
            await("y.xml done", WAIT, () -> Files.exists(h.done("y.xml")));
            assertThat(w.worker().metrics().scrape()).contains("xmlingest_kafka_failures_total 0");
        }
        assertThat(h.status()).extracting(e -> e.get("event").asText())
                .containsExactly("started", "shard-completed", "shard-completed", "shard-completed", "completed");
        assertThat(h.records()).hasSize(valid(3000));
        assertThat(h.records()).extracting(r -> WorkerHarness.header(r, MessageHeaders.RECORD_INDEX)).doesNotHaveDuplicates();
    }

    /**
     * A cut's orders and its file's checkpoint commit together, but a transaction's markers land on
     * each partition on their own, so an order can be seen before the checkpoint: it must wait for
     * it, not be let go as an order of a forgotten file (its shard would never be published).
     */
    @Test
    void anOrderSeenBeforeItsCutIsVisibleWaitsForIt() throws Exception {
        HandCut cut = new HandCut("z.xml", true);
        WorkerHarness h = cut.h;
        List<Envelope> orders = cut.orders();
        try (WorkerHarness.Running w = h.start();
             KafkaProducer<byte[], byte[]> early = new KafkaProducer<>(Map.of("bootstrap.servers", h.bootstrap),
                     new ByteArraySerializer(), new ByteArraySerializer())) {
            // Shard 0's order, visible before the cut's checkpoint is.
            Envelope first = orders.get(0);
            early.send(new ProducerRecord<>(first.topic(), first.partition(), first.key(), first.value())).get();
            await("the order put back", WAIT, () -> w.worker().metrics().scrape()
                    .matches("(?s).*xmlingest_work_orders_blocked_total [1-9].*"));
            assertThat(h.records()).isEmpty();
            cut.commit(orders.subList(1, orders.size()));
            await("z.xml done", WAIT, () -> Files.exists(h.done("z.xml")));
        }
        assertThat(h.records()).hasSize(valid(3000));
        assertThat(h.records()).extracting(r -> WorkerHarness.header(r, MessageHeaders.RECORD_INDEX)).doesNotHaveDuplicates();
        assertThat(h.status()).extracting(e -> e.get("event").asText()).last().isEqualTo("completed");
    }

    /** Records of a datagen file of {@code count} with seed 9 and invalid rate 0.01 that are valid. */
    private static int valid(int count) {
        int invalid = 0;
        for (long i = 0; i < count; i++) {
            invalid += DatagenCommand.isInvalid(i, 9, 0.01) ? 1 : 0;
        }
        return count - invalid;
    }

    /**
     * A 3,000-record file cut into three shards by hand, as a worker cuts it, for a worker with three
     * shards and work partitions: so a test chooses what is visible, and where the file is, when.
     */
    private final class HandCut {
        final WorkerHarness h;
        final Path source;
        final String fileId;
        final Path shared;
        final FileJob whole;
        final List<Shard> plan;
        final TransactionalIngestion ingestion;
        final String workTopic;

        /** @param inSharded whether the file is in sharded/ (else it is not there yet) */
        HandCut(String name, boolean inSharded) throws Exception {
            Path inbox = Files.createDirectories(dir.resolve("inbox"));
            h = new WorkerHarness(TestBroker.bootstrapServers(), inbox, "work.shards", "3", "work.partitions", "3");
            IngestConfig config = h.config();
            Path generated = DatagenCommand.generate(dir.resolve(name), 3000, 9, 0.01);
            fileId = FileIdentity.sha256(generated);
            Path target = Files.createDirectories(inbox.resolve("sharded")).resolve(fileId + "." + name);
            shared = inSharded ? Files.move(generated, target) : target;
            source = inSharded ? shared : generated;
            whole = new FileJob(shared, name, fileId, Files.size(source), null);
            RecordModel model = IngestionPipeline.model(config);
            plan = new StaxShardPlanner(model.elements(), IngestionPipeline.limits(config)).plan(source, name, 3);
            ingestion = new TransactionalIngestion(config, model, "test");
            workTopic = h.topic + ".work";
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", h.bootstrap))) {
                admin.createTopics(List.of(new NewTopic(workTopic, 3, (short) 1))).all().get();
            }
        }

        /** Shard i's order, to partition i, as a cut writes them. */
        List<Envelope> orders() {
            List<Envelope> orders = new ArrayList<>();
            for (Shard shard : plan) {
                WorkOrder order = new WorkOrder(shared.toUri().toString(), whole.name(), fileId, whole.bytes(), shard);
                orders.add(new Envelope(workTopic, order.key().getBytes(StandardCharsets.UTF_8), order.encode(),
                        Map.of(), shard.index() % 3));
            }
            return orders;
        }

        /** Commits the file's checkpoint as a cut does, with these orders, in one transaction. */
        void commit(List<Envelope> orders) {
            try (KafkaSession session = KafkaSession.open(h.config(), ingestion.topics(), "test-" + h.topic, () -> false,
                    t -> { }, StartupTimeline.unwatched())) {
                List<Envelope> messages = new ArrayList<>(new ShardedFiles(ingestion.topics(), "test").planned(whole,
                        plan.size()));
                messages.addAll(orders);
                session.publisher().commit(messages);
            }
        }
    }

    /**
     * The test: three worker processes, a 1M-record file in 12 shards, one worker killed
     * with SIGKILL while it ingests; the other two take its shards over.
     */
    @Test
    void threeWorkerProcessesIngestAMillionRecordsInTwelveShardsThoughOneIsKilled() throws Exception {
        int count = 1_000_000;
        long seed = 42;
        double invalid = 0.0005;
        Path file = DatagenCommand.generate(dir.resolve("persons.xml"), count, seed, invalid);
        Path inbox = Files.createDirectories(dir.resolve("inbox"));
        WorkerHarness h = new WorkerHarness(TestBroker.bootstrapServers(), inbox, "work.shards", "12",
                "page.max.records", "1000");
        List<Process> workers = new ArrayList<>();
        List<Path> logs = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                Path log = dir.resolve("worker-" + i + ".log");
                logs.add(log);
                workers.add(h.process(log, "worker.id", "it-" + h.topic + "-" + i));
            }
            h.drop(file, "persons.xml");
            // Kill the first worker seen ingesting a shard, once it has committed part of it.
            int victim = -1;
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (victim < 0) {
                assertThat(System.nanoTime()).as("a worker ingests a shard").isLessThan(deadline);
                for (int i = 0; i < 3 && victim < 0; i++) {
                    if (Pattern.compile("ingesting shard \\d+ of 12").matcher(Files.readString(logs.get(i))).find()) {
                        victim = i;
                    }
                }
                Thread.sleep(50);
            }
            Thread.sleep(1500);
            assertThat(Files.exists(h.done("persons.xml"))).as("killed before the file ended").isFalse();
            workers.get(victim).destroyForcibly(); // SIGKILL
            assertThat(workers.get(victim).waitFor(30, TimeUnit.SECONDS)).isTrue();
            LOG.info("killed worker {}", victim);
            long until = System.nanoTime() + WAIT.toNanos();
            while (!Files.exists(h.done("persons.xml"))) {
                for (int i = 0; i < 3; i++) {
                    if (i != victim) {
                        assertThat(workers.get(i).isAlive()).as("worker %d alive; its log:%n%s", i,
                                Files.readString(logs.get(i))).isTrue();
                    }
                }
                assertThat(System.nanoTime()).as("done within %s", WAIT).isLessThan(until);
                Thread.sleep(200);
            }
        } finally {
            for (Process p : workers) {
                p.destroy();
            }
            for (Process p : workers) {
                if (!p.waitFor(60, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            }
        }
        int killedShards = 0;
        for (Path log : logs) {
            killedShards += Files.readString(log).contains("resuming at record") ? 1 : 0;
        }
        LOG.info("workers that resumed a shard another had begun: {}", killedShards);
        assertExactlyOnce(h, count, seed, invalid, 12);
    }

    /**
     * Every valid record once under its own file index, every invalid one once as a dead letter,
     * one started and one completed event with the file's totals, a shard-completed event per shard.
     */
    static void assertExactlyOnce(WorkerHarness h, int count, long seed, double invalidRate, int shards) {
        BitSet seen = new BitSet(count);
        long duplicates = readIndexes(h.bootstrap, h.topic, seen);
        assertThat(duplicates).as("records published twice").isZero();
        BitSet dead = new BitSet(count);
        assertThat(readIndexes(h.bootstrap, h.topic + ".dlq", dead)).as("dead letters published twice").isZero();
        long invalid = 0;
        for (int i = 0; i < count; i++) {
            boolean bad = DatagenCommand.isInvalid(i, seed, invalidRate);
            invalid += bad ? 1 : 0;
            assertThat(seen.get(i)).as("record %d published", i).isEqualTo(!bad);
            assertThat(dead.get(i)).as("record %d a dead letter", i).isEqualTo(bad);
        }
        List<JsonNode> status = h.status();
        List<String> events = status.stream().map(s -> s.get("event").asText()).toList();
        assertThat(events.stream().filter("started"::equals).count()).isEqualTo(1);
        assertThat(events.stream().filter("completed"::equals).count()).isEqualTo(1);
        assertThat(events.stream().filter("shard-completed"::equals).count()).isEqualTo(shards);
        JsonNode completed = status.stream().filter(s -> s.get("event").asText().equals("completed")).findFirst().orElseThrow();
        assertThat(completed.get("records").asLong()).isEqualTo(count - invalid);
        assertThat(completed.get("deadLetters").asLong()).isEqualTo(invalid);
        // The file's order is recoverable from the shard events: their record ranges tile the file.
        long next = 0;
        for (JsonNode e : status.stream().filter(s -> s.get("event").asText().equals("shard-completed"))
                .sorted((x, y) -> Long.compare(x.get("firstRecordIndex").asLong(), y.get("firstRecordIndex").asLong())).toList()) {
            assertThat(e.get("firstRecordIndex").asLong()).isEqualTo(next);
            next = e.get("nextRecordIndex").asLong();
        }
        assertThat(next).isEqualTo(count);
    }

    /** Reads a topic to its end, read_committed, marking each record index; returns how many were seen twice. */
    private static long readIndexes(String bootstrap, String topic, BitSet seen) {
        long[] twice = {0};
        TestBroker.forEachCommitted(bootstrap, topic, Map.of(), r -> {
            int index = Integer.parseInt(new String(r.headers().lastHeader(MessageHeaders.RECORD_INDEX).value(),
                    StandardCharsets.UTF_8));
            if (seen.get(index)) {
                twice[0]++;
            }
            seen.set(index);
        });
        return twice[0];
    }
}
