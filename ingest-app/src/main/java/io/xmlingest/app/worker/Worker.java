package io.xmlingest.app.worker;

import io.xmlingest.core.pipeline.RecordModel;
import io.xmlingest.app.AppSettings;
import io.xmlingest.app.http.Health;
import io.xmlingest.app.kafka.KafkaAuthentication;
import io.xmlingest.app.kafka.KafkaClientMisconfiguration;
import io.xmlingest.core.checkpoint.Checkpoint;
import io.xmlingest.core.checkpoint.FileState;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.Causes;
import io.xmlingest.core.error.ConfigException;
import io.xmlingest.core.error.FileFailedException;
import io.xmlingest.core.error.RetriableIngestException;
import io.xmlingest.core.pipeline.FileIdentity;
import io.xmlingest.core.pipeline.FileJob;
import io.xmlingest.core.pipeline.FileOutcome;
import io.xmlingest.core.pipeline.IngestListener;
import io.xmlingest.core.pipeline.IngestionPipeline;
import io.xmlingest.core.pipeline.KafkaSession;
import io.xmlingest.core.pipeline.PassedOver;
import io.xmlingest.core.pipeline.TransactionalIngestion;
import io.xmlingest.core.publish.TopicNames;
import io.xmlingest.core.split.RecordElements;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The long-lived worker: takes complete files from the inbox one at a time and ingests each
 * exactly once, resuming its own unfinished files first. Kafka trouble never loses or repeats a
 * record and never ends the worker: it closes its session, waits (doubling up to a limit),
 * reopens, and resumes the file in hand from its last checkpoint.
 */
