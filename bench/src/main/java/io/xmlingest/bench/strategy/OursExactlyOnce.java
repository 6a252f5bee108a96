package io.xmlingest.bench.strategy;

import io.xmlingest.core.pipeline.RecordModel;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.pipeline.FileIdentity;
import io.xmlingest.core.pipeline.FileJob;
import io.xmlingest.core.pipeline.FileOutcome;
import io.xmlingest.core.pipeline.IngestListener;
import io.xmlingest.core.pipeline.IngestionPipeline;
import io.xmlingest.core.pipeline.KafkaSession;
import io.xmlingest.core.pipeline.StepTimes;
import io.xmlingest.core.pipeline.PhaseTimes;
import io.xmlingest.core.pipeline.TransactionalIngestion;
import io.xmlingest.core.publish.TopicNames;
import io.xmlingest.core.split.CompressedInput;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Ours, the worker's exactly-once path: {@link TransactionalIngestion} through a Kafka session into
 * a real broker, through ingest-core's public API only. Opening the session (topics, the
 * transactional producer's initialisation, reading checkpoints) is what a worker does once at
 * start, so it is not timed; hashing the file for its id is what a worker does for every file, so
 * it is timed, and shown as the identify phase.
 *
 * <p>Every run writes to topics and a transactional id of its own, so one run's records or
 * checkpoints can never be mistaken for another's; afterwards {@link ExactlyOnceCheck} reads them
 * back as a read_committed consumer and fails the run unless each record is there exactly once.
 */
final class OursExactlyOnce implements Strategy {

    private static final Duration CHECK_TIMEOUT = Duration.ofMinutes(5);

    private final CompressedInput.Format packing;
    private Path file;
    private RecordModel model;
    private IngestConfig config;
    private TransactionalIngestion ingestion;
    private KafkaSession session;

    OursExactlyOnce() {
        this(null);
    }

    /**
     * @param packing null for the plain file; otherwise read the file compressed so (made once
     *                beside it, untimed), as a worker given a compressed export does: its inflation
     *                into a plain copy is timed with the rest
     */
    OursExactlyOnce(CompressedInput.Format packing) {
        this.packing = packing;
    }

    /** What the worker is given: the file, or its compressed twin beside it. */
    private Path input(Path file) {
        return packing == null ? file
                : file.resolveSibling(file.getFileName() + (packing == CompressedInput.Format.GZIP ? ".gz" : ".zip"));
    }

    @Override
    public void prepare(Path file, Context context) throws Exception {
        this.file = file;
        if (packing != null) {
            Path compressed = input(file);
            if (!Files.exists(compressed)
                    || Files.getLastModifiedTime(compressed).compareTo(Files.getLastModifiedTime(file)) < 0) {
                Path part = compressed.resolveSibling(compressed.getFileName() + ".part");
                try (OutputStream out = compressing(Files.newOutputStream(part), file.getFileName().toString())) {
                    Files.copy(file, out);
                }
                Files.move(part, compressed, StandardCopyOption.ATOMIC_MOVE);
            }
            // A copy from the run before would be taken as made: every run inflates afresh.
            CompressedInput.deleteCopies(compressed);
        }
        if (context.bootstrapServers() == null) {
            throw new IllegalStateException("the exactly-once strategy needs a broker");
        }
        String run = "bench-eos-" + UUID.randomUUID();
        config = IngestConfig.of(IngestSettings.ALL, Map.of(IngestSettings.TOPIC.key(), run,
                IngestSettings.BOOTSTRAP_SERVERS.key(), context.bootstrapServers()));
        if (model == null) {
            // The JAXB model is built once per JVM, as the worker builds it once at start.
            model = IngestionPipeline.model(config);
        }
        ingestion = new TransactionalIngestion(config, model, "bench");
        session = KafkaSession.open(config, ingestion.topics(), run, () -> false, OursExactlyOnce::trouble,
                StepTimes.NONE);
    }

    private OutputStream compressing(OutputStream out, String name) throws java.io.IOException {
        if (packing == CompressedInput.Format.GZIP) {
            return new GZIPOutputStream(out, 1 << 16);
        }
        ZipOutputStream zip = new ZipOutputStream(new java.io.BufferedOutputStream(out, 1 << 16));
        zip.putNextEntry(new ZipEntry(name));
        return zip;
    }

    @Override
    public Outcome run(Path file, Context context) throws Exception {
        Path input = input(file);
        long t0 = System.nanoTime();
        // As the worker identifies a file: a compressed one by its content, inflated on the way.
        String fileId = FileIdentity.ofContent(input, input.getFileName().toString(),
                config.get(IngestSettings.DECOMPRESSED_MAX_BYTES), () -> false);
        long identify = System.nanoTime() - t0;
        FileJob job = new FileJob(input, input.getFileName().toString(), fileId, Files.size(input), null);
        FileOutcome out = ingestion.ingest(job, session.publisher(),
                IngestListener.onCommit(IngestListener.NONE, checkpoint -> context.progress().accept(checkpoint.records())),
                () -> false);
        if (out.ending() != FileOutcome.Ending.COMPLETED) {
            throw new IllegalStateException(file + " ended " + out.ending() + " after " + out.checkpoint().records()
                    + " records" + (out.failure() == null ? "" : ": " + out.failure().getMessage()), out.failure());
        }
        PhaseTimes p = out.phases();
        return new Outcome(out.checkpoint().records(), out.checkpoint().pages(),
                new PhaseTimes(identify + p.identifyNanos(), p.scanNanos(), p.bindNanos(), p.serializeNanos(), p.publishNanos()));
    }

    @Override
    public Optional<String> verify(Path file, Context context, Outcome outcome) {
        ExactlyOnceCheck.Tally tally = ExactlyOnceCheck.readSettled(config, ingestion.topics(), context.expectedRecords(),
                CHECK_TIMEOUT);
        List<String> problems = tally.problems(context.expectedRecords());
        if (!problems.isEmpty()) {
            throw new IllegalStateException("exactly-once check failed for " + file.getFileName() + " in topic "
                    + ingestion.topics().records() + ": " + String.join("; ", problems));
        }
        return Optional.of(tally.summary());
    }

    /** The current run's topics. */
    TopicNames topics() {
        return ingestion.topics();
    }

    @Override
    public void cleanUp() {
        if (packing != null && file != null) {
            try {
                CompressedInput.deleteCopies(input(file));
            } catch (java.io.IOException e) {
                System.err.println("could not delete the inflated copy beside " + input(file) + ": " + e);
            }
        }
        if (session != null) {
            session.close();
            session = null;
        }
    }

    private static void trouble(String why) {
        // A commit retried while Kafka is away would make the figure meaningless; say so where the bench keeps stderr.
        if (why != null) {
            System.err.println("commit retried: " + why);
        }
    }
}
