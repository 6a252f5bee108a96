package io.xmlingest.app.worker;

import static io.xmlingest.app.worker.WorkerHarness.await;
import static io.xmlingest.app.worker.WorkerHarness.header;
import static io.xmlingest.app.worker.WorkerHarness.report;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.xmlingest.app.AppProcess;
import io.xmlingest.app.TestBroker;
import io.xmlingest.app.worker.fragile.Item;
import io.xmlingest.core.pipeline.FileIdentity;
import io.xmlingest.core.publish.MessageHeaders;
import io.xmlingest.datagen.DatagenCommand;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file that stops the worker on every start. Before, the worker met the same error on every
 * restart, with the file still in processing/, and took no other file for ever: the file is now set
 * aside after worker.file.max.crashes stops, with what was committed of it kept.
 */
class CrashingFileIT {

    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final String NS = "urn:xmlingest:test:fragile";
    private static final int ITEMS = 400;
    private static final int POISON = 350;

    @TempDir
    Path dir;

    private Path items(String name, int poison) throws Exception {
        StringBuilder s = new StringBuilder("<?xml version='1.0' encoding='UTF-8'?>\n<items xmlns='" + NS + "'>\n");
        for (int i = 0; i < ITEMS; i++) {
            s.append("  <item><sku>").append(name).append('-').append(i).append("</sku><name>")
                    .append(i == poison ? "poison" : "item " + i).append("</name></item>\n");
        }
        return Files.writeString(dir.resolve(name), s.append("</items>\n").toString());
    }

