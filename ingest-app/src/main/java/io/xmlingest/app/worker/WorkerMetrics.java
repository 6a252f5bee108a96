package io.xmlingest.app.worker;

import io.xmlingest.app.http.Counter;
import io.xmlingest.app.http.LabeledCounter;
import io.xmlingest.app.http.Metrics;
import io.xmlingest.core.checkpoint.Checkpoint;
import io.xmlingest.core.error.RecordRejectedException;
import io.xmlingest.core.pipeline.IngestListener;
import io.xmlingest.core.pipeline.PhaseTimes;
import java.util.Locale;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's numbers, fed by the pipeline's commits: Prometheus counters for everything
 * committed, per-phase time, files by outcome, and the progress of the file in hand, which is
 * also logged every so often with a rate and the time left.
 */
final class WorkerMetrics implements IngestListener {

    private static final Logger LOG = LoggerFactory.getLogger(WorkerMetrics.class);
    /** A logger of its own, so an operator can route or silence rejected records apart from progress. */
    private static final Logger DEAD_LETTERS = LoggerFactory.getLogger("io.xmlingest.app.worker.DeadLetters");

    private final Metrics registry = new Metrics();
    private final Counter records = registry.counter("xmlingest_records_total", "Records committed to the record topic.");
    private final Counter deadLetters = registry.counter("xmlingest_dead_letters_total",
            "Rejected records committed to the dead-letter topic.");
    private final Counter pages = registry.counter("xmlingest_pages_total", "Pages of records committed.");
    private final Counter bytes = registry.counter("xmlingest_bytes_read_total", "Bytes of input files read.");
    private final Counter commits = registry.counter("xmlingest_transactions_total", "Kafka transactions committed.");
    private final LabeledCounter files = registry.counter("xmlingest_files_total",
            "Runs over files ended, by outcome: completed, failed, already_ingested, refused, stopped (left for the next start).", "outcome");
    private final LabeledCounter phases = registry.counter("xmlingest_phase_seconds_total",
            "Time spent per phase: identify (hashing, and inflating a compressed file), checkpoints (reading the "
                    + "checkpoint topic to its end), scan, bind, serialize, publish (commit).", "phase");
    private final Counter kafkaFailures = registry.counter("xmlingest_kafka_failures_total",
            "Times the worker lost Kafka: a commit had to be retried, or the session reopened.");
    private final Counter blockedOrders = registry.counter("xmlingest_work_orders_blocked_total",
            "Times a work order was put back because its file could not be read here, or the cut that ordered it "
                    + "was not visible yet (workers sharing files).");
    private final Map<String, Double> progress = new ConcurrentHashMap<>();
    private final long progressIntervalNanos;

    private String file;
    private Checkpoint previous;
    private long bytesAtStart;
    private long bytesCounted;
    private long recordsAtStart;
    private long startedNanos;
    private long lastLog;

    /**
     * @param waiting files in hand that wait for another worker's copy of their content, by name
     * @param stuck files left in the inbox because the worker may not move them, by name
     */
    WorkerMetrics(long progressIntervalMillis, BooleanSupplier kafkaUp, Supplier<Map<String, Double>> waiting,
                  Supplier<Map<String, Double>> stuck) {
        this.progressIntervalNanos = progressIntervalMillis * 1_000_000;
        // Every documented series from the start, at 0: an alert on rate(...{outcome="failed"}) has nothing to work
        // on while a series is absent, and it would be absent until the first failure.
        for (String outcome : List.of("completed", "failed", "already_ingested", "refused", "stopped")) {
            files.labels(outcome);
        }
        for (String phase : List.of("identify", "checkpoints", "scan", "bind", "serialize", "publish")) {
            phases.labels(phase);
        }
        registry.gauge("xmlingest_kafka_up", "1 while the worker has a working Kafka session.",
                () -> kafkaUp.getAsBoolean() ? 1 : 0);
        registry.gauge("xmlingest_file_progress_ratio", "Fraction of the bytes of the file in hand that are read.",
                "file", () -> Map.copyOf(progress));
        // A wait lasts as long as the other worker is away, and publishes nothing meanwhile: without this, only the
        // log told of it.
        registry.gauge("xmlingest_file_waiting", "1 for each file in hand whose content another worker holds: it "
                + "publishes nothing until that worker has finished it.", "file", waiting);
        // Such a file is passed over, with one warning, and tried again every minute: nothing else shows that it
        // has been sitting there for hours.
        registry.gauge("xmlingest_file_stuck", "1 for each file in the inbox the worker may not move to claim it "
                + "(another user's under a sticky bit, or immutable): it is passed over and tried again every minute.",
                "file", stuck);
    }

