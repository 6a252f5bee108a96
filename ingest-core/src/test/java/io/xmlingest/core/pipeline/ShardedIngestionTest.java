package io.xmlingest.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.xmlingest.core.checkpoint.Checkpoint;
import io.xmlingest.core.checkpoint.CheckpointCodec;
import io.xmlingest.core.checkpoint.FileState;
import io.xmlingest.core.checkpoint.InMemoryCheckpointStore;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.FileFailedException;
import io.xmlingest.core.error.RetriableIngestException;
import io.xmlingest.core.page.OutgoingRecord;
import io.xmlingest.core.publish.Envelope;
import io.xmlingest.core.publish.InMemoryTransactionalPublisher;
import io.xmlingest.core.publish.TopicNames;
import io.xmlingest.core.split.CompressedInput;
import io.xmlingest.core.split.Shard;
import io.xmlingest.core.split.StaxShardPlanner;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file cut into shards, each ingested on its own (as different workers would), crashing at random. */
class ShardedIngestionTest {

    @TempDir
    Path dir;

    private static final TopicNames TOPICS = new TopicNames(List.of("t"), "t.dlq", "t.status", "t.checkpoints");

    private static IngestConfig config(String... keyValues) {
        Map<String, String> flags = new HashMap<>(Map.of("topic", "t", "page.max.records", "7", "commit.interval.ms", "0"));
        for (int i = 0; i < keyValues.length; i += 2) {
            flags.put(keyValues[i], keyValues[i + 1]);
        }
        return IngestConfig.of(IngestSettings.ALL, flags);
    }

