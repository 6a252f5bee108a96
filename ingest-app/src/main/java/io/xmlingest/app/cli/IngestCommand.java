package io.xmlingest.app.cli;

import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.FileFailedException;
import io.xmlingest.core.error.RecordRejectedException;
import io.xmlingest.core.page.Page;
import io.xmlingest.core.pipeline.FileSummary;
import io.xmlingest.core.pipeline.IngestListener;
import io.xmlingest.core.pipeline.IngestionPipeline;
import io.xmlingest.core.pipeline.PhaseTimes;
import io.xmlingest.core.pipeline.RecordModel;
import io.xmlingest.core.publish.KafkaPagePublisher;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "ingest", mixinStandardHelpOptions = true,
        description = "Publishes every record of the XML files to a Kafka topic, one message per record, and prints a summary.",
        footer = {"", "Examples:",
            "  java -jar ingest-app.jar ingest persons.xml --topic persons",
            "  java -jar ingest-app.jar ingest a.xml b.xml --topic persons \\",
            "      --bootstrap-servers broker:9092 -s page.max.records=500",
            "", "Exit codes: 0 all records acknowledged, 1 a file failed, 2 invalid usage or",
            "setting (or Kafka refused the credentials), 3 some records rejected (not",
            "published), 4 Kafka unavailable."})
