package io.xmlingest.app.cli;

import io.xmlingest.core.pipeline.RecordModel;
import io.xmlingest.app.AppSettings;
import io.xmlingest.app.http.HttpEndpoints;
import io.xmlingest.app.worker.Background;
import io.xmlingest.app.worker.StartupTimeline;
import io.xmlingest.app.worker.Worker;
import io.xmlingest.app.worker.WorkerIds;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ConfigException;
import io.xmlingest.core.pipeline.IngestionPipeline;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "worker", mixinStandardHelpOptions = true,
        description = {"Runs until SIGTERM or SIGINT, ingesting every file that appears in the inbox exactly once.",
            "Write files as NAME.part and rename them when complete (or write them elsewhere and move them in).",
            "Each ends in done/ or failed/ inside the inbox, with NAME.report.json beside it."},
        footer = {"", "Examples:",
            "  java -jar ingest-app.jar worker --inbox /data/inbox --topic persons",
            "  java -jar ingest-app.jar worker --inbox in --topic persons \\",
            "      --bootstrap-servers broker:9092 --http-port 9000",
            "", "Topics: records to TOPIC, dead letters to TOPIC.dlq, status events to",
            "TOPIC.status, checkpoints to TOPIC.checkpoints (compacted). Read them with",
            "read_committed.",
            "Exit codes: 0 stopped on request, 1 stopped on an unexpected error, 2 invalid",
            "usage or setting, 143 (130 for SIGINT) stopped on request when",
            "worker.shutdown.timeout.ms ran out or closing failed."})
