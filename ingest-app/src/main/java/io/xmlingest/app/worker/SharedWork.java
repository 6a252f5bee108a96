package io.xmlingest.app.worker;

import io.xmlingest.app.AppSettings;
import io.xmlingest.core.checkpoint.Checkpoint;
import io.xmlingest.core.checkpoint.CheckpointStore;
import io.xmlingest.core.checkpoint.KafkaCheckpointStore;
import io.xmlingest.core.checkpoint.FileState;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ConfigException;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.FileFailedException;
import io.xmlingest.core.error.RetriableIngestException;
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
import io.xmlingest.core.publish.KafkaClientSettings;
import io.xmlingest.core.publish.KafkaTopics;
import io.xmlingest.core.publish.MessageHeaders;
import io.xmlingest.core.publish.TopicNames;
import io.xmlingest.core.split.CompressedInput;
import io.xmlingest.core.split.Shard;
import io.xmlingest.core.split.ShardPlanner;
import io.xmlingest.core.split.StaxShardPlanner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.ProviderNotFoundException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker as one of a group sharing the work through Kafka (work.shards &gt; 0). A file taken
 * from the inbox is cut into shards, and one work order per shard goes to the work topic in the
 * transaction that announces the file. The workers are one consumer group on that topic: Kafka's
 * assignment decides who ingests which shard, and gives a dead worker's partitions to the others,
 * who resume its shard from the shard's checkpoint.
 *
 * <p>Every shard commits under a transactional id of its own, so whoever takes a shard over fences
 * the worker that had it (a zombie that paused past its session timeout cannot commit again), and
 * reads the shard's checkpoint only after that. Cutting a file and ending it commit under the
 * file's transactional id, so two workers cannot both cut a file or both end it. The work order's
 * offset is committed once its shard has ended: a worker that dies before that leaves the order to
 * the next owner, who finds the shard ended and only looks whether the file is.
 */