    /** Records per file, each checked to be published once and keyed by its own index. */
    private static Map<String, Long> indexesByFile(List<ConsumerRecord<byte[], byte[]>> records) {
        Map<String, Long> count = new HashMap<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            String file = new String(r.headers().lastHeader(MessageHeaders.FILE).value(), StandardCharsets.UTF_8);
            String key = new String(r.key(), StandardCharsets.UTF_8);
            assertThat(key).isEqualTo(file + "-" + header(r, MessageHeaders.RECORD_INDEX));
            assertThat(seen.add(key)).as("%s published once", key).isTrue();
            count.merge(file, 1L, Long::sum);
        }
        return count;
    }

    @Test
    void aFileThatStopsTheWorkerOnEveryStartIsSetAsideAndTheFilesBehindItAreTaken() throws Exception {
        Path inbox = Files.createDirectories(dir.resolve("inbox"));
        // A page of 100 and a commit per page: what was committed before the poison stays, and the set-aside says where.
        WorkerHarness h = new WorkerHarness(TestBroker.bootstrapServers(), inbox, "record.element", "{" + NS + "}item",
                "record.class", Item.class.getName(), "record.key", "sku", "commit.interval.ms", "0",
                "worker.file.max.crashes", "2");
        Path poisoned = items("poisoned.xml", POISON);
        h.drop(poisoned, "poisoned.xml");
        Path processing = inbox.resolve("processing").resolve(h.settings.get("worker.id"));

        // The first start commits records 0 to 299, a page each; the second resumes at 300 and commits that
        // record alone at once, as a resumed file does. Both are stopped by record 350.
        long[] committedAtCrash = {300, 301};
        for (int start = 1; start <= 2; start++) {
            WorkerHarness.Running w = h.start();
            w.thread().join(WAIT.toMillis());
            assertThat(w.thread().isAlive()).as("worker %d stopped on the model's error", start).isFalse();
            assertThat(w.worker().health().checks().get("worker")).contains("NoClassDefFoundError");
            Optional<FileCrashes> crashes = new Inbox(inbox, h.settings.get("worker.id"), 0, java.time.Clock.systemUTC())
                    .crashes(processing.resolve("poisoned.xml"));
            assertThat(crashes).as("crashes after start %d", start).isPresent();
            assertThat(crashes.get().count()).isEqualTo(start);
            assertThat(crashes.get().at()).isEqualTo(committedAtCrash[start - 1]);
            assertThat(crashes.get().last()).startsWith("java.lang.NoClassDefFoundError: com/example/fragile/"
                    + "MissingHelper while converting file poisoned.xml, record index 350, line 353");
        }
        assertThat(Files.exists(processing.resolve("poisoned.xml"))).as("still in hand after two crashes").isTrue();

        Path next = items("next.xml", -1);
        h.drop(next, "next.xml");
        try (WorkerHarness.Running w = h.start()) {
            await("poisoned.xml in failed/ and next.xml in done/", WAIT,
                    () -> Files.exists(h.failed("poisoned.xml")) && Files.exists(h.done("next.xml")));
        }

        JsonNode report = report(h.failed("poisoned.xml"));
        assertThat(report.get("outcome").asText()).isEqualTo("failed");
        assertThat(report.get("records").asLong()).isEqualTo(301);
        JsonNode error = report.get("error");
        assertThat(error.get("setting").asText()).isEqualTo("worker.file.max.crashes");
        assertThat(error.get("recordIndex").asLong()).isEqualTo(301);
        assertThat(error.get("reason").asText()).contains("set aside: the file stopped the worker 2 times on an "
                        + "unexpected error, the last time with its checkpoint at record 301, on "
                        + "java.lang.NoClassDefFoundError: com/example/fragile/MissingHelper while converting file "
                        + "poisoned.xml, record index 350, line 353, column 3")
                .contains("Its records before record 301 are published; drop the file into the inbox again to resume "
                        + "it there");
        assertThat(processing.resolve(".poisoned.xml.crashes")).doesNotExist();

        // Each record once: the poisoned file's up to its last commit, all of the next file's.
        assertThat(indexesByFile(h.records())).isEqualTo(Map.of("poisoned.xml", 301L, "next.xml", (long) ITEMS));
        String poisonedId = FileIdentity.sha256(poisoned);
        List<JsonNode> events = h.status().stream().filter(e -> e.get("fileId").asText().equals(poisonedId)).toList();
        assertThat(events).extracting(e -> e.get("event").asText()).containsExactly("started", "failed");
        assertThat(events.get(1).get("setting").asText()).isEqualTo("worker.file.max.crashes");
        assertThat(events.get(1).get("records").asLong()).isEqualTo(301);

        // Mended (here: converted schema-less, which has no adapter) and dropped again, it resumes where it stood.
        Files.move(h.failed("poisoned.xml"), inbox.resolve("poisoned.xml"));
        h.settings.put("record.class", "-");
        try (WorkerHarness.Running w = h.start()) {
            await("poisoned.xml in done/", WAIT, () -> Files.exists(h.done("poisoned.xml")));
        }
        assertThat(indexesByFile(h.records())).isEqualTo(Map.of("poisoned.xml", (long) ITEMS, "next.xml", (long) ITEMS));
        assertThat(h.status().stream().filter(e -> e.get("fileId").asText().equals(poisonedId)))
                .extracting(e -> e.get("event").asText()).containsExactly("started", "failed", "completed");
    }

    /**
     * A file that stops the worker on its first record, so nothing of it is committed: set aside with
     * its started event. Dropped again unmended, it stops the worker again before any commit, and
     * must be set aside again, not moved back to failed/ untried: before, its failed checkpoint
     * and the identity recorded by the new run looked like a run that had failed it and died.
     */
    @Test
    void aFileThatStopsTheWorkerBeforeItsFirstCommitIsSetAsideAgainWhenDroppedAgainUnmended() throws Exception {
        Path inbox = Files.createDirectories(dir.resolve("inbox"));
        WorkerHarness h = new WorkerHarness(TestBroker.bootstrapServers(), inbox, "record.element", "{" + NS + "}item",
                "record.class", Item.class.getName(), "record.key", "sku", "worker.file.max.crashes", "1");
        Path early = items("early.xml", 0);
        String earlyId = FileIdentity.sha256(early);
        for (int round = 1; round <= 2; round++) {
            if (round == 1) {
                h.drop(early, "early.xml");
            } else {
                Files.move(h.failed("early.xml"), inbox.resolve("early.xml"));
            }
            WorkerHarness.Running crashed = h.start();
            crashed.thread().join(WAIT.toMillis());
            assertThat(crashed.thread().isAlive()).as("round %d: worker stopped on the model's error", round).isFalse();
            try (WorkerHarness.Running w = h.start()) {
                await("early.xml in failed/, round " + round, WAIT, () -> Files.exists(h.failed("early.xml")));
            }
            JsonNode error = report(h.failed("early.xml")).get("error");
            assertThat(error.get("reason").asText()).as("round %d", round).startsWith("set aside: the file stopped "
                    + "the worker once on an unexpected error, the last time with its checkpoint at record 0, on "
                    + "java.lang.NoClassDefFoundError: com/example/fragile/MissingHelper while converting file "
                    + "early.xml, record index 0, line 3, column 3").contains(". Nothing of it is published;");
            assertThat(error.get("recordIndex").asLong()).isZero();
        }
        assertThat(h.records()).isEmpty();
        List<JsonNode> events = h.status().stream().filter(e -> e.get("fileId").asText().equals(earlyId)).toList();
        assertThat(events).extracting(e -> e.get("event").asText()).containsExactly("started", "failed", "failed");
    }

    /**
     * With work.shards above 0, a shard that stopped a worker was handed to the next, which it
     * stopped too, for ever. Its count now travels beside its file in sharded/, which every worker
     * of the group reads, and the shard is set aside as a file is: it fails where its checkpoint
     * stood, the other shards complete, and the file fails once they have.
     */
    @Test
    void aShardThatStopsAWorkerEveryTimeIsSetAsideAndItsFileFailsOnceTheOthersEnd() throws Exception {
        Path inbox = Files.createDirectories(dir.resolve("inbox"));
        WorkerHarness h = new WorkerHarness(TestBroker.bootstrapServers(), inbox, "record.element", "{" + NS + "}item",
                "record.class", Item.class.getName(), "record.key", "sku", "commit.interval.ms", "0",
                "page.max.records", "10", "worker.file.max.crashes", "2", "work.shards", "4", "work.partitions", "4");
        Path poisoned = items("sharded.xml", POISON);
        String fileId = FileIdentity.sha256(poisoned);
        Path sidecar = Files.createDirectories(inbox.resolve("sharded")).resolve("." + fileId + ".sharded.xml.shard-3.crashes");
        // Left from this content's last time here (a crash counted after its file had ended): stale, so the cut deletes it.
        Files.writeString(sidecar, new FileCrashes(fileId, 300, 5, "java.lang.OutOfMemoryError: Java heap space").encode());
        h.drop(poisoned, "sharded.xml");
        for (int start = 1; start <= 2; start++) {
            WorkerHarness.Running w = h.start();
            w.thread().join(WAIT.toMillis());
            assertThat(w.thread().isAlive()).as("worker %d stopped on the model's error", start).isFalse();
            Optional<FileCrashes> crashes = FileCrashes.decode(Files.readString(sidecar));
            assertThat(crashes).as("crashes after start %d", start).isPresent();
            assertThat(crashes.get().fileId()).isEqualTo(fileId);
            assertThat(crashes.get().count()).isEqualTo(start);
            assertThat(crashes.get().last()).startsWith("java.lang.NoClassDefFoundError: com/example/fragile/"
                    + "MissingHelper while converting file sharded.xml, record index 350, line 353");
        }
        try (WorkerHarness.Running w = h.start()) {
            await("sharded.xml in failed/", WAIT, () -> Files.exists(h.failed("sharded.xml")));
        }

        List<JsonNode> events = h.status().stream().filter(e -> e.get("fileId").asText().equals(fileId)).toList();
        assertThat(events).extracting(e -> e.get("event").asText()).containsExactlyInAnyOrder("started",
                "shard-completed", "shard-completed", "shard-completed", "shard-failed", "failed");
        assertThat(events.get(events.size() - 1).get("event").asText()).isEqualTo("failed");
        JsonNode shardFailed = events.stream().filter(e -> e.get("event").asText().equals("shard-failed")).findFirst()
                .orElseThrow();
        assertThat(shardFailed.get("shard").asInt()).isEqualTo(3);
        assertThat(shardFailed.get("setting").asText()).isEqualTo("worker.file.max.crashes");
        long stoodAt = shardFailed.get("nextRecordIndex").asLong();
        // Pages of 10 from the shard's first record: its last commit before record 350.
        assertThat(stoodAt).isBetween(341L, 350L);
        assertThat(shardFailed.get("reason").asText()).startsWith("set aside: shard 3 of 4 stopped a worker 2 times "
                        + "on an unexpected error, the last time with its checkpoint at record " + stoodAt + ", on "
                        + "java.lang.NoClassDefFoundError: com/example/fragile/MissingHelper while converting file "
                        + "sharded.xml, record index 350, line 353, column 3, byte offset ")
                .contains(". Its records before record " + stoodAt + " are published; the file fails once its other "
                        + "shards have ended");
        JsonNode report = report(h.failed("sharded.xml"));
        assertThat(report.get("outcome").asText()).isEqualTo("failed");
        assertThat(report.get("records").asLong()).isEqualTo(stoodAt);
        // As the failed event has it: the report in failed/ had no shard.
        assertThat(report.get("error").get("shard").asInt()).isEqualTo(3);
        // Each record once: every record of the other shards, the failed shard's up to its last commit.
        assertThat(indexesByFile(h.records())).isEqualTo(Map.of("sharded.xml", stoodAt));
        assertThat(h.records()).extracting(r -> header(r, MessageHeaders.RECORD_INDEX))
                .allMatch(index -> index < stoodAt);
        assertThat(WorkerHarness.list(inbox.resolve("sharded"))).isEmpty();
        assertThat(sidecar).doesNotExist();

        // Dropped into a worker ingesting whole files, on the same topics: refused. Before, it resumed from the
        // file's own checkpoint, past every record, and called the file completed without what shard 3 left out.
        Path wholeInbox = Files.createDirectories(dir.resolve("whole-inbox"));
        WorkerHarness whole = new WorkerHarness(TestBroker.bootstrapServers(), wholeInbox);
        whole.settings.putAll(h.settings);
        whole.settings.putAll(Map.of("inbox.dir", wholeInbox.toString(), "work.shards", "0", "record.class", "-",
                "worker.id", h.settings.get("worker.id") + "-whole"));
        Files.move(h.failed("sharded.xml"), wholeInbox.resolve("sharded.xml"));
        try (WorkerHarness.Running w = whole.start()) {
            await("sharded.xml refused by a whole-file worker", WAIT, () -> Files.exists(whole.failed("sharded.xml")));
        }
        JsonNode refused = report(whole.failed("sharded.xml"));
        assertThat(refused.get("outcome").asText()).isEqualTo("refused");
        assertThat(refused.get("error").get("reason").asText()).startsWith("this content was cut into 4 shards by "
                + "workers sharing files (work.shards > 0), and failed there: drop it into their inbox");
        assertThat(refused.get("error").get("setting").asText()).isEqualTo("work.shards");
        assertThat(h.status().stream().filter(e -> e.get("fileId").asText().equals(fileId)))
                .extracting(e -> e.get("event").asText()).doesNotContain("completed");
        assertThat(indexesByFile(h.records())).isEqualTo(Map.of("sharded.xml", stoodAt));

        // Mended (converted schema-less, which has no adapter) and dropped again into the inbox of a group of two: shard
        // 3 is taken up again where it stood, bounded as its checkpoint keeps, and the file completes. The work topic
        // is emptied first, as its retention.ms would in time: before, a shard's bounds were read back from its first
        // work order, and the file was refused once that was gone. The worker that did not take it up reads the file
        // in progress again from the topic, rather than keep it failed and move it back to failed/ on its look over
        // sharded/.
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", h.bootstrap))) {
            String workTopic = h.topic + ".work";
            Map<TopicPartition, RecordsToDelete> all = new HashMap<>();
            admin.describeTopics(List.of(workTopic)).allTopicNames().get().get(workTopic).partitions()
                    .forEach(p -> all.put(new TopicPartition(workTopic, p.partition()), null));
            admin.listOffsets(all.keySet().stream().collect(Collectors.toMap(tp -> tp, tp -> OffsetSpec.latest())))
                    .all().get().forEach((tp, end) -> all.put(tp, RecordsToDelete.beforeOffset(end.offset())));
            admin.deleteRecords(all).all().get();
        }
        h.settings.put("record.class", "-");
        WorkerHarness second = new WorkerHarness(TestBroker.bootstrapServers(), inbox);
        second.settings.putAll(h.settings);
        second.settings.put("worker.id", h.settings.get("worker.id") + "-b");
        try (WorkerHarness.Running a = h.start(); WorkerHarness.Running b = second.start()) {
            String group = h.topic + ".work-workers";
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", h.bootstrap))) {
                await("both workers in the group", WAIT, () -> {
                    try {
                        return admin.describeConsumerGroups(List.of(group)).all().get().get(group).members().size() == 2;
                    } catch (Exception e) {
                        return false;
                    }
                });
            }
            Files.move(whole.failed("sharded.xml"), inbox.resolve("sharded.xml"));
            await("sharded.xml in done/", WAIT, () -> Files.exists(h.done("sharded.xml")));
        }
        assertThat(indexesByFile(h.records())).isEqualTo(Map.of("sharded.xml", (long) ITEMS));
        List<String> after = h.status().stream().filter(e -> e.get("fileId").asText().equals(fileId))
                .map(e -> e.get("event").asText()).toList();
        assertThat(after.subList(events.size(), after.size())).containsExactly("shard-completed", "completed");
        JsonNode completed = report(h.done("sharded.xml"));
        assertThat(completed.get("outcome").asText()).isEqualTo("completed");
        assertThat(completed.get("records").asLong()).isEqualTo(ITEMS);
        assertThat(WorkerHarness.list(inbox.resolve("sharded"))).isEmpty();
    }

    /**
     * A file that stopped the worker before its content was known (while hashed or inflated) is set
     * aside on the next start past the limit without being read again, and with no event, as there
     * is no file id to key one by: the reason says so, rather than that nothing of it was published
     * (a touched file an earlier run had begun may have records out).
     */
    @Test
    void aFileThatStoppedTheWorkerBeforeItWasIdentifiedIsSetAsideWithNoEvent() throws Exception {
        Path inbox = Files.createDirectories(dir.resolve("inbox"));
        WorkerHarness h = new WorkerHarness(TestBroker.bootstrapServers(), inbox, "record.element", "{" + NS + "}item",
                "record.class", Item.class.getName(), "record.key", "sku", "worker.file.max.crashes", "1");
        Path processing = Files.createDirectories(inbox.resolve("processing").resolve(h.settings.get("worker.id")));
        Files.copy(items("hashed.xml", -1), processing.resolve("hashed.xml"));
        // What the last start wrote as it stopped, hashing the file it had claimed.
        Files.writeString(processing.resolve(".hashed.xml.crashes"),
                new FileCrashes("", -1, 1, "java.lang.OutOfMemoryError: Java heap space").encode());
        try (WorkerHarness.Running w = h.start()) {
            await("hashed.xml in failed/", WAIT, () -> Files.exists(h.failed("hashed.xml")));
        }
        JsonNode error = report(h.failed("hashed.xml")).get("error");
        assertThat(error.get("setting").asText()).isEqualTo("worker.file.max.crashes");
        assertThat(error.get("reason").asText()).startsWith("set aside: the file stopped the worker once on an "
                + "unexpected error, the last time before its content was identified, on java.lang.OutOfMemoryError: "
                + "Java heap space. Nothing is published for it now (no failed event either: its content is not "
                + "known); drop the file into the inbox again once the cause is mended");
        assertThat(h.records()).isEmpty();
        assertThat(h.status()).isEmpty();
        assertThat(processing.resolve(".hashed.xml.crashes")).doesNotExist();
    }

    /**
     * The JVM's own out-of-memory error, in a worker process run as a user runs it: a record with 26
     * MB of text in one element and a 96 MB heap. The process exits 1 for whatever starts it again,
     * the stop is counted against the file naming the record, and the stack trace is in its log once
     * (the JVM printed it a second time).
     */
    @Test
    void aRealOutOfMemoryStopsTheWorkerProcessWithExit1AndIsCountedNamingTheRecord() throws Exception {
        String xml = Files.readString(DatagenCommand.generate(dir.resolve("persons.xml"), 100, 7));
        int person = -1;
        for (int i = 0; i <= 30; i++) {
            person = xml.indexOf("<person ", person + 1);
        }
        int text = xml.indexOf("<firstName>", person) + "<firstName>".length();
        int end = xml.indexOf("</firstName>", text);
        Path inbox = Files.createDirectories(dir.resolve("inbox"));
        Path part = inbox.resolve("big.xml.part");
        try (Writer w = Files.newBufferedWriter(part)) {
            w.write(xml, 0, text);
            char[] chunk = new char[1 << 16];
            Arrays.fill(chunk, 'x');
            for (int i = 0; i < 400; i++) {
                w.write(chunk);
            }
            w.write(xml, end, xml.length() - end);
        }
        Files.move(part, inbox.resolve("big.xml"));

        AppProcess.Result run = AppProcess.run(dir, Map.of("JAVA_TOOL_OPTIONS", "-Xmx96m -XX:+UseParallelGC"), "worker",
                "--inbox", inbox.toString(), "--topic", "oom-" + UUID.randomUUID(), "-s",
                "kafka.bootstrap.servers=" + TestBroker.bootstrapServers(), "-s", "worker.id=oom", "-s", "http.port=-1",
                "-s", "xml.max.text.size=64MiB", "-s", "xml.max.record.size=64MiB");

        assertThat(run.exit()).as(run.stderr()).isEqualTo(1);
        String where = "java.lang.OutOfMemoryError: Java heap space while (reading|converting) file big.xml, record "
                + "index 30, line 33, ";
        assertThat(run.stderr()).containsPattern("error: the worker stopped on io.xmlingest.core.error.RecordError: "
                + where).doesNotContain("Exception in thread");
        assertThat(run.stderr().split("\n(io.xmlingest.core.error.)?RecordError: java.lang.OutOfMemoryError", -1))
                .as("stack traces in the log").hasSize(2);
        FileCrashes crashes = FileCrashes.decode(Files.readString(inbox.resolve("processing").resolve("oom")
                .resolve(".big.xml.crashes"))).orElseThrow();
        assertThat(crashes.count()).isEqualTo(1);
        assertThat(crashes.last()).containsPattern("^" + where);
    }
}