final class WorkerCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(WorkerCommand.class);

    @Option(names = "--inbox", paramLabel = "DIR", description = "The inbox directory (setting inbox.dir).")
    Path inbox;

    @Option(names = "--topic", paramLabel = "TOPIC", description = "The record topic (setting topic).")
    String topic;

    @Option(names = "--http-port", paramLabel = "PORT",
            description = "Port of /health and /metrics (setting http.port; 0 picks one, -1 turns them off).")
    Integer httpPort;

    @Mixin
    SettingsOptions options;

    @Override
    public Integer call() throws Exception {
        StartupTimeline startup = StartupTimeline.sinceJvmLaunch(LOG::info);
        startup.launched("jvm");
        // Every Kafka client registers itself with the platform MBean server, and its making, which registers
        // every platform MXBean, took the first client 0.1 s while the other waited for it: made meanwhile instead.
        Background.start("xmlingest-jmx", () -> startup.time("jmx", ManagementFactory::getPlatformMBeanServer));
        long settingsStart = System.nanoTime();
        Map<String, String> flags = new LinkedHashMap<>();
        if (inbox != null) {
            flags.put(AppSettings.INBOX_DIR.key(), inbox.toString());
        }
        if (topic != null) {
            flags.put(IngestSettings.TOPIC.key(), topic);
        }
        if (httpPort != null) {
            flags.put(AppSettings.HTTP_PORT.key(), httpPort.toString());
        }
        IngestConfig settings = options.resolve(flags);
        settings.get(IngestSettings.TOPIC);
        String dir = settings.get(AppSettings.INBOX_DIR);
        if (dir.isBlank()) {
            throw new ConfigException(AppSettings.INBOX_DIR.key(), "the worker needs an inbox: give --inbox DIR or set "
                    + AppSettings.INBOX_DIR.key());
        }
        Path inboxDir = Path.of(dir);
        if (Files.exists(inboxDir) && !Files.isDirectory(inboxDir)) {
            throw new ConfigException(AppSettings.INBOX_DIR.key(), AppSettings.INBOX_DIR.key() + " " + inboxDir
                    + " is not a directory");
        }
        String workerId = WorkerIds.resolve(settings.get(AppSettings.WORKER_ID), inboxDir);
        // Before a broker is started or Kafka asked.
        Worker.checkSettings(settings);
        startup.took("settings", settingsStart, System.nanoTime());
        // Built beside everything else the start-up does; the worker awaits it before its first file.
        CompletableFuture<RecordModel> model = Background.start("xmlingest-jaxb",
                () -> startup.time("jaxb", () -> IngestionPipeline.model(settings)));
        CountDownLatch cleanedUp = new CountDownLatch(1);
        // Set once the worker loop returned because a stop was asked for and all it used is closed; not when
        // anything threw.
        AtomicBoolean stoppedOnRequest = new AtomicBoolean();
        Thread hook = null;
        try {
            try (KafkaTarget kafka = startup.time("kafka target", () -> KafkaTarget.open(settings))) {
                Worker worker = new Worker(kafka.config(), () -> Background.await(model), inboxDir, workerId, startup);
                worker.startOpening();
                // A start that stops before the worker runs (its HTTP port taken, say) must close what was opened.
                try {
                    int port = settings.get(AppSettings.HTTP_PORT);
                    HttpEndpoints http = port < 0 ? null : startup.time("http", () -> HttpEndpoints.start(
                            settings.get(AppSettings.HTTP_HOST), port, worker.metrics(), worker::health));
                    if (http != null) {
                        LOG.info("health at http://{}:{}/health, metrics at /metrics", settings.get(AppSettings.HTTP_HOST),
                                http.port());
                    }
                    long shutdownMillis = settings.get(AppSettings.SHUTDOWN_TIMEOUT_MS);
                    hook = shutdownHook(worker, shutdownMillis, cleanedUp, stoppedOnRequest);
                    Runtime.getRuntime().addShutdownHook(hook);
                    try {
                        worker.run();
                    } catch (Error e) {
                        // The worker logged it with its stack trace as it stopped; a second trace from the JVM only
                        // doubled it in the log. Still exit 1, for the supervisor that starts the worker again.
                        System.err.println("error: the worker stopped on " + e + " (its stack trace is logged above)");
                        return ExitCodes.FILE_FAILED;
                    } finally {
                        if (http != null) {
                            http.close();
                        }
                    }
                } finally {
                    worker.abandon();
                }
            }
            stoppedOnRequest.set(true);
        } finally {
            cleanedUp.countDown();
            removeUnlessRunning(hook);
        }
        return ExitCodes.OK;
    }

    /**
     * On SIGTERM or SIGINT: stop the worker at its next commit, then exit 0 once it stopped and the command
     * cleaned up ({@code cleanedUp}, {@code stoppedOnRequest}), else keep the signal's exit code.
     */
    private static Thread shutdownHook(Worker worker, long shutdownMillis, CountDownLatch cleanedUp,
                                       AtomicBoolean stoppedOnRequest) {
        return new Thread(() -> {
            LOG.info("stop requested: finishing the page in hand (at most {} ms)", shutdownMillis);
            worker.requestStop();
            try {
                boolean stopped = worker.awaitStopped(shutdownMillis);
                if (!stopped) {
                    LOG.warn("the worker did not stop within {} ms (setting {}); exiting anyway, and the open "
                            + "transaction is aborted", shutdownMillis, AppSettings.SHUTDOWN_TIMEOUT_MS.key());
                }
                // Let the command close the HTTP endpoints and an embedded broker before the JVM halts.
                boolean closed = cleanedUp.await(Math.max(1000, shutdownMillis / 4), TimeUnit.MILLISECONDS);
                if (stopped && closed && stoppedOnRequest.get()) {
                    // A JVM stopped by a signal exits 128 + the signal (143 for SIGTERM), which supervisors
                    // read as a failure. This stop was asked for and finished its work, so it is a success; a
                    // stop that ran out of time keeps the signal's code, and an error's exit keeps its own
                    // (System.exit runs this hook too).
                    LOG.info("stopped on request");
                    System.out.flush();
                    System.err.flush();
                    Runtime.getRuntime().halt(ExitCodes.OK);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "xmlingest-shutdown");
    }

    /** A command run inside another program must not leave its hook behind to stop that program's JVM later. */
    private static void removeUnlessRunning(Thread hook) {
        if (hook == null) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // The JVM is shutting down, and the hook is what is stopping the worker.
        }
    }
}