final class SharedWork implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SharedWork.class);
    /**
     * How long a silent worker keeps its shards. Kafka's default (45 s) would leave a dead worker's
     * shards idle that long; the brokers' default minimum is 6 s.
     */
    private static final int SESSION_TIMEOUT_MS = 10_000;
    /**
     * How often a worker looks over sharded/, between shards. The worker that ends a file's last
     * shard normally ends the file, but a commit's markers reach the checkpoints shortly after it
     * returns: two workers ending the last two shards at once may each not yet see the other's, and
     * then neither ends the file. The sweep finds such a file, one a worker died before cutting or
     * before moving, and one whose ending failed on Kafka.
     */
    private static final long SWEEP_NANOS = Duration.ofSeconds(5).toNanos();
    /** A file uncut in sharded/ for less than this is left to the worker that moved it there and cuts it. */
    private static final long CUTTING_MILLIS = Duration.ofSeconds(60).toMillis();
    /** A claim in another worker's processing/ this old is taken over: its worker hashes far faster. */
    private static final long CLAIM_STALE_MILLIS = Duration.ofMinutes(10).toMillis();

    private final IngestConfig config;
    private final TopicNames topics;
    private final String workTopic;
    private final String workerId;
    private final Inbox inbox;
    private final int shards;
    private final int maxCrashes;
    private final long decompressedMaxBytes;
    private final ShardPlanner planner;
    private final TransactionalIngestion ingestion;
    private final ShardedFiles files;
    private final WorkerMetrics metrics;
    private final BooleanSupplier stopping;
    private final Consumer<String> trouble;
    private final CompletedRetention retention;
    private final KafkaWait wait;
    /** The session opened last, whose publisher says how long a page or commit has waited; read by the health check. */
    private volatile KafkaSession inHand;
    private KafkaConsumer<byte[], byte[]> work;
    /**
     * The checkpoints, read on as they come: the sweep looks at them without fencing anyone (only a
     * file that needs a hand gets its transactional session opened), and every session this worker
     * opens, one per shard, shares them, reading on after its fence rather than from the start.
     */
    private KafkaCheckpointStore checkpoints;
    private long lastSweep;
    /** Files this worker moved to sharded/ but could not cut (Kafka failed): its sweep cuts them at any age. */
    private final Set<Path> failedCuts = new HashSet<>();
    /** Offsets of orders handled here whose commit a rebalance refused: the next to commit, by partition. */
    private final Map<TopicPartition, Long> uncommitted = new HashMap<>();

    SharedWork(IngestConfig config, RecordModel model, TransactionalIngestion ingestion, Inbox inbox, String workerId,
               WorkerMetrics metrics, BooleanSupplier stopping, Consumer<String> trouble, CompletedRetention retention,
               KafkaWait wait) {
        this.config = config;
        this.wait = wait;
        this.topics = ingestion.topics();
        this.retention = retention;
        this.workTopic = workTopic(config);
        this.workerId = workerId;
        this.inbox = inbox;
        this.shards = config.get(AppSettings.WORK_SHARDS);
        this.maxCrashes = config.get(AppSettings.FILE_MAX_CRASHES);
        this.decompressedMaxBytes = config.get(IngestSettings.DECOMPRESSED_MAX_BYTES);
        this.planner = new StaxShardPlanner(model.elements(), IngestionPipeline.limits(config));
        this.ingestion = ingestion;
        this.files = new ShardedFiles(topics, workerId);
        this.metrics = metrics;
        this.stopping = stopping;
        this.trouble = trouble;
    }

    /** Refuses a work topic that is one of the worker's other topics: work orders would reach their consumers. */
    static void checkWorkTopic(IngestConfig config, TopicNames topics) {
        if (config.get(AppSettings.WORK_SHARDS) == 0) {
            return;
        }
        String work = workTopic(config);
        if (topics.all().contains(work)) {
            throw new ConfigException(AppSettings.WORK_TOPIC.key(), AppSettings.WORK_TOPIC.key()
                    + " names topic " + work + ", which the worker also uses for records, dead letters, status events or "
                    + "checkpoints; each use needs a topic of its own");
        }
    }

    static String workTopic(IngestConfig config) {
        String set = config.get(AppSettings.WORK_TOPIC);
        return set.isBlank() ? config.get(IngestSettings.TOPIC).get(0) + ".work" : set;
    }

    /**
     * One round: takes a file from the inbox if there is one and cuts it, then ingests the shard
     * Kafka hands this worker, if any, waiting for one at most {@code pollMillis}.
     *
     * @throws RetriableIngestException or a KafkaException when Kafka failed; run again later
     * @throws WorkOrderBlockedException when a work order's file cannot be read here; run again later
     */
    void step(long pollMillis) {
        if (checkpoints == null) {
            checkpoints = wait.call("checking the topics and reading the checkpoint topic",
                    () -> KafkaSession.checkpoints(config, topics, StartupTimeline.unwatched(), wait::progress));
        }
        if (work == null) {
            work = wait.call("creating or checking the work topic " + workTopic, this::join);
        }
        if (lastSweep == 0 || System.nanoTime() - lastSweep > SWEEP_NANOS) {
            sweep();
            lastSweep = System.nanoTime();
        }
        Optional<Path> claimed = inbox.unfinished().stream().findFirst().or(inbox::claimNext);
        claimed.ifPresent(this::take);
        ConsumerRecords<byte[], byte[]> orders = work.poll(Duration.ofMillis(claimed.isPresent() ? 0 : pollMillis));
        commitRefused();
        for (ConsumerRecord<byte[], byte[]> order : orders) {
            handle(order);
            if (stopping.getAsBoolean()) {
                return;
            }
        }
    }

    /** Looks over sharded/ (and stale claims) for files that need a hand; see {@link #SWEEP_NANOS}. */
    private void sweep() {
        inbox.takeOverClaims(CLAIM_STALE_MILLIS);
        // Every few seconds, with or without work: this is also how an idle worker finds Kafka gone.
        wait.call(KafkaWait.READING_CHECKPOINTS, checkpoints::refresh);
        for (Path file : inbox.sharded()) {
            String fileId = Inbox.shardedFileId(file);
            Optional<Checkpoint> c = checkpoints.find(fileId);
            boolean needsHand = c.isEmpty() ? failedCuts.contains(file) || inbox.ageMillis(file) >= CUTTING_MILLIS
                    : c.get().isFinished() || c.get().shards() == 0
                    || ShardedFiles.endable(fileId, c.get().shards(), checkpoints);
            if (!needsHand) {
                continue;
            }
            try {
                settle(file, false, c.isEmpty());
            } catch (UncheckedIOException e) {
                if (Files.exists(file)) {
                    throw e;
                }
                // moved on by another worker meanwhile
            }
        }
        // After the files above were seen to: one ended but not yet moved keeps its checkpoint (it is in hand).
        List<String> old = wait.call(KafkaWait.READING_CHECKPOINTS, () -> retention.due(checkpoints, inbox));
        if (!old.isEmpty()) {
            try (Held held = open("xmlingest-" + topics.records() + "-retention-" + workerId,
                    "opening a session to delete old checkpoints")) {
                retention.delete(old, checkpoints, held.session().publisher());
            }
        }
    }

    private KafkaConsumer<byte[], byte[]> join() {
        KafkaTopics.ensure(KafkaClientSettings.admin(config), List.of(KafkaTopics.spec(workTopic,
                config.get(AppSettings.WORK_PARTITIONS), config.get(IngestSettings.TOPIC_REPLICATION_FACTOR), Map.of())),
                Duration.ofMillis(config.get(IngestSettings.TOPIC_READY_TIMEOUT_MS)));
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProperties(config, workTopic, workerId));
        consumer.subscribe(List.of(workTopic));
        LOG.info("worker {} joined the group {} on {}; files are cut into up to {} shards", workerId,
                workTopic + "-workers", workTopic, shards);
        return consumer;
    }

    /** The work topic's consumer; every key it sets is refused as kafka.client.*, so none is silently replaced. */
    static Properties consumerProperties(IngestConfig config, String workTopic, String workerId) {
        Properties p = KafkaClientSettings.consumer(config);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, workTopic + "-workers");
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "xmlingest-" + workerId + "-work");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        // One order at a time: an order taken is an order this worker holds until its shard has ended.
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1);
        p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, SESSION_TIMEOUT_MS);
        p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, SESSION_TIMEOUT_MS / 3);
        // A shard of a huge file takes minutes; the group must not think the worker stuck meanwhile.
        p.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, (int) Duration.ofHours(1).toMillis());
        // Said, not left to the client's default: the assignor below exists only in the classic protocol.
        p.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
        p.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return p;
    }

    /** A claimed file: identified, moved where every worker reads it, and cut. */
    private void take(Path claimed) {
        String fileId;
        long hashedSize;
        try {
            // A compressed file is inflated here, once, into a plain copy beside it that goes to sharded/ with it: the
            // cut and every shard read the copy.
            // Hashed to the size it has now, and read no further: a file still being written grows meanwhile, and what
            // the shards publish must be what the file id covers.
            hashedSize = Inbox.size(claimed);
            fileId = FileIdentity.ofContent(claimed, claimed.getFileName().toString(), decompressedMaxBytes,
                    stillMine(claimed), hashedSize);
            if (fileId == null) {
                return; // asked to stop while inflating: the claim is taken up again on the next start
            }
        } catch (FileFailedException e) {
            if (!Files.exists(claimed)) {
                return; // another worker of the group took the claim over
            }
            LOG.error("{} failed: {}", claimed.getFileName(), e.getMessage());
            inbox.toFailed(claimed, null, FileReport.of("failed", claimed.getFileName().toString(), null, Inbox.size(claimed),
                    null, 0, e, null));
            metrics.end("failed");
            return;
        }
        boolean underWay = inbox.sharded().stream().anyMatch(f -> Inbox.shardedFileId(f).equals(fileId));
        if (!underWay && failedInShards(fileId) && !retryFailedShards(claimed, fileId)) {
            return; // refused, and moved to failed/ saying why
        }
        Optional<Path> shared = underWay ? Optional.empty() : inbox.toSharded(claimed, fileId);
        if (shared.isEmpty() && !Files.exists(claimed)) {
            return; // another worker of the group took the claim over and moved it on
        }
        if (shared.isEmpty()) {
            LOG.info("{} has the content of a file being ingested (file id {}): nothing published", claimed.getFileName(),
                    fileId);
            inbox.toDone(claimed, fileId, FileReport.of("already_ingested", claimed.getFileName().toString(), fileId,
                    Inbox.size(claimed), null, 0, null, "the same content is being ingested; nothing was published again"));
            metrics.end("already_ingested");
            return;
        }
        try {
            settle(shared.get(), true, uncutHere(fileId), hashedSize);
        } catch (RuntimeException e) {
            failedCuts.add(shared.get()); // it waits in sharded/, for this worker's sweep once Kafka is back
            throw e;
        }
    }

    /**
     * The stop question asked between buffers while a claimed file is inflated, which also tells the
     * other workers the claim is alive: its ctime is renewed every minute, so a large file that
     * inflates for longer than CLAIM_STALE_MILLIS is not taken over, its copy deleted, over and over.
     */
    private BooleanSupplier stillMine(Path claimed) {
        long[] renewed = {System.nanoTime()};
        return () -> {
            if (System.nanoTime() - renewed[0] > TimeUnit.MINUTES.toNanos(1)) {
                renewed[0] = System.nanoTime();
                try {
                    // The same modification time, set again: only the ctime, which a claim's age is read from, moves.
                    Files.setLastModifiedTime(claimed, Files.getLastModifiedTime(claimed));
                } catch (IOException e) {
                    // taken over already, or gone: the inflation finds out as it renames its copy
                }
            }
            return stopping.getAsBoolean();
        };
    }

    private boolean failedInShards(String fileId) {
        wait.call(KafkaWait.READING_CHECKPOINTS, checkpoints::refresh);
        return checkpoints.find(fileId).filter(c -> c.state() == FileState.FAILED && c.shards() > 0).isPresent();
    }

    /**
     * Takes a failed file's failed shards up again, dropped into the inbox again (once the cause is
     * mended): in one transaction under the file's own transactional id, each failed shard's
     * checkpoint is marked in progress where it stood, the file's as when it was cut, and each failed
     * shard is ordered again with the bounds its checkpoint keeps (cutting again could bound it
     * otherwise). Committed before the file is back in sharded/, so that no worker's look over
     * sharded/ finds it there failed and moves it out again; an order taken before the file is there
     * waits for it. False when it cannot be done: the file is then refused, saying why.
     */
    private boolean retryFailedShards(Path claimed, String fileId) {
        Path target = inbox.shardedPath(claimed, fileId);
        String name = Inbox.shardedName(target);
        long size = Inbox.size(claimed);
        try (Held held = fileSession(fileId, name)) {
            KafkaSession session = held.session();
            Checkpoint file = session.checkpoints().find(fileId).orElse(null);
            if (file == null || file.state() != FileState.FAILED || file.shards() == 0) {
                return true; // taken up again meanwhile by another worker of the group
            }
            List<Checkpoint> failed = new ArrayList<>();
            for (int i = 0; i < file.shards(); i++) {
                Optional<Checkpoint> shard = session.checkpoints().find(Checkpoint.key(fileId, i));
                if (shard.isEmpty()) {
                    return refuseRetry(claimed, name, fileId, size, file, "the checkpoint of its shard " + i
                            + " is not known here");
                }
                if (shard.get().state() == FileState.FAILED) {
                    failed.add(shard.get());
                }
            }
            List<Integer> failedShards = failed.stream().map(Checkpoint::shard).toList();
            List<Integer> unbounded = failed.stream().filter(c -> ShardedFiles.shardOf(c).isEmpty())
                    .map(Checkpoint::shard).toList();
            if (!unbounded.isEmpty()) {
                return refuseRetry(claimed, name, fileId, size, file, "the checkpoints of its failed shards "
                        + unbounded + " do not keep the shards' bounds (they were written by an earlier version)");
            }
            int partitions = wait.call("reading the partitions of " + workTopic, () -> work.partitionsFor(workTopic))
                    .size();
            List<Envelope> messages = new ArrayList<>();
            for (Checkpoint c : failed) {
                WorkOrder order = new WorkOrder(target.toAbsolutePath().toUri().toString(), name, fileId, size,
                        ShardedFiles.shardOf(c).orElseThrow());
                messages.add(orderMessage(order, partitions));
            }
            messages.addAll(files.retried(file, failed));
            session.publisher().commit(messages);
            for (Checkpoint c : failed) {
                session.checkpoints().committed(c.reopened(), workerId);
            }
            session.checkpoints().committed(file.reopened(), workerId);
            LOG.info("{} failed before in shards; its failed shards {} are taken up again where they stood", name,
                    failedShards);
            return true;
        }
    }

    private boolean refuseRetry(Path claimed, String name, String fileId, long size, Checkpoint file, String why) {
        refuse(claimed, name, fileId, size, file, "this content failed before in " + file.shards() + " shards ("
                + file.reason() + "), and its failed shards cannot be taken up again: " + why
                + "; nothing was published this time");
        return false;
    }

    /** Moves a file dropped again to failed/ unread, with a refused report saying why (work.shards named). */
    private void refuse(Path file, String name, String fileId, long size, Checkpoint before, String reason) {
        LOG.error("{} refused: {}", name, reason);
        inbox.toFailed(file, fileId, FileReport.of("refused", name, fileId, size, before, 0,
                new FileFailedException(reason, ErrorLocation.ofFile(name), AppSettings.WORK_SHARDS.key(), null), null));
        metrics.end("refused");
    }

    /**
     * Brings a file of {@code sharded/} on: cuts it if nobody has, ends it once every shard has,
     * moves it out once it has ended. Under the file's transactional id, so of two workers doing
     * this at once one is fenced, and the other sees what the first committed.
     *
     * @param dropped just taken from the inbox, not found in sharded/
     * @param uncut   nobody had cut it when the checkpoints were last read: cut it first
     */
    private void settle(Path file, boolean dropped, boolean uncut) {
        settle(file, dropped, uncut, -1);
    }

    /** @param hashedSize the size the file was hashed to when this worker took it; -1 when not known here (a restart) */
    private void settle(Path file, boolean dropped, boolean uncut, long hashedSize) {
        String fileId = Inbox.shardedFileId(file);
        String name = Inbox.shardedName(file);
        long size = hashedSize >= 0 ? hashedSize : Inbox.size(file);
        FileJob whole = new FileJob(file, name, fileId, size, null);
        List<Shard> plan = null;
        if (uncut) {
            // The cut reads the whole file; the file's session is opened after it, not held through it, so that
            // a worker looking at the same file meanwhile fences nothing this one needs.
            long t0 = System.nanoTime();
            Path plain;
            try {
                plain = plain(file, name, fileId);
            } catch (FileFailedException e) {
                // Nothing of it is cut or published: dropped again, it is inflated anew.
                LOG.error("{} failed: {}", name, e.getMessage());
                inbox.toFailed(file, fileId, FileReport.of("failed", name, fileId, size, null, 0, e, null));
                metrics.end("failed");
                return;
            }
            // A compressed file's plain copy was written whole before it was hashed; a plain file is cut as hashed.
            plan = planner.plan(plain, name, shards, plain.equals(file) ? size : Long.MAX_VALUE);
            LOG.info("cut {} ({} bytes, file id {}) into {} shards in {} s", name, size, fileId, plan.size(),
                    String.format("%.2f", (System.nanoTime() - t0) / 1e9));
        }
        try (Held held = fileSession(fileId, name)) {
            KafkaSession session = held.session();
            Checkpoint before = session.checkpoints().find(fileId).orElse(null);
            if (before != null && before.isFinished() && dropped && before.state() == FileState.COMPLETED) {
                LOG.info("{} is already ingested (file id {}, {}): nothing published", name, fileId,
                        Counted.of(before.records(), "record"));
                inbox.toDone(file, fileId, FileReport.alreadyIngested(name, fileId, size, before));
                metrics.end("already_ingested");
                return;
            }
            if (before != null && before.state() == FileState.FAILED && dropped && before.shards() == 0) {
                // Dropped again after it failed whole: said, rather than moved back to failed/ without a word. (One that
                // failed in shards has had its failed shards taken up again as it was taken from the inbox.)
                refuse(file, name, fileId, size, before, "this content failed before as a whole file (" + before.reason()
                        + "); drop it into the inbox of a worker with " + AppSettings.WORK_SHARDS.key() + "=0, which "
                        + "resumes it where it failed; nothing was published this time");
                return;
            }
            if (before != null && before.isFinished()) {
                moveEnded(file, whole, before, session.checkpoints());
                return;
            }
            if (before != null && before.shards() == 0) {
                // A worker with work.shards=0 had begun it whole: cut now, its first records would go out twice.
                String reason = "this content is under way as a whole file (a worker with work.shards=0 began it); "
                        + "finish it with such a worker, which resumes it from its checkpoint";
                LOG.error("{}: {}", name, reason);
                inbox.toFailed(file, fileId, FileReport.of("refused", name, fileId, size, before, 0, null, reason));
                metrics.end("refused");
                return;
            }
            if (before != null) {
                end(session, whole, before.shards()); // cut already: ended here if every shard has ended
                return;
            }
            if (plan == null) {
                return; // a cut was seen before, so it is seen now: the checkpoints only read on; kept for safety
            }
            int partitions = wait.call("reading the partitions of " + workTopic, () -> work.partitionsFor(workTopic))
                    .size();
            List<Envelope> messages = new ArrayList<>();
            for (Shard shard : plan) {
                messages.add(orderMessage(new WorkOrder(file.toAbsolutePath().toUri().toString(), name, fileId, size,
                        shard), partitions));
            }
            messages.addAll(files.planned(whole, plan.size()));
            // A count left from the same content's last time here (a crash counted after it had ended) is stale.
            Inbox.forgetShardCrashes(file, plan.size());
            session.publisher().commit(messages);
            failedCuts.remove(file);
            LOG.info("{}: {} work orders on {}", name, plan.size(), workTopic);
        }
    }

    /**
     * A work order as its message on the work topic. A file's shards go to consecutive partitions (mod their
     * count): by key hash, shards would share partitions, and run one after another while workers idle. Each file
     * starts at a partition of its own, from its file id: starting every file at partition 0, a file of fewer shards
     * than partitions left the others empty, and a worker assigned only those got no work at all.
     */
    static int partitionOf(String fileId, int shardIndex, int partitions) {
        return (int) Math.floorMod((long) fileId.hashCode() + shardIndex, (long) partitions);
    }

    private Envelope orderMessage(WorkOrder order, int partitions) {
        return new Envelope(workTopic, order.key().getBytes(StandardCharsets.UTF_8), order.encode(),
                MessageHeaders.ofFile(order.name(), order.fileId()),
                partitionOf(order.fileId(), order.shard().index(), partitions));
    }

    /**
     * What is read of a file in sharded/: the file, or a compressed one's plain copy beside it, which
     * came with it from the inbox (the cut and every shard read the copy; whoever moves the file on
     * deletes it).
     *
     * @throws FileFailedException when the copy is gone from beside its file (deleted by hand)
     */
    private static Path plain(Path file, String name, String fileId) {
        if (!CompressedInput.isCompressed(file, name)) {
            return file;
        }
        Path copy = CompressedInput.copyBeside(file, fileId);
        if (!Files.isRegularFile(copy)) {
            throw new FileFailedException("its plain copy " + copy.getFileName() + ", inflated when it was taken from "
                    + "the inbox, is not beside it in sharded/; drop the file again", ErrorLocation.ofFile(name), null,
                    null);
        }
        return copy;
    }

    /** Whether, as far as this worker can see without fencing anyone, nobody has cut the file yet. */
    private boolean uncutHere(String fileId) {
        wait.call(KafkaWait.READING_CHECKPOINTS, checkpoints::refresh);
        return checkpoints.find(fileId).isEmpty();
    }

    private void handle(ConsumerRecord<byte[], byte[]> record) {
        TopicPartition partition = new TopicPartition(record.topic(), record.partition());
        WorkOrder order;
        try {
            order = WorkOrder.decode(record.value());
        } catch (IllegalArgumentException e) {
            LOG.warn("skipping what is not a work order at {} offset {}: {}", partition, record.offset(), e.getMessage());
            commitOrder(partition, record.offset());
            return;
        }
        ShardEnd ended;
        try {
            ended = ingest(order, record.timestamp());
        } catch (RetriableIngestException | KafkaException e) {
            // Taken up again here, or by whoever Kafka gives the partition to, from the shard's checkpoint.
            work.seek(partition, record.offset());
            throw e;
        } catch (WorkOrderBlockedException e) {
            work.seek(partition, record.offset());
            throw e;
        } catch (UncheckedIOException e) {
            work.seek(partition, record.offset());
            throw new WorkOrderBlockedException("reading " + order.uri() + " for " + order.shard() + " of " + order.name()
                    + " failed: " + e.getMessage() + "; the order is taken up again", e);
        } catch (RuntimeException e) {
            // Not this worker's to end (a failure Kafka would not take): it retries as it does for Kafka,
            // and never exits over one order.
            work.seek(partition, record.offset());
            throw new RetriableIngestException(order.shard() + " of " + order.name() + " (" + order.uri()
                    + ") could not be ingested here: " + e + "; it is taken up again", null, null, e);
        }
        if (ended == ShardEnd.STOPPED) {
            work.seek(partition, record.offset());
            return;
        }
        try {
            commitOrder(partition, record.offset());
        } catch (RebalanceInProgressException | CommitFailedException e) {
            // Whoever Kafka gives the order to finds the shard ended, and only looks whether the file is. If the
            // partition stays here, nobody reads the order again: the offset is committed after the rebalance.
            uncommitted.merge(partition, record.offset() + 1, Math::max);
            LOG.info("{} of {} ended, but the group is rebalancing: its offset is committed after it, or the order "
                    + "is seen again elsewhere", order.shard(), order.name());
        }
        if (ended == ShardEnd.FILE_MAY_END) {
            endIfDone(order);
        }
    }

    /** Whether the checkpoints say the order's shard, or its whole file, has ended. */
    private boolean answered(WorkOrder order) {
        return checkpoints.find(order.key()).filter(Checkpoint::isFinished).isPresent()
                || checkpoints.find(order.fileId()).filter(Checkpoint::isFinished).isPresent();
    }

    /** A mount away for a while must not fail the file: the order is taken up again later. */
    private static WorkOrderBlockedException unreadable(WorkOrder order) {
        return new WorkOrderBlockedException("cannot read " + order.uri() + " for " + order.shard() + " of "
                + order.name() + "; the order is taken up again until the file is readable", null);
    }

    /** The order's file; a URI no file system here resolves blocks the order rather than fail its file. */
    private static Path pathOf(WorkOrder order) {
        try {
            return order.path();
        } catch (IllegalArgumentException | FileSystemNotFoundException | ProviderNotFoundException | SecurityException e) {
            throw new WorkOrderBlockedException("cannot resolve " + order.uri() + " for " + order.shard() + " of "
                    + order.name() + " here: " + e + "; the order is taken up again", e);
        }
    }

    /** How a shard's run went. */
    private enum ShardEnd {
        /** The worker is stopping; the shard goes on from its checkpoint later, here or elsewhere. */
        STOPPED,
        /** The shard has ended, and some other shard of its file has not. */
        ENDED,
        /** The shard has ended, and every other shard of its file seemed to have ended too. */
        FILE_MAY_END
    }

    /**
     * Ingests a shard from its checkpoint.
     *
     * @param orderedAt when the order was written (its record's timestamp)
     */
    private ShardEnd ingest(WorkOrder order, long orderedAt) {
        Path file = pathOf(order);
        // Looked at before a session (a producer, and the fencing of its predecessor) is opened for the order:
        // a blocked order comes back every few seconds. An order its checkpoints answer needs no file.
        wait.call(KafkaWait.READING_CHECKPOINTS, checkpoints::refresh);
        if (checkpoints.find(order.fileId()).isEmpty()) {
            // A cut commits its file's checkpoint with its orders, but a transaction's markers are written after it
            // returns: the order may be seen before the checkpoint is. So an order with no checkpoint is let go only
            // when it is older than any retention (a cut's own order is fresh) and its file is known to have left
            // sharded/ (a file leaves only after it ended): an order seen again after its file was forgotten.
            if (!retention.olderThanShortestRetention(orderedAt) || !Files.notExists(file)
                    || !Files.isDirectory(file.getParent())) {
                throw new WorkOrderBlockedException(order.shard() + " of " + order.name() + ": the cut that ordered it is"
                        + " not visible here yet; the order is taken up again", null);
            }
            LOG.warn("{} of {}: its file ended and was forgotten since ({}); the order is let go", order.shard(),
                    order.name(), AppSettings.COMPLETED_RETENTION_MS.key());
            return ShardEnd.ENDED;
        }
        if (!answered(order) && !Files.isReadable(file)) {
            throw unreadable(order);
        }
        // The session shares the store, and reads it on after fencing its predecessor: the same questions again.
        try (Held held = open("xmlingest-" + topics.records() + "-" + order.key(),
                "opening a session for " + order.shard() + " of " + order.name())) {
            KafkaSession session = held.session();
            if (answered(order)) {
                // Its order seen again after the shard ended, or after the file did (the store then lets the
                // file's shards go): what may be left is the file's ending, or its move out of sharded/.
                return ShardEnd.FILE_MAY_END;
            }
            if (!Files.isReadable(file)) {
                throw unreadable(order);
            }
            Checkpoint from = checkpoints.find(order.key()).orElse(null);
            Optional<FileCrashes> crashes = inbox.crashes(file, order.shard().index());
            Checkpoint c;
            if (crashes.isPresent() && crashes.get().exhausted(order.fileId(), maxCrashes)) {
                FileFailedException aside = setAsideReason(order, crashes.get(), from);
                c = ingestion.setAside(order.job(from), aside, session.publisher());
                LOG.error("{} of {} failed: {}", order.shard(), order.name(), aside.getMessage());
            } else {
                LOG.info("ingesting {} of {} (records from {}{})", order.shard(), order.name(),
                        order.shard().firstRecordIndex(), from == null ? "" : ", resuming at record " + from.nextRecordIndex());
                metrics.begin(order.name() + " " + order.shard(), from,
                        from != null && from.resume() != null ? from.resume().byteOffset()
                                : order.shard().start() == null ? 0 : order.shard().start().byteOffset());
                long[] at = {from == null ? order.shard().firstRecordIndex() : from.nextRecordIndex()};
                FileOutcome out;
                try {
                    out = ingestion.ingest(order.job(from), session.publisher(),
                            IngestListener.onCommit(metrics, committed -> at[0] = committed.nextRecordIndex()), stopping);
                } catch (Error e) {
                    countCrash(file, order, at[0], e, crashes);
                    throw e;
                } finally {
                    metrics.shardEnded();
                }
                c = out.checkpoint();
                switch (out.ending()) {
                    case COMPLETED -> LOG.info("{} of {} completed: {}, {}; this run {} s",
                            order.shard(), order.name(), Counted.of(c.records(), "record"),
                            Counted.of(c.deadLetters(), "dead letter"),
                            String.format("%.1f", out.nanos() / 1e9));
                    case FAILED -> LOG.error("{} of {} failed: {}", order.shard(), order.name(), out.failure().getMessage());
                    case STOPPED -> {
                        LOG.info("stopped {} of {} at record {} on request", order.shard(), order.name(),
                                c.nextRecordIndex());
                        return ShardEnd.STOPPED;
                    }
                    default -> throw new IllegalStateException(out.ending().name());
                }
            }
            // Read on from this session's own reading rather than open the file's session after every
            // shard: only the shard that looks like the last pays for it. One whose look missed another's
            // commit leaves the file to the sweep.
            session.checkpoints().committed(c, workerId);
            wait.call(KafkaWait.READING_CHECKPOINTS, session.checkpoints()::refresh);
            return ShardedFiles.endable(order.fileId(), order.shard().count(), session.checkpoints())
                    ? ShardEnd.FILE_MAY_END : ShardEnd.ENDED;
        }
    }

    /**
     * Counts an Error that stops the worker against the shard, beside its file in sharded/ where
     * every worker of the group finds it: a shard that stops every worker it is handed to is set
     * aside after worker.file.max.crashes, instead of stopping the group's workers one after another
     * for ever. A RuntimeException is not counted: the order is retried, as for Kafka trouble, and a
     * passing one (a producer in a bad state, say) must not fail a shard, whose file would then wait
     * to be dropped again.
     */
    private void countCrash(Path file, WorkOrder order, long at, Error e, Optional<FileCrashes> before) {
        if (!Files.exists(file)) {
            return; // the file has ended and left sharded/ meanwhile (this worker paused past its session): nothing to count
        }
        try {
            FileCrashes crashes = FileCrashes.after(before, order.fileId(), at, e);
            inbox.recordCrash(file, order.shard().index(), crashes);
            LOG.error("{} of {} has now stopped a worker {}, this time with its checkpoint at record {}, on {}; {}",
                    order.shard(), order.name(), FileCrashes.times(crashes.count()), at, crashes.last(),
                    crashes.outlook(maxCrashes));
        } catch (RuntimeException | Error counting) {
            e.addSuppressed(counting);
        }
    }

    private static FileFailedException setAsideReason(WorkOrder order, FileCrashes crashes, Checkpoint from) {
        long at = from == null ? order.shard().firstRecordIndex() : from.nextRecordIndex();
        String published = at == order.shard().firstRecordIndex() ? "Nothing of it is published"
                : "Its records before record " + at + " are published";
        return new FileFailedException("set aside: " + order.shard() + " stopped a worker "
                + FileCrashes.times(crashes.count()) + " on an unexpected error, the last time with its checkpoint at "
                + "record " + crashes.at() + ", on " + crashes.last() + ". " + published + "; the file fails once its "
                + "other shards have ended (a fault in xmlingest or in the model's code, or too small a heap: the log "
                + "of the worker it stopped has the stack trace)", new ErrorLocation(order.name(), at, -1, -1,
                from == null || from.resume() == null ? -1 : from.resume().byteOffset()),
                AppSettings.FILE_MAX_CRASHES.key(), null);
    }

    /** Ends the file when this was its last shard to end: one completed (or failed) event, however many look. */
    private void endIfDone(WorkOrder order) {
        FileJob whole = new FileJob(order.path(), order.name(), order.fileId(), order.bytes(), null);
        try (Held held = fileSession(order.fileId(), order.name())) {
            KafkaSession session = held.session();
            Optional<Checkpoint> ended = session.checkpoints().find(order.fileId()).filter(Checkpoint::isFinished);
            if (ended.isPresent()) {
                moveEnded(whole.path(), whole, ended.get(), session.checkpoints()); // ended by a worker that died before moving it
                return;
            }
            end(session, whole, order.shard().count());
        }
    }

    /** Commits the file's ending, if every one of its shards has ended, and moves it out of sharded/. */
    private void end(KafkaSession session, FileJob whole, int shards) {
        if (shards < 1) {
            return;
        }
        Optional<ShardedFiles.Ending> ending = files.ending(whole, shards, session.checkpoints());
        if (ending.isEmpty()) {
            return;
        }
        session.publisher().commit(ending.get().messages());
        Checkpoint c = ending.get().checkpoint();
        LOG.info("{} {}: {}, {} in {}", whole.name(),
                c.state() == FileState.COMPLETED ? "completed" : "failed", Counted.of(c.records(), "record"),
                Counted.of(c.deadLetters(), "dead letter"), Counted.of(shards, "shard"));
        moveEnded(whole.path(), whole, c, session.checkpoints());
    }

    private void moveEnded(Path file, FileJob whole, Checkpoint c, CheckpointStore shards) {
        if (!Files.exists(file)) {
            return;
        }
        Inbox.forgetShardCrashes(file, c.shards());
        boolean completed = c.state() == FileState.COMPLETED;
        int failedShard = -1;
        for (int i = 0; !completed && failedShard < 0 && i < c.shards(); i++) {
            // The first that failed, as the file's failed event names it.
            if (shards.find(Checkpoint.key(whole.fileId(), i)).map(s -> s.state() == FileState.FAILED).orElse(false)) {
                failedShard = i;
            }
        }
        String report = FileReport.ended(whole.name(), whole.fileId(), whole.bytes(), c, failedShard);
        try {
            if (completed) {
                inbox.toDone(file, whole.fileId(), report);
            } else {
                inbox.toFailed(file, whole.fileId(), report);
            }
        } catch (UncheckedIOException e) {
            if (Files.exists(file)) {
                throw e;
            }
            return; // another worker moved it first
        }
        metrics.end(completed ? "completed" : "failed");
    }

    /** The session of a whole file, as opposed to one of its shards: it cuts and ends the file. */
    private Held fileSession(String fileId, String name) {
        return open("xmlingest-" + topics.records() + "-" + fileId, "opening the session of " + name);
    }

    /** Opening a session fences its predecessor and reads the checkpoints on: it waits for Kafka. */
    private Held open(String transactionalId, String what) {
        KafkaSession s = wait.call(what, () -> KafkaSession.open(config, checkpoints, transactionalId, stopping, trouble));
        inHand = s;
        return new Held(s);
    }

    /**
     * A session this worker opened. Closing it waits for Kafka too (the producer's close waits up to
     * 10 s for requests in flight, an abort's among them), and lets the producer, and its buffer,
     * go: the health check no longer holds it.
     */
    private final class Held implements AutoCloseable {
        private final KafkaSession session;

        Held(KafkaSession session) {
            this.session = session;
        }

        KafkaSession session() {
            return session;
        }

        @Override
        public void close() {
            try {
                wait.closing("closing a session", session::close);
            } finally {
                if (inHand == session) {
                    inHand = null;
                }
            }
        }
    }

    private void commitOrder(TopicPartition partition, long offset) {
        wait.call("committing the offset of a work order on " + partition,
                () -> work.commitSync(Map.of(partition, new OffsetAndMetadata(offset + 1))));
        uncommitted.computeIfPresent(partition, (tp, next) -> next <= offset + 1 ? null : next);
    }

    /**
     * Commits the offsets a rebalance refused, of the partitions still assigned here (one that moved
     * on is read again from its last commit by its new owner, who finds its orders answered).
     */
    private void commitRefused() {
        uncommitted.keySet().retainAll(work.assignment());
        if (uncommitted.isEmpty()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        uncommitted.forEach((tp, next) -> offsets.put(tp, new OffsetAndMetadata(next)));
        try {
            wait.call("committing the offsets of work orders after a rebalance", () -> work.commitSync(offsets));
            uncommitted.keySet().removeAll(offsets.keySet());
        } catch (RebalanceInProgressException | CommitFailedException e) {
            // Still rebalancing: the next step tries again.
        }
    }

    /** Whether the worker has read the checkpoints and joined its group, as the first step does. */
    boolean joined() {
        return work != null;
    }

    /**
     * How long the session in hand has waited for a page or commit to be acknowledged; 0 when it is
     * not waiting, or none is open (a closed session's publisher waits for nothing).
     */
    long publisherWaitingNanos() {
        KafkaSession s = inHand;
        return s == null ? 0 : s.publisher().waitingNanos();
    }

    @Override
    public void close() {
        KafkaConsumer<byte[], byte[]> c = work;
        work = null;
        if (c != null) {
            c.close(Duration.ofSeconds(5));
        }
        KafkaCheckpointStore store = checkpoints;
        checkpoints = null;
        if (store != null) {
            store.close();
        }
    }
}