final class IngestCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(IngestCommand.class);

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "XML files to ingest, in order.")
    List<Path> files;

    @Option(names = "--topic", paramLabel = "TOPIC", description = "The topic that receives the records (setting topic).")
    String topic;

    @Option(names = "--progress", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Draw a progress line per file on standard error when it is a terminal (default: on; "
                    + "never when standard error is redirected).")
    boolean progress;

    @Mixin
    SettingsOptions options;

    @Override
    public Integer call() {
        IngestConfig settings = options.resolve(topic == null ? Map.of() : Map.of(IngestSettings.TOPIC.key(), topic));
        settings.get(IngestSettings.TOPIC);
        RecordModel model = IngestionPipeline.model(settings);
        long failed = 0;
        long rejected = 0;
        long records = 0;
        long started = System.nanoTime();
        try (KafkaTarget kafka = KafkaTarget.open(settings);
             KafkaPagePublisher publisher = KafkaPagePublisher.open(kafka.config())) {
            Listener listener = new Listener(progress && System.console() != null);
            // SIGTERM or Ctrl-C ends the JVM mid-file: what Kafka took of the file in hand is said, as when Kafka
            // stops the run; before, the run ended without a word about records already in the topic.
            Runtime.getRuntime().addShutdownHook(new Thread(listener::stoppedBySignal, "xmlingest-ingest-stopped"));
            IngestionPipeline pipeline = IngestionPipeline.create(kafka.config(), model, publisher, listener);
            Map<String, Path> seen = new HashMap<>();
            for (int i = 0; i < files.size(); i++) {
                Path file = files.get(i);
                listener.startFile(file);
                try {
                    FileSummary s = pipeline.ingest(file);
                    listener.endFile();
                    records += s.records();
                    rejected += s.rejected();
                    say(describe(s) + (s.records() + s.rejected() == 0
                            ? "; it holds no " + model.elements() + " element (setting record.element)" : ""));
                    Path before = seen.putIfAbsent(s.fileId(), file);
                    if (before != null) {
                        // ingest publishes what it is given; only the worker knows a content it has ingested before.
                        say(file + ": its content is that of " + before + " (file id " + s.fileId()
                                + "), and its records were published again");
                    }
                } catch (FileFailedException e) {
                    listener.endFile();
                    failed++;
                    // What Kafka took of a failed file is in the topic all the same, so it counts in the total.
                    records += listener.acknowledged;
                    rejected += listener.rejected;
                    LOG.error("file failed: {}", e.getMessage());
                    say(file + ": FAILED: " + e.getMessage() + "; " + listener.sofar("it failed"));
                } catch (Error e) {
                    // Out of memory, say: the JVM ends, and its shutdown hook must not call it a signal.
                    listener.endFile();
                    say(file + ": NOT FINISHED: " + e + "; " + listener.sofar("the run stopped"));
                    throw e;
                } catch (RuntimeException e) {
                    listener.endFile();
                    // Kafka away (exit 4) or refusing: the run stops, but what it published is said first, as for a
                    // failed file; before, a stop mid-file printed nothing of the records already in the topic.
                    records += listener.acknowledged;
                    rejected += listener.rejected;
                    say(file + ": NOT FINISHED: " + e.getMessage() + "; " + listener.sofar("the run stopped"));
                    total(files.size(), failed, records, rejected, started, files.size() - i - 1);
                    throw e;
                }
            }
        }
        total(files.size(), failed, records, rejected, started, 0);
        return failed > 0 ? ExitCodes.FILE_FAILED : rejected > 0 ? ExitCodes.RECORDS_REJECTED : ExitCodes.OK;
    }

    private static void total(int files, long failed, long records, long rejected, long started, int notRead) {
        if (files < 2) {
            return;
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf(Locale.ROOT,
                "total: %d files, %d failed, %d records published, %d rejected, %.1f s, %.0f records/s%s%n",
                files, failed, records, rejected, seconds, records / Math.max(seconds, 1e-9),
                notRead == 0 ? "" : ", " + notRead + " not read");
    }

    /**
     * A line of the summary on stdout, where scripts read one line per file: a file name holding a line end or a
     * terminal escape is written escaped, as the logs write it.
     */
    static void say(String line) {
        System.out.println(io.xmlingest.app.logging.OneLineMessageConverter.oneLine(line));
    }

    static String describe(FileSummary s) {
        PhaseTimes p = s.phases();
        return String.format(Locale.ROOT,
                "%s: %d records, %d pages, %d rejected, %.1f MB read, %.1f MB published, %.1f s, %.0f records/s "
                        + "(identify %.1f s, scan %.1f s, bind %.1f s, serialize %.1f s, publish %.1f s) file id %s",
                s.file(), s.records(), s.pages(), s.rejected(), s.fileBytes() / 1e6, s.messageBytes() / 1e6,
                s.seconds(), s.recordsPerSecond(), p.identifyNanos() / 1e9, p.scanNanos() / 1e9, p.bindNanos() / 1e9,
                p.serializeNanos() / 1e9, p.publishNanos() / 1e9, s.fileId());
    }

    /** Logs each rejected record with its position, and draws a progress line on a terminal. */
    private static final class Listener implements IngestListener {
        private final boolean terminal;
        private long lastDraw;
        // Of the file in hand, so that a failed file's line says what of it Kafka already has. Volatile for the
        // shutdown hook's thread, which reads them once a signal has stopped the run.
        private volatile long acknowledged;
        private volatile long lastAcknowledged;
        private volatile long rejected;
        /** The file in hand, until its line is printed; null between files. */
        private volatile Path inHand;

        Listener(boolean terminal) {
            this.terminal = terminal;
        }

        void startFile(Path file) {
            acknowledged = 0;
            lastAcknowledged = -1;
            rejected = 0;
            inHand = file;
        }

        void endFile() {
            inHand = null;
        }

        /** As the JVM shuts down: the file in hand, if any, was stopped by a signal; what Kafka had of it is said. */
        void stoppedBySignal() {
            Path file = inHand;
            if (file != null) {
                if (terminal) {
                    System.err.println(); // past the progress line
                }
                say(file + ": NOT FINISHED: stopped by a signal; " + sofar("the stop"));
                System.out.flush();
            }
        }

        String sofar(String before) {
            String published = acknowledged == 0 ? "no record of it was acknowledged by Kafka before " + before
                    : acknowledged + " records of it were acknowledged by Kafka before " + before + " (the highest "
                    + "record index " + lastAcknowledged + ")";
            return published + ", " + rejected + " rejected";
        }

        @Override
        public void rejected(RecordRejectedException e) {
            rejected++;
            LOG.warn("record rejected, not published: {}", e.getMessage());
        }

        @Override
        public void acknowledged(Page page, long bytesRead, long fileBytes) {
            acknowledged += page.size();
            lastAcknowledged = Math.max(lastAcknowledged, page.lastIndex());
            long now = System.nanoTime();
            if (!terminal || fileBytes <= 0 || now - lastDraw < 200_000_000L) {
                return;
            }
            lastDraw = now;
            int percent = (int) Math.min(100, 100 * Math.max(0, bytesRead) / fileBytes);
            System.err.printf(Locale.ROOT, "\r%s: %3d%% (%d records)   ", page.fileName(), percent, page.lastIndex() + 1);
            if (percent >= 100) {
                System.err.println();
            }
        }
    }
}