public final class Worker implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(Worker.class);
    private static final long FIRST_BACKOFF_MS = 500;
    // How long a session may take to open, or a page or commit to be acknowledged, before the worker says it
    // is waiting for Kafka.
    private static final long SLOW_KAFKA_NANOS = TimeUnit.SECONDS.toNanos(5);
    // A worker with no file sends Kafka nothing, and /health would say Kafka is up for as long as the
    // inbox stays empty, outage or not: it asks this often, and reports Kafka away after this long unanswered.
    private static final long IDLE_PING_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final Duration IDLE_PING_TIMEOUT = Duration.ofSeconds(5);

    private final IngestConfig config;
    private final Supplier<RecordModel> model;
    /** The model's record elements, as a file that held none, or passed over other elements, is told. */
    private RecordElements recordElements;
    private final TopicNames topics;
    private final Inbox inbox;
    private final String workerId;
    private final long pollMillis;
    private final long maxBackoffMillis;
    private final WorkerMetrics metrics;
    private final StartupTimeline startup;
    private final ClaimIdentity identities;
    private final CompletedRetention retention;
    private final int maxCrashes;
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);

    private TransactionalIngestion ingestion;
    /**
     * The claimed file in hand, its file id once known (else ""), and its next record index as of
     * its last commit (else -1): what an error that stops the worker is counted against (see
     * FileCrashes). Null between files. Only the worker's thread uses them.
     */
    private Path inHand;
    /**
     * Claimed files whose content another worker holds, by their file id: taken up once it has let go.
     * Concurrent: the metrics endpoint reads it.
     */
    private final Map<Path, String> waiting = new ConcurrentHashMap<>();
    /**
     * Identities of claimed files not recorded beside them yet (a full disk, say), until the file is done
     * with: a try again after such a failure hashes nothing again. Only the worker's thread uses it.
     */
    private final Map<Path, RecordedIdentity> unrecorded = new HashMap<>();
    /** Finished files whose move out of the inbox was said and has not gone through yet (a folder not writable). */
    private final java.util.Set<Path> movesSaid = new java.util.HashSet<>();
    private String inHandId = "";
    private long inHandAt = -1;
    private volatile KafkaSession session;
    /** The first session, once {@link #startOpening()} began it; taken by {@link #run()}. Guarded by this. */
    private CompletableFuture<KafkaSession> openedAhead;
    /**
     * Opened by {@link #run()}, or by {@link #abandon()} with {@code abandoned} set: a session opened
     * ahead waits here before it fences the id's holder, which may be a live worker that this start,
     * a mistaken second one, would otherwise disturb before it found its HTTP port taken.
     */
    private final CountDownLatch mayFence = new CountDownLatch(1);
    private volatile boolean abandoned;
    /** The worker's part in a group sharing the work, when work.shards &gt; 0; else null. */
    private volatile SharedWork shared;
    private volatile boolean sharedConnected;
    /**
     * What this worker is waiting for Kafka to answer, besides a page or commit. Any answer connects
     * a sharing worker that has joined its group: a shard ingested after a failure takes minutes,
     * and the worker would say Kafka is down until its end.
     */
    private final KafkaWait kafkaWait = new KafkaWait(() -> {
        SharedWork sharing = shared;
        if (sharing != null && sharing.joined()) {
            sharedConnected = true;
        }
    }, this::tookKafka);
    private volatile String kafkaProblem = "not connected yet";
    private volatile String commitTrouble;
    /** Started with the worker's run; null before. */
    private volatile MissingTopics missingTopics;
    private volatile String fatal;
    /** When Kafka last answered this worker's session, or was last asked while idle, as System.nanoTime. */
    private long lastAnswer;
    /** Why Kafka is taken to be away while the worker is idle: its last check went unanswered; else null. */
    private volatile String idleTrouble;
    // Why the inbox cannot be listed, while it cannot: the health check's answer, and the warning told once.
    private volatile String inboxProblem;

    public Worker(IngestConfig config, RecordModel model, Path inboxDir, String workerId) {
        this(config, () -> model, inboxDir, workerId, StartupTimeline.unwatched());
    }

    /**
     * @param model   the record model, asked for once the worker runs; it may still be in the making
     * @param startup told where the start-up's time goes, up to the first commit
     */
    public Worker(IngestConfig config, Supplier<RecordModel> model, Path inboxDir, String workerId,
                  StartupTimeline startup) {
        this(config, model, inboxDir, workerId, startup, Clock.systemUTC());
    }

    /** @param clock what worker.completed.retention.ms is measured against; tests move it on */
    Worker(IngestConfig config, Supplier<RecordModel> model, Path inboxDir, String workerId, StartupTimeline startup,
           Clock clock) {
        this.config = config;
        this.model = model;
        this.topics = TopicNames.of(config);
        this.retention = new CompletedRetention(config, topics.checkpoints(), clock);
        this.startup = startup;
        this.workerId = workerId;
        this.inbox = new Inbox(inboxDir, workerId, config.get(AppSettings.INBOX_SETTLE_MS), Clock.systemUTC());
        this.pollMillis = config.get(AppSettings.INBOX_POLL_MS);
        this.maxBackoffMillis = config.get(AppSettings.RETRY_MAX_BACKOFF_MS);
        this.maxCrashes = config.get(AppSettings.FILE_MAX_CRASHES);
        this.metrics = new WorkerMetrics(config.get(AppSettings.PROGRESS_INTERVAL_MS), this::kafkaUp,
                () -> waiting.keySet().stream().collect(Collectors.toMap(p -> p.getFileName().toString(), p -> 1.0,
                        (x, y) -> x)),
                () -> inbox.stuck().stream().collect(Collectors.toMap(name -> name, name -> 1.0)));
        long decompressedMaxBytes = config.get(IngestSettings.DECOMPRESSED_MAX_BYTES);
        this.identities = new ClaimIdentity((file, bytes) -> FileIdentity.ofContent(file, file.getFileName().toString(),
                decompressedMaxBytes, this::stopping, bytes));
    }

    /**
     * What the worker's settings must be together, checked at once: the topics, one per use;
     * commit.interval.ms against the transaction timeout; the work topic apart from the others.
     *
     * @throws ConfigException naming the setting
     */
    public static void checkSettings(IngestConfig config) {
        SharedWork.checkWorkTopic(config, TransactionalIngestion.checkSettings(config));
    }

    public io.xmlingest.app.http.Metrics metrics() {
        return metrics.registry();
    }

    /** Whether Kafka works for this worker: the same answer for the health check and the metric. */
    private boolean kafkaUp() {
        return (session != null || sharedConnected) && kafkaTrouble() == null;
    }

    /**
     * Why Kafka is not answering the open session, or null: a commit being retried, or a page,
     * commit or other call waiting longer than SLOW_KAFKA_NANOS (a commit's own timeout takes 30 s
     * to say so, a read of the checkpoints topic.ready.timeout.ms).
     */
    private String kafkaTrouble() {
        String trouble = waitingTrouble();
        MissingTopics topicCheck = missingTopics;
        List<String> gone = trouble == null || topicCheck == null ? List.of() : topicCheck.missing();
        return gone.isEmpty() ? trouble : trouble + " (" + MissingTopics.describe(gone) + ", though Kafka answers)";
    }

    /** As {@link #kafkaTrouble}, without what the topic check found. */
    private String waitingTrouble() {
        String trouble = commitTrouble != null ? commitTrouble : idleTrouble;
        if (trouble != null) {
            return trouble;
        }
        KafkaSession s = session;
        SharedWork sharing = shared;
        long waiting = s != null ? s.publisher().waitingNanos() : sharing != null ? sharing.publisherWaitingNanos() : 0;
        if (waiting >= SLOW_KAFKA_NANOS) {
            return kafkaAt() + " has not acknowledged a page or commit for " + TimeUnit.NANOSECONDS.toSeconds(waiting) + " s";
        }
        String unanswered = kafkaWait.unansweredFor(SLOW_KAFKA_NANOS);
        return unanswered == null ? null : kafkaAt() + " " + unanswered;
    }

    public Health health() {
        Map<String, String> checks = new LinkedHashMap<>();
        String trouble = kafkaTrouble();
        boolean connected = session != null || sharedConnected;
        boolean kafkaUp = connected && trouble == null;
        // Unconnected, a call in progress says more than the failure before it (a sharing worker's calls are named).
        String unanswered = connected ? null : kafkaWait.unansweredFor(SLOW_KAFKA_NANOS);
        checks.put("kafka", kafkaUp ? "UP" : "DOWN: " + (connected ? trouble
                : unanswered != null ? kafkaAt() + " " + unanswered : kafkaProblem));
        String away = inboxProblem;
        if (away == null && !Files.isDirectory(inbox.dir())) {
            away = inbox.dir() + " is not a directory";
        } else if (away == null && !(Files.isReadable(inbox.dir()) && Files.isWritable(inbox.dir()))) {
            // Found at once, where a file in hand would find it only as it moved on.
            away = inbox.dir() + " cannot be read and written by this worker (permission denied)";
        }
        boolean inboxUp = away == null;
        checks.put("inbox", inboxUp ? "UP" : "DOWN: " + away);
        checks.put("worker", fatal == null ? "UP" : "DOWN: " + fatal);
        boolean live = fatal == null && stopped.getCount() > 0;
        return new Health(live, live && kafkaUp && inboxUp, checks);
    }

    /**
     * Said once what failed has worked: the inbox listed with nothing to take, or a file taken through
     * to its end. Not as soon as the folders are there again, which a full disk, say, leaves them.
     */
    private void inboxWorksAgain() {
        if (inboxProblem != null) {
            LOG.info("the inbox {} works again; files are taken again", inbox.dir().toAbsolutePath());
            inboxProblem = null;
        }
    }

    /** A look at an inbox that is away costs a stat: a second between looks, or the poll interval if longer. */
    private long inboxRetryMillis() {
        return Math.max(pollMillis, 1000);
    }

    /** Asks the worker to stop: it takes no new file and stops the one in hand at its next commit. */
    public void requestStop() {
        stopRequested.countDown();
    }

    public boolean awaitStopped(long millis) throws InterruptedException {
        return stopped.await(millis, TimeUnit.MILLISECONDS);
    }

    private boolean stopping() {
        return stopRequested.getCount() == 0;
    }

    /**
     * Begins opening the Kafka session now, for a {@link #run()} that follows: what the caller still
     * does before it (starting the HTTP endpoints) then no longer delays a restart's first commit. A
     * caller that will not run the worker after all must {@link #abandon()} it. Nothing for a worker
     * sharing files, which opens a session per shard.
     */
    public synchronized void startOpening() {
        if (openedAhead == null && config.get(AppSettings.WORK_SHARDS) == 0) {
            openedAhead = Background.start("xmlingest-kafka-open", this::openSession);
        }
    }

    /**
     * Closes what {@link #startOpening()} opened, for a worker that will not run; nothing once
     * {@link #run()} has taken it.
     */
    public synchronized void abandon() {
        if (openedAhead != null) {
            abandoned = true;
            mayFence.countDown();
            openedAhead.thenAccept(KafkaSession::close);
            openedAhead = null;
        }
    }

    @Override
    public void run() {
        LOG.info("worker {} watching {} for files; records go to {}, dead letters to {}, status events to {}, "
                        + "checkpoints to {}", workerId, inbox.dir().toAbsolutePath(), String.join(", ", topics.recordTopics()),
                topics.deadLetters(), topics.status(), topics.checkpoints());
        // Opening the session and building the record model each take a good part of a restart, and
        // neither needs the other. A bad model still stops the worker at once: it is awaited here, not Kafka.
        boolean sharing = config.get(AppSettings.WORK_SHARDS) > 0;
        startOpening();
        CompletableFuture<KafkaSession> firstSession;
        synchronized (this) {
            firstSession = openedAhead;
            openedAhead = null;
            mayFence.countDown();
        }
        long backoff = FIRST_BACKOFF_MS;
        try {
            RecordModel records = model.get();
            recordElements = records.elements();
            ingestion = new TransactionalIngestion(config, records, workerId);
            missingTopics = new MissingTopics(config, topics.all(), () -> waitingTrouble() != null).start();
            if (sharing) {
                shared = new SharedWork(config, records, ingestion, inbox, workerId, metrics, this::stopping,
                        this::commitTrouble, retention, kafkaWait);
            }
            while (!stopping()) {
                boolean fileInHand = false;
                try {
                    if (inboxProblem != null) {
                        inbox.prepareAgain();
                    }
                    if (shared != null) {
                        shared.step(pollMillis);
                        inboxWorksAgain();
                        sharedConnected = true;
                        backoff = FIRST_BACKOFF_MS;
                        continue;
                    }
                    if (session == null) {
                        CompletableFuture<KafkaSession> opening = firstSession != null ? firstSession
                                : Background.start("xmlingest-kafka-open", this::openSession);
                        firstSession = null;
                        session = openedUnlessStopped(opening);
                        if (session == null) {
                            continue;
                        }
                        LOG.info("connected to Kafka; checkpoints read ({} s after the JVM's launch)",
                                String.format("%.2f", startup.secondsSinceLaunch()));
                        lastAnswer = System.nanoTime();
                        session.checkpoints().onProgress(kafkaWait::progress);
                    }
                    // Not while Kafka leaves the idle worker's check unanswered: a claimed file would be held here until
                    // Kafka answers, where another worker of the inbox might have ingested it meanwhile.
                    Optional<Path> next = inbox.unfinished().stream().filter(this::notWaiting).findFirst()
                            .or(() -> idleTrouble == null ? inbox.claimNext() : Optional.empty());
                    if (next.isEmpty()) {
                        inboxWorksAgain();
                        forgetOldFiles();
                        pingWhileIdle();
                        pause(pollMillis);
                        continue;
                    }
                    fileInHand = true;
                    inHand = next.get();
                    inHandId = "";
                    inHandAt = -1;
                    process(next.get());
                    unrecorded.remove(next.get());
                    inboxWorksAgain();
                    inHand = null;
                    lastAnswer = System.nanoTime();
                    idleTrouble = null;
                    backoff = FIRST_BACKOFF_MS;
                    // Between files, not before the first: a restart resumes its file before anything else.
                    forgetOldFiles();
                } catch (InboxUnavailableException e) {
                    inHand = null; // the file system's trouble, not the file's: a file in hand is taken up again
                    if (!e.getMessage().equals(inboxProblem)) {
                        LOG.warn("{}; the worker is not ready and takes no file until it can, looking again every {} ms",
                                e.getMessage(), inboxRetryMillis());
                    }
                    inboxProblem = e.getMessage();
                    pause(inboxRetryMillis());
                    continue;
                } catch (WorkOrderBlockedException e) {
                    // Kafka is fine (it handed the order out): only this order waits, and Kafka is not reported down.
                    sharedConnected = true;
                    metrics.orderBlocked();
                    LOG.warn("{}; trying again in {} ms", e.getMessage(), backoff);
                    pause(backoff);
                    backoff = Math.min(maxBackoffMillis, backoff * 2);
                } catch (RetriableIngestException | KafkaException e) {
                    inHand = null; // Kafka's trouble, not the file's: the file is taken up again in this run
                    Optional<ConfigException> misconfigured = KafkaClientMisconfiguration.find(e);
                    if (misconfigured.isPresent()) {
                        // The settings are read once, at start: no retry can mend them.
                        throw misconfigured.get();
                    }
                    String aborted = abortedBy(e);
                    kafkaProblem = aborted != null ? aborted : e.getMessage();
                    metrics.kafkaLost();
                    closeSession();
                    sharedConnected = false;
                    Optional<AuthenticationException> refused = KafkaAuthentication.refusal(e);
                    if (refused.isPresent()) {
                        // Not fatal: credentials are rotated on the cluster and in the worker's settings in turn.
                        kafkaProblem = KafkaAuthentication.describe(refused.get());
                        LOG.warn("{}; trying again in {} ms", kafkaProblem, backoff);
                    } else if (aborted != null) {
                        // Kafka is there, and ended this worker's transaction itself.
                        LOG.warn("{}; nothing is lost, the file in hand resumes from its last checkpoint; trying again "
                                + "in {} ms", kafkaProblem, backoff);
                    } else if (fileInHand) {
                        LOG.warn("Kafka is unavailable ({}); nothing is lost, the file in hand resumes from its last "
                                + "checkpoint; trying again in {} ms", e.getMessage(), backoff);
                    } else {
                        LOG.warn("Kafka is unavailable ({}); trying again in {} ms", e.getMessage(), backoff);
                    }
                    pause(backoff);
                    backoff = Math.min(maxBackoffMillis, backoff * 2);
                }
            }
        } catch (ConfigException e) {
            fatal = e.getMessage();
            throw e;
        } catch (RuntimeException | Error e) {
            fatal = e.toString();
            LOG.error("the worker stopped on an unexpected error", e);
            countCrash(e);
            throw e;
        } finally {
            try {
                if (firstSession != null) {
                    firstSession.thenAccept(KafkaSession::close);
                }
                if (missingTopics != null) {
                    missingTopics.close(); // first: closing the session may fail
                }
                closeSession();
                if (shared != null) {
                    shared.close();
                }
            } finally {
                // Even when closing failed: a stop waiting for this would otherwise wait out its whole timeout.
                stopped.countDown();
                LOG.info("worker {} stopped", workerId);
            }
        }
    }

    /**
     * Asks Kafka for an answer when none came for IDLE_PING_NANOS. No answer is reported (health,
     * metric, log) but keeps the session: a pause of a few seconds (a collection, a leader moving)
     * must not cost a new producer and a re-read of every checkpoint, and a file taken meanwhile
     * finds out for itself whether Kafka is back.
     */
    private void pingWhileIdle() {
        if (System.nanoTime() - lastAnswer < IDLE_PING_NANOS) {
            return;
        }
        try {
            session.ping(IDLE_PING_TIMEOUT);
            if (idleTrouble != null) {
                LOG.info("Kafka answers again");
                idleTrouble = null;
            }
        } catch (RetriableIngestException e) {
            if (idleTrouble == null) {
                idleTrouble = kafkaAt() + " did not answer the idle worker's check within "
                        + IDLE_PING_TIMEOUT.toSeconds() + " s";
                metrics.kafkaLost();
                LOG.warn("{}; asking again every {} s", idleTrouble, TimeUnit.NANOSECONDS.toSeconds(IDLE_PING_NANOS));
            }
        }
        lastAnswer = System.nanoTime();
    }

    private String kafkaAt() {
        return "Kafka at " + config.get(IngestSettings.BOOTSTRAP_SERVERS);
    }

    private void forgetOldFiles() {
        List<String> keys = kafkaWait.call(KafkaWait.READING_CHECKPOINTS, () -> retention.due(session.checkpoints(), inbox));
        if (!keys.isEmpty()) {
            retention.delete(keys, session.checkpoints(), session.publisher());
        }
    }

    /**
     * The session once open, or null when a stop is asked for first. Opening waits for Kafka up to
     * topic.ready.timeout.ms (60 s by default), and no file is in hand meanwhile: a stop need not
     * wait for it, and used to run out worker.shutdown.timeout.ms and exit 143 while Kafka was down.
     */
    private KafkaSession openedUnlessStopped(CompletableFuture<KafkaSession> opening) {
        long since = System.nanoTime();
        boolean said = false;
        try {
            while (!opening.isDone()) {
                if (stopRequested.await(100, TimeUnit.MILLISECONDS)) {
                    opening.thenAccept(KafkaSession::close);
                    return null;
                }
                if (!said && System.nanoTime() - since >= SLOW_KAFKA_NANOS) {
                    // An attempt gives up only after topic.ready.timeout.ms (a minute by default): say at once why
                    // files are not being taken, rather than be silent until then.
                    said = true;
                    String where = config.get(IngestSettings.BOOTSTRAP_SERVERS);
                    kafkaProblem = "waiting for Kafka at " + where + ", which has not answered yet";
                    LOG.warn("no answer from Kafka at {} after {} s; files wait in the inbox until it answers (this "
                                    + "attempt gives up after {} = {} ms, and the worker tries again)", where,
                            TimeUnit.NANOSECONDS.toSeconds(SLOW_KAFKA_NANOS), IngestSettings.TOPIC_READY_TIMEOUT_MS.key(),
                            config.get(IngestSettings.TOPIC_READY_TIMEOUT_MS));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopRequested.countDown();
            opening.thenAccept(KafkaSession::close);
            return null;
        }
        return Background.await(opening);
    }

    private KafkaSession openSession() {
        return KafkaSession.open(config, topics, "xmlingest-" + workerId, this::stopping, this::commitTrouble, startup,
                this::awaitMayFence);
    }

    private void awaitMayFence() {
        try {
            mayFence.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RetriableIngestException("interrupted while opening the Kafka session", null, null, e);
        }
        if (abandoned) {
            throw new RetriableIngestException("the worker did not start, so its Kafka session is not opened", null,
                    null, null);
        }
    }

    /**
     * Why Kafka itself ended this worker's transaction, or null when it did not. Another producer that takes the
     * transactional id (the worker.id) fences this one, which shows as a fenced or old epoch, or, when it aborts a
     * commit in flight, as an invalid transaction state; so may a transaction that outlived its timeout.
     */
    private String abortedBy(Throwable e) {
        String second = "is a second worker running with worker.id=" + workerId + "? Each worker needs its own";
        if (Causes.find(e, t -> t instanceof ProducerFencedException || t instanceof InvalidProducerEpochException)
                != null) {
            // Kafka also bumps the epoch of a transaction it aborts for outliving its timeout, as after a broker was
            // away longer than that: the same exception, with no second worker anywhere.
            return "fenced by another producer with this worker's transactional id: " + second
                    + " (or this worker's previous run is still alive). Or Kafka aborted the open transaction for "
                    + "outliving " + IngestSettings.TRANSACTION_TIMEOUT_MS.key() + ", as after a broker away longer "
                    + "than that";
        }
        if (Causes.find(e, InvalidTxnStateException.class::isInstance) != null) {
            return "Kafka aborted this worker's transaction: another producer took its transactional id (" + second
                    + "), or the transaction outlived " + IngestSettings.TRANSACTION_TIMEOUT_MS.key();
        }
        return null;
    }

    /** False for a claimed file waiting for another worker's copy of its content (see {@link #waiting}). */
    private boolean notWaiting(Path claimed) {
        String fileId = waiting.get(claimed);
        return fileId == null || inbox.heldElsewhere(claimed, fileId).isEmpty();
    }

    /**
     * Once the copy this one waited for has left processing/, its content's end is committed, but a
     * commit is visible to other readers only once Kafka has written its markers, just after: read
     * on until it shows, for a while (a copy taken away by hand ends nothing).
     */
    private void awaitEnded(String fileId) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            kafkaWait.call(KafkaWait.READING_CHECKPOINTS, session.checkpoints()::refresh);
            if (session.checkpoints().find(fileId).map(Checkpoint::isFinished).orElse(false)) {
                return;
            }
            pause(100);
        }
    }

    private void tookKafka(String what, long nanos) {
        if (what.equals(KafkaWait.READING_CHECKPOINTS)) {
            metrics.checkpointsRead(nanos);
        }
    }

    private void process(Path claimed) {
        String name = claimed.getFileName().toString();
        long size = Inbox.size(claimed);
        Optional<FileCrashes> crashes = inbox.crashes(claimed);
        if (crashes.isPresent() && crashes.get().exhausted("", maxCrashes)) {
            // It stopped the worker before its content was known (hashing or inflating it): no file id to key an event by.
            finishFailed(claimed, name, null, size, null, setAsideReason(name, crashes.get(), false, null), null,
                    "failed");
            return;
        }
        long t0 = System.nanoTime();
        Optional<RecordedIdentity> recorded = inbox.recordedIdentity(claimed);
        RecordedIdentity identity;
        try {
            // A claim whose identity could not be recorded (a full disk) is not hashed again at every look.
            Optional<RecordedIdentity> known = recorded.isPresent() ? recorded
                    : Optional.ofNullable(unrecorded.get(claimed));
            identity = identities.identify(claimed, known);
        } catch (FileFailedException e) {
            finishFailed(claimed, name, null, size, null, e, null, "failed");
            return;
        }
        if (identity == null) {
            // Stopped while a compressed file was inflated for its identity: nothing of it is published yet.
            LOG.info("stopped {} on request while inflating it; the next start takes it up again", name);
            metrics.end("stopped");
            return;
        }
        String fileId = identity.sha256();
        inHandId = fileId;
        if (identity.size() >= 0) {
            // What the identity covers, and all that is read of the file: one still being written has grown since.
            size = identity.size();
        }
        if (recorded.isEmpty()) {
            unrecorded.put(claimed, identity); // until it is recorded beside the file, or the file is done with
        }
        long identified = System.nanoTime();
        metrics.identified(identified - t0);
        startup.took("identify", t0, identified);
        // Two workers on one inbox, each with a copy of one content: each would take the checkpoint (none yet, or
        // the other's in progress) for its own and publish the content again.
        Optional<Path> first = inbox.holdContent(claimed, fileId);
        if (first.isPresent()) {
            if (waiting.put(claimed, fileId) == null) {
                LOG.info("{} has the content of {} (file id {}), which worker {} took first: it waits, publishing "
                        + "nothing, until that one has left {}", name, first.get().getFileName(), fileId,
                        first.get().getParent().getFileName(), first.get().getParent());
            }
            return;
        }
        if (waiting.remove(claimed) != null) {
            awaitEnded(fileId);
        }
        if (recorded.isPresent() && !recorded.get().sha256().equals(fileId)) {
            String was = recorded.get().sha256();
            Checkpoint old = session.checkpoints().find(was).orElse(null);
            String committed = old == null ? "" : "; " + Counted.of(old.records(), "record") + " of the old content "
                    + (old.records() == 1 ? "was" : "were") + " committed"
                    + (old.isFinished() ? "" : ", and its file id now has a failed event");
            FileFailedException refused = new FileFailedException("the file changed since its ingestion began (it was "
                    + was + ", it is now " + fileId + "); a changed file is never resumed, since that would mix "
                    + "two files. Drop it into the inbox again to ingest it as a new file" + committed,
                    io.xmlingest.core.error.ErrorLocation.ofFile(name), null, null);
            if (old != null && !old.isFinished()) {
                // Whoever waits for the old content's completed event would otherwise wait for ever.
                session.checkpoints().committed(ingestion.abandon(old, refused, session.publisher()), workerId);
            }
            // The report is of the file in hand, the new content, of which nothing was published.
            finishFailed(claimed, name, fileId, size, null, refused, null, "refused");
            return;
        }
        // Another worker may have ingested this content since this one last looked.
        kafkaWait.call(KafkaWait.READING_CHECKPOINTS,
                () -> startup.time("checkpoints again", session.checkpoints()::refresh));
        Checkpoint from = session.checkpoints().find(fileId).orElse(null);
        inHandAt = from == null ? 0 : from.nextRecordIndex();
        if (from != null && from.isFinished() && recorded.isPresent()) {
            // This worker finished the file and died, or could not write the folder, before moving it: only the move is
            // left to do.
            boolean completed = from.state() == FileState.COMPLETED;
            // Said once: while the folder cannot be written, this is tried again every second (the inbox warns once).
            if (movesSaid.add(claimed)) {
                LOG.info("{} was {} before but not moved out of the inbox; moving it", name,
                        completed ? "completed" : "failed");
            }
            String report = FileReport.ended(name, fileId, size, from);
            if (completed) {
                inbox.toDone(claimed, fileId, report);
            } else {
                inbox.toFailed(claimed, fileId, report);
            }
            movesSaid.remove(claimed);
            metrics.end(completed ? "completed" : "failed");
            return;
        }
        // Completed with not one record: mostly a record.element that matched nothing in it. Nothing of it was published,
        // so reading it again can publish nothing twice, and after the setting is fixed it publishes what the first run
        // could not see; taken for ingested, the same file dropped again after the fix published nothing.
        boolean heldNothing = from != null && from.completedEmpty() && from.shards() == 0;
        if (heldNothing) {
            LOG.info("{} has the content of {} (file id {}), which completed with no record: reading it again, in case "
                    + "{} has changed since", name, from.fileName(), fileId, IngestSettings.RECORD_ELEMENT.key());
        }
        if (from != null && from.state() == FileState.COMPLETED && !heldNothing) {
            LOG.info("{} is already ingested (file id {}, {}): nothing published", name, fileId,
                    Counted.of(from.records(), "record"));
            inbox.toDone(claimed, fileId, FileReport.alreadyIngested(name, fileId, size, from));
            metrics.end("already_ingested");
            return;
        }
        if (from != null && from.shards() > 0) {
            // Its progress is in its shards' checkpoints, which a whole file's run never reads: resumed from the file's
            // own, it skipped what a failed shard left out and called the file completed, and one of a running cut
            // would publish records its shards publish too.
            FileFailedException refused = new FileFailedException("this content was cut into " + from.shards()
                    + " shards by workers sharing files (" + AppSettings.WORK_SHARDS.key() + " > 0), and "
                    + (from.isFinished() ? "failed there: drop it into their inbox, where its failed shards are taken "
                    + "up again; a worker ingesting whole files would call it completed without the records they left out"
                    : "is under way there: a worker ingesting whole files would publish its records a second time"),
                    io.xmlingest.core.error.ErrorLocation.ofFile(name), AppSettings.WORK_SHARDS.key(), null);
            finishFailed(claimed, name, fileId, size, from, refused, null, "refused");
            return;
        }
        if (crashes.isPresent() && crashes.get().exhausted(fileId, maxCrashes)) {
            setAside(claimed, name, fileId, size, from, crashes.get());
            return;
        }
        if (from != null && (from.state() == FileState.FAILED || heldNothing)) {
            // Dropped again after it failed: it resumes where it failed (one that held nothing, at its start). Marked
            // in progress first, and before its identity is recorded, so that a stop before this run's first commit is
            // not taken for this run's end (a finished checkpoint and a recorded identity), which moved the file on
            // untried.
            from = ingestion.reopen(from, session.publisher());
            session.checkpoints().committed(from, workerId);
        }
        if (!recorded.equals(Optional.of(identity))) {
            // New, or hashed again after a touch that left the content as it was: the next restart can trust it.
            inbox.recordIdentity(claimed, identity);
        }
        long resumeAt = from == null || from.resume() == null ? 0 : from.resume().byteOffset();
        if (from == null) {
            LOG.info("ingesting {} ({} bytes, file id {})", name, size, fileId);
        } else {
            // After a fault the position kept is the last record start read before it: that record is skipped, not
            // published again.
            long readFrom = from.resume() == null ? 0 : from.resume().recordIndex();
            LOG.info("resuming {} at record {} (reading from byte offset {}, {}), {} committed before", name,
                    from.nextRecordIndex(), resumeAt, readFrom == from.nextRecordIndex() ? "where it starts"
                            : "where record " + readFrom + " starts", Counted.of(from.records(), "record"));
        }
        metrics.begin(name, from, resumeAt);
        // Where each commit left the file in hand: a crash is counted against it.
        IngestListener listener = IngestListener.onCommit(startup.untilFirstCommit("first page", System.nanoTime(),
                metrics), c -> inHandAt = c.nextRecordIndex());
        FileOutcome outcome;
        try {
            outcome = ingestion.ingest(new FileJob(claimed, name, fileId, size, from), session.publisher(), listener,
                    this::stopping);
        } catch (FileFailedException e) {
            // Not even the failure could be committed; the file's last checkpoint still says where it stands.
            finishFailed(claimed, name, fileId, size, session.checkpoints().find(fileId).orElse(from), e, null, "failed");
            return;
        }
        session.checkpoints().committed(outcome.checkpoint(), workerId);
        Checkpoint c = outcome.checkpoint();
        switch (outcome.ending()) {
            case COMPLETED -> {
                // What it passed over beside its records is logged as the run ends; the report keeps it too.
                String note = PassedOver.describe(recordElements, outcome.passedOver());
                if (c.completedEmpty()) {
                    String empty = FileReport.heldNoRecord("it holds no " + recordElements + " element");
                    LOG.warn("{} completed with no record: {}", name, empty);
                    note = note == null ? empty : empty + "; " + note;
                } else {
                    LOG.info("{} completed: {}, {}, {}; this run {} s", name, Counted.of(c.records(), "record"),
                            Counted.of(c.deadLetters(), "dead letter"), Counted.of(c.pages(), "page"), String.format("%.1f", outcome.nanos() / 1e9));
                }
                inbox.toDone(claimed, fileId, FileReport.of("completed", name, fileId, size, c, outcome.nanos() / 1e9,
                        null, note));
                metrics.end("completed");
            }
            case FAILED -> finishFailed(claimed, name, fileId, size, c, outcome.failure(), outcome, "failed");
            case STOPPED -> {
                LOG.info("stopped {} at record {} on request; the next start resumes it there", name, c.nextRecordIndex());
                metrics.end("stopped");
            }
            default -> throw new IllegalStateException(outcome.ending().name());
        }
    }

    /**
     * Counts the error that stops the worker against the file in hand, so that a file that stops
     * every start is set aside (FILE_MAX_CRASHES) instead of holding up the inbox for ever. Kafka
     * trouble never gets here (it is retried), nor does a bad setting (no file is at fault).
     */
    private void countCrash(Throwable e) {
        Path file = inHand;
        if (file == null) {
            return;
        }
        try {
            FileCrashes crashes = FileCrashes.after(inbox.crashes(file), inHandId, inHandAt, e);
            inbox.recordCrash(file, crashes);
            LOG.error("{} has now stopped the worker {}, this time {}, on {}; {}", file.getFileName(),
                    FileCrashes.times(crashes.count()), where(crashes), crashes.last(), crashes.outlook(maxCrashes));
        } catch (RuntimeException | Error counting) {
            // The error being reported matters more than this count.
            e.addSuppressed(counting);
        }
    }

    /**
     * Fails a file that stopped the worker FILE_MAX_CRASHES times without reading it again: its
     * failed event and checkpoint are committed where it stood, and the next file is taken.
     */
    private void setAside(Path claimed, String name, String fileId, long size, Checkpoint from, FileCrashes crashes) {
        FileFailedException aside = setAsideReason(name, crashes, true, from);
        Checkpoint failed = ingestion.setAside(new FileJob(claimed, name, fileId, size, from), aside, session.publisher());
        session.checkpoints().committed(failed, workerId);
        finishFailed(claimed, name, fileId, size, failed, aside, null, "failed");
    }

    /**
     * @param identified whether the file's content is known (else it stopped the worker while being identified)
     * @param from       where the file stands, null when nothing of it was committed
     */
    private static FileFailedException setAsideReason(String name, FileCrashes crashes, boolean identified,
                                                      Checkpoint from) {
        long at = from == null ? 0 : from.nextRecordIndex();
        // Unidentified, it may still be a touched file an earlier run published part of: what the content published stays.
        String published = !identified ? "Nothing is published for it now (no failed event either: its content is not "
                + "known); drop the file into the inbox again once the cause is mended, and content an earlier run "
                + "began resumes where it stood" : (at == 0 ? "Nothing of it is published" : "Its records before record " + at
                + " are published") + "; drop the file into the inbox again to resume it there once the cause is mended";
        return new FileFailedException("set aside: the file stopped the worker " + FileCrashes.times(crashes.count()) + " on an "
                + "unexpected error, the last time " + where(crashes) + ", on " + crashes.last() + ". " + published
                + " (a fault in xmlingest or in the model's code, or too small a heap: the worker's log has the stack "
                + "trace)", new io.xmlingest.core.error.ErrorLocation(name, identified ? at : -1, -1, -1,
                from == null || from.resume() == null ? -1 : from.resume().byteOffset()),
                AppSettings.FILE_MAX_CRASHES.key(), null);
    }

    private static String where(FileCrashes crashes) {
        return crashes.fileId().isEmpty() ? "before its content was identified"
                : "with its checkpoint at record " + crashes.at();
    }

    private void finishFailed(Path claimed, String name, String fileId, long size, Checkpoint c, FileFailedException e,
                              FileOutcome outcome, String label) {
        LOG.error("{} {}: {}", name, label, e.getMessage());
        inbox.toFailed(claimed, fileId, FileReport.of(label, name, fileId, size, c,
                outcome == null ? 0 : outcome.nanos() / 1e9, e, null));
        metrics.end(label);
    }

    private void pause(long millis) {
        try {
            stopRequested.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopRequested.countDown();
        }
    }

    private void commitTrouble(String trouble) {
        if (trouble != null && commitTrouble == null) {
            metrics.kafkaLost();
            LOG.warn("Kafka is unavailable: {}; retrying the commit", trouble);
        } else if (trouble == null && commitTrouble != null) {
            // Said, so that the warning above is not the last word on Kafka in the log.
            LOG.info("Kafka is back: the commit went through");
        }
        commitTrouble = trouble;
    }

    private void closeSession() {
        KafkaSession s = session;
        session = null;
        commitTrouble = null;
        idleTrouble = null;
        if (s != null) {
            try {
                s.close();
            } catch (RuntimeException e) {
                LOG.debug("closing the Kafka session: {}", e.toString());
            }
        }
    }
}