    /** Every 7th record (from the 4th) has text in a numeric field, so it becomes a dead letter. */
    private Path file(int count, int brokenAt) throws Exception {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < count; i++) {
            String p = IngestionPipelineTest.person(1000 + i);
            if (i == brokenAt) {
                p = p.replace("<lastName>L</lastName>", "<lastName>L</last>");
            }
            s.append(i % 7 == 3 ? p.replace("<salary>1.00</salary>", "<salary>lots</salary>") : p);
        }
        return Files.writeString(dir.resolve("sharded.xml"), "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<persons xmlns=\"urn:xmlingest:sample:persons\">\n" + s + "</persons>\n");
    }

    private static List<String> events(List<Envelope> status) {
        return status.stream().map(e -> new String(e.value(), StandardCharsets.UTF_8))
                .map(v -> v.replaceAll("^\\{\"event\":\"([\\w-]+)\".*$", "$1")).toList();
    }

    private record Published(List<OutgoingRecord> records, List<Envelope> deadLetters, List<Envelope> status,
                             InMemoryCheckpointStore checkpoints, FileJob file, int shards) {
    }

    /** Runs every shard, in a shuffled order, each crashing at random commits and resuming from its checkpoint. */
    private Published ingestInShards(Path f, int shards, IngestConfig config, long seed) throws Exception {
        FileJob file = new FileJob(f, "sharded.xml", FileIdentity.sha256(f), Files.size(f), null);
        List<Shard> plan = new StaxShardPlanner(IngestionPipeline.model(config).elements(), IngestionPipeline.limits(config))
                .plan(f, file.name(), shards);
        ShardedFiles sharded = new ShardedFiles(TOPICS, "w");
        InMemoryCheckpointStore store = new InMemoryCheckpointStore();
        List<OutgoingRecord> records = new ArrayList<>();
        List<Envelope> dlq = new ArrayList<>();
        List<Envelope> status = new ArrayList<>();
        for (Envelope e : sharded.planned(file, plan.size())) {
            (e.topic().equals("t.status") ? status : new ArrayList<Envelope>()).add(e);
            if (e.topic().equals("t.checkpoints")) {
                store.committed(CheckpointCodec.decode(e.value()));
            }
        }
        Random random = new Random(seed);
        List<Shard> order = new ArrayList<>(plan);
        java.util.Collections.shuffle(order, random);
        TransactionalIngestion ingestion = new TransactionalIngestion(config, IngestionPipeline.model(config), "w");
        for (Shard shard : order) {
            // A work order travels as bytes: the shard a worker runs is the one decoded from the topic.
            WorkOrder order1 = WorkOrder.decode(new WorkOrder(f.toUri().toString(), file.name(), file.fileId(), file.bytes(), shard).encode());
            assertThat(order1.shard()).isEqualTo(shard);
            while (true) {
                int failAt = random.nextInt(4);
                InMemoryTransactionalPublisher p = new InMemoryTransactionalPublisher(n -> n == failAt);
                Checkpoint from = store.find(Checkpoint.key(file.fileId(), shard.index())).orElse(null);
                try {
                    FileOutcome out = ingestion.ingest(order1.job(from), p, IngestListener.NONE, () -> false);
                    assertThat(out.ending()).isNotEqualTo(FileOutcome.Ending.STOPPED);
                    collect(p, records, dlq, status, store);
                    break;
                } catch (RetriableIngestException e) {
                    collect(p, records, dlq, status, store);
                }
            }
            if (shard.index() % 2 == 0) {
                // A worker that dies before looking whether the file is done leaves it to the next shard's worker.
                continue;
            }
            sharded.ending(file, plan.size(), store).ifPresent(end -> commit(end.messages(), status, store));
        }
        sharded.ending(file, plan.size(), store).ifPresent(end -> commit(end.messages(), status, store));
        assertThat(sharded.ending(file, plan.size(), store)).as("the ending is committed once").isEmpty();
        return new Published(records, dlq, status, store, file, plan.size());
    }

    private static void commit(List<Envelope> messages, List<Envelope> status, InMemoryCheckpointStore store) {
        for (Envelope e : messages) {
            if (e.topic().equals("t.status")) {
                status.add(e);
            } else {
                store.committed(CheckpointCodec.decode(e.value()));
            }
        }
    }

    private static void collect(InMemoryTransactionalPublisher p, List<OutgoingRecord> records, List<Envelope> dlq,
                                List<Envelope> status, InMemoryCheckpointStore store) {
        records.addAll(p.records());
        dlq.addAll(p.envelopes("t.dlq"));
        status.addAll(p.envelopes("t.status"));
        p.envelopes("t.checkpoints").forEach(e -> store.committed(CheckpointCodec.decode(e.value())));
    }

    @Test
    void shardsIngestedApartPublishEveryRecordOnceWithItsFileIndexAndOneCompletedEvent() throws Exception {
        Path f = file(400, -1);
        Published out = ingestInShards(f, 6, config(), 11);
        List<Long> expected = new ArrayList<>();
        for (long i = 0; i < 400; i++) {
            if (i % 7 != 3) {
                expected.add(i);
            }
        }
        assertThat(out.records()).extracting(OutgoingRecord::index).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(out.deadLetters()).hasSize(400 - expected.size());
        List<String> events = events(out.status());
        assertThat(events).filteredOn("started"::equals).hasSize(1);
        assertThat(events).filteredOn("shard-completed"::equals).hasSize(6);
        assertThat(events).filteredOn("completed"::equals).hasSize(1);
        assertThat(events.get(events.size() - 1)).isEqualTo("completed");
        String completed = new String(out.status().get(out.status().size() - 1).value(), StandardCharsets.UTF_8);
        assertThat(completed).contains("\"records\":" + expected.size(), "\"deadLetters\":" + (400 - expected.size()));
        Checkpoint whole = out.checkpoints().find(out.file().fileId()).orElseThrow();
        assertThat(whole.state()).isEqualTo(FileState.COMPLETED);
        assertThat(whole.records()).isEqualTo(expected.size());
        assertThat(whole.nextRecordIndex()).isEqualTo(400);
    }

    @Test
    void aFaultInOneShardFailsTheFileAfterEveryOtherShardIsIngested() throws Exception {
        Path f = file(300, 200);
        Published out = ingestInShards(f, 6, config(), 5);
        List<String> events = events(out.status());
        assertThat(events).filteredOn("shard-failed"::equals).hasSize(1);
        assertThat(events).filteredOn("shard-completed"::equals).hasSize(out.shards() - 1);
        assertThat(events.get(events.size() - 1)).isEqualTo("failed");
        assertThat(events).doesNotContain("completed");
        // As on one worker, everything before the fault is published; the file cannot be read past it.
        List<Long> expected = new ArrayList<>();
        for (long i = 0; i < 200; i++) {
            if (i % 7 != 3) {
                expected.add(i);
            }
        }
        assertThat(out.records()).extracting(OutgoingRecord::index).containsExactlyInAnyOrderElementsOf(expected);
        String failed = new String(out.status().get(out.status().size() - 1).value(), StandardCharsets.UTF_8);
        assertThat(failed).contains("record index 200");
        // The file's failed event and checkpoint give the failed shard's position in parts, as a whole file's do.
        com.fasterxml.jackson.databind.JsonNode event = new com.fasterxml.jackson.databind.ObjectMapper().readTree(failed);
        assertThat(event.get("position").get("recordIndex").asLong()).isEqualTo(200);
        assertThat(event.get("position").get("line").asInt()).isPositive();
        assertThat(event.get("reason").asText()).isNotBlank().doesNotContain("record index");
        Checkpoint whole = out.checkpoints().find(out.file().fileId()).orElseThrow();
        assertThat(whole.state()).isEqualTo(FileState.FAILED);
        assertThat(whole.failure().location().recordIndex()).isEqualTo(200);
        assertThat(whole.failure().toException().getMessage()).isEqualTo(whole.reason());
    }

    /**
     * A compressed file's shards read the plain copy beside it that the cut read (inflated by the
     * worker that took the file from the inbox); with the copy gone, a shard fails saying so, rather
     * than inflate it again while the other shards' workers may be doing the same.
     */
    @Test
    void aCompressedFilesShardsReadItsPlainCopyAndFailWithoutIt() throws Exception {
        Path f = file(210, -1);
        Path gz = dir.resolve("sharded.xml.gz");
        try (java.io.OutputStream out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(gz))) {
            Files.copy(f, out);
        }
        String fileId = FileIdentity.ofContent(gz, "sharded.xml.gz", Long.MAX_VALUE, () -> false);
        assertThat(fileId).isEqualTo(FileIdentity.sha256(f));
        Path copy = CompressedInput.copyBeside(gz, fileId);
        IngestConfig config = config();
        List<Shard> plan = new StaxShardPlanner(IngestionPipeline.model(config).elements(), IngestionPipeline.limits(config))
                .plan(copy, "sharded.xml.gz", 3);
        assertThat(plan).hasSize(3);
        TransactionalIngestion ingestion = new TransactionalIngestion(config, IngestionPipeline.model(config), "w");
        List<OutgoingRecord> records = new ArrayList<>();
        for (Shard shard : plan.subList(0, 2)) {
            WorkOrder order = new WorkOrder(gz.toUri().toString(), "sharded.xml.gz", fileId, Files.size(gz), shard);
            InMemoryTransactionalPublisher p = new InMemoryTransactionalPublisher();
            assertThat(ingestion.ingest(order.job(null), p, IngestListener.NONE, () -> false).ending())
                    .isEqualTo(FileOutcome.Ending.COMPLETED);
            records.addAll(p.records());
        }
        long end = plan.get(2).firstRecordIndex();
        List<Long> expected = new ArrayList<>();
        for (long i = 0; i < end; i++) {
            if (i % 7 != 3) {
                expected.add(i);
            }
        }
        assertThat(records).extracting(OutgoingRecord::index).containsExactlyElementsOf(expected);

        Files.delete(copy);
        WorkOrder last = new WorkOrder(gz.toUri().toString(), "sharded.xml.gz", fileId, Files.size(gz), plan.get(2));
        InMemoryTransactionalPublisher p = new InMemoryTransactionalPublisher();
        FileOutcome out = ingestion.ingest(last.job(null), p, IngestListener.NONE, () -> false);
        assertThat(out.ending()).isEqualTo(FileOutcome.Ending.FAILED);
        assertThat(out.failure().getMessage()).startsWith("its plain copy " + copy.getFileName() + ", which the file "
                + "was cut in, is not beside it any more");
        assertThat(p.records()).isEmpty();
        assertThat(copy).doesNotExist();
        assertThat(events(p.envelopes("t.status"))).containsExactly("shard-failed");
    }

    /**
     * A shard that stops every worker it is handed to is set aside (worker.file.max.crashes): it
     * ends as a failed shard does, where its checkpoint stood, and the file fails once the others end.
     */
    @Test
    void aShardSetAsideEndsAsAFailedShardAndTheFileFailsOnceTheOthersEnd() throws Exception {
        Path f = file(300, -1);
        IngestConfig config = config();
        FileJob file = new FileJob(f, "sharded.xml", FileIdentity.sha256(f), Files.size(f), null);
        List<Shard> plan = new StaxShardPlanner(IngestionPipeline.model(config).elements(), IngestionPipeline.limits(config))
                .plan(f, file.name(), 3);
        assertThat(plan).hasSize(3);
        ShardedFiles sharded = new ShardedFiles(TOPICS, "w");
        InMemoryCheckpointStore store = new InMemoryCheckpointStore();
        List<Envelope> status = new ArrayList<>();
        List<OutgoingRecord> records = new ArrayList<>();
        commit(sharded.planned(file, plan.size()), status, store);
        TransactionalIngestion ingestion = new TransactionalIngestion(config, IngestionPipeline.model(config), "w");
        FileFailedException reason = new FileFailedException("set aside", ErrorLocation.ofFile("sharded.xml"),
                "worker.file.max.crashes", null);
        for (Shard shard : plan) {
            WorkOrder order = new WorkOrder(f.toUri().toString(), file.name(), file.fileId(), file.bytes(), shard);
            InMemoryTransactionalPublisher p = new InMemoryTransactionalPublisher();
            if (shard.index() == 1) {
                Checkpoint failed = ingestion.setAside(order.job(null), reason, p);
                assertThat(failed.state()).isEqualTo(FileState.FAILED);
                assertThat(failed.shard()).isEqualTo(1);
                assertThat(failed.nextRecordIndex()).isEqualTo(shard.firstRecordIndex());
                assertThat(failed.records()).isZero();
            } else {
                assertThat(ingestion.ingest(order.job(null), p, IngestListener.NONE, () -> false).ending())
                        .isEqualTo(FileOutcome.Ending.COMPLETED);
            }
            collect(p, records, new ArrayList<>(), status, store);
        }
        commit(sharded.ending(file, plan.size(), store).orElseThrow().messages(), status, store);

        assertThat(events(status)).containsExactly("started", "shard-completed", "shard-failed", "shard-completed",
                "failed");
        String shardFailed = new String(status.get(2).value(), StandardCharsets.UTF_8);
        assertThat(shardFailed).contains("\"shard\":1", "\"setting\":\"worker.file.max.crashes\"", "set aside");
        // The other shards' records are published, once; none of the one set aside.
        long from = plan.get(1).firstRecordIndex();
        long to = plan.get(2).firstRecordIndex();
        List<Long> expected = new ArrayList<>();
        for (long i = 0; i < 300; i++) {
            if (i % 7 != 3 && (i < from || i >= to)) {
                expected.add(i);
            }
        }
        assertThat(records).extracting(OutgoingRecord::index).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(store.find(file.fileId()).orElseThrow().state()).isEqualTo(FileState.FAILED);

        // Dropped again once mended: the failed shard is in progress again where it stood, runs from there, and the
        // file completes with every record once.
        Checkpoint failedShard = store.find(Checkpoint.key(file.fileId(), 1)).orElseThrow();
        Checkpoint failedFile = store.find(file.fileId()).orElseThrow();
        // Read from the topic by another worker, the file in progress again must not look older than the failed one.
        assertThat(failedFile.reopened().isBehind(failedFile)).isFalse();
        assertThat(failedShard.reopened().isBehind(failedShard)).isFalse();
        commit(sharded.retried(failedFile, List.of(failedShard)), status, store);
        assertThat(store.find(file.fileId()).orElseThrow().state()).isEqualTo(FileState.IN_PROGRESS);
        Checkpoint reopened = store.find(Checkpoint.key(file.fileId(), 1)).orElseThrow();
        assertThat(reopened.state()).isEqualTo(FileState.IN_PROGRESS);
        // Ordered again from its checkpoint alone (through the codec, as the topic has it): the shard as it was cut.
        assertThat(ShardedFiles.shardOf(reopened)).contains(plan.get(1));
        assertThat(ShardedFiles.shardOf(failedFile)).isEmpty();
        // Written before shards kept their bounds: nothing to order it by (the worker refuses the file, saying so).
        assertThat(ShardedFiles.shardOf(new Checkpoint(file.fileId(), file.name(), FileState.FAILED, 5, null, 5, 0, 1,
                "bad", 1))).isEmpty();
        for (Shard shard : plan) {
            assertThat(ShardedFiles.shardOf(store.find(Checkpoint.key(file.fileId(), shard.index())).orElseThrow()))
                    .contains(shard);
        }
        WorkOrder order = new WorkOrder(f.toUri().toString(), file.name(), file.fileId(), file.bytes(),
                ShardedFiles.shardOf(reopened).orElseThrow());
        InMemoryTransactionalPublisher p = new InMemoryTransactionalPublisher();
        assertThat(ingestion.ingest(order.job(reopened), p, IngestListener.NONE, () -> false).ending())
                .isEqualTo(FileOutcome.Ending.COMPLETED);
        collect(p, records, new ArrayList<>(), status, store);
        commit(sharded.ending(file, plan.size(), store).orElseThrow().messages(), status, store);
        List<Long> all = new ArrayList<>();
        for (long i = 0; i < 300; i++) {
            if (i % 7 != 3) {
                all.add(i);
            }
        }
        assertThat(records).extracting(OutgoingRecord::index).containsExactlyInAnyOrderElementsOf(all);
        assertThat(events(status).subList(5, events(status).size())).containsExactly("shard-completed", "completed");
        assertThat(store.find(file.fileId()).orElseThrow().state()).isEqualTo(FileState.COMPLETED);
    }
}