    Metrics registry() {
        return registry;
    }

    /** A run over a file begins, from {@code from} (null at its start) at {@code bytesAtStart}. */
    void begin(String fileName, Checkpoint from, long bytesAtStart) {
        this.file = fileName;
        this.previous = from;
        this.bytesAtStart = bytesAtStart;
        this.bytesCounted = bytesAtStart;
        this.recordsAtStart = from == null ? 0 : from.records();
        this.startedNanos = System.nanoTime();
        this.lastLog = startedNanos;
        progress.put(fileName, 0.0);
    }

    void end(String outcome) {
        files.labels(outcome).inc();
        if (file != null) {
            progress.remove(file);
        }
        file = null;
    }

    /** A run over a shard is over: the file goes on elsewhere, so it is not counted as ended. */
    void shardEnded() {
        if (file != null) {
            progress.remove(file);
        }
        file = null;
    }

    void identified(long nanos) {
        phases.labels("identify").add(nanos / 1e9);
    }

    /**
     * Time the worker's thread spent reading the checkpoint topic to its end: before each file (another
     * worker may have ingested its content), and, sharing files, at every look for work. With many
     * small files this and the commits are most of a file's time, and both are Kafka's round trips.
     */
    void checkpointsRead(long nanos) {
        phases.labels("checkpoints").add(nanos / 1e9);
    }

    void kafkaLost() {
        kafkaFailures.inc();
    }

    void orderBlocked() {
        blockedOrders.inc();
    }

    @Override
    public void rejected(RecordRejectedException e) {
        DEAD_LETTERS.warn("record rejected, sent to the dead-letter topic: {}", e.getMessage());
    }

    @Override
    public void committed(Checkpoint c, long bytesRead, long fileBytes, PhaseTimes spent) {
        long prevRecords = previous == null ? 0 : previous.records();
        long prevDead = previous == null ? 0 : previous.deadLetters();
        long prevPages = previous == null ? 0 : previous.pages();
        records.inc(c.records() - prevRecords);
        deadLetters.inc(c.deadLetters() - prevDead);
        pages.inc(c.pages() - prevPages);
        commits.inc();
        phases.labels("identify").add(spent.identifyNanos() / 1e9);
        phases.labels("scan").add(spent.scanNanos() / 1e9);
        phases.labels("bind").add(spent.bindNanos() / 1e9);
        phases.labels("serialize").add(spent.serializeNanos() / 1e9);
        phases.labels("publish").add(spent.publishNanos() / 1e9);
        long read = Math.max(0, bytesRead);
        bytes.inc(Math.max(0, read - bytesCounted));
        bytesCounted = Math.max(bytesCounted, read);
        previous = c;
        if (file != null && fileBytes > 0) {
            progress.put(file, Math.min(1.0, (double) read / fileBytes));
        }
        logProgress(c, read, fileBytes);
    }

    private void logProgress(Checkpoint c, long read, long fileBytes) {
        long now = System.nanoTime();
        if (now - lastLog < progressIntervalNanos || fileBytes <= 0 || c.isFinished()) {
            return;
        }
        lastLog = now;
        double seconds = (now - startedNanos) / 1e9;
        double bytesPerSecond = (read - bytesAtStart) / Math.max(seconds, 1e-9);
        double left = bytesPerSecond <= 0 ? Double.NaN : (fileBytes - read) / bytesPerSecond;
        LOG.info(String.format(Locale.ROOT, "%s: %.1f%% of %.1f MB, %d records (record index %d next), %.0f records/s, about %.0f s left",
                c.fileName(), 100.0 * read / fileBytes, fileBytes / 1e6, c.records(), c.nextRecordIndex(),
                (c.records() - recordsAtStart) / Math.max(seconds, 1e-9), left));
    }
}
