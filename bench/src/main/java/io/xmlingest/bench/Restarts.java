package io.xmlingest.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.xmlingest.app.cli.Main;
import io.xmlingest.app.kafka.EmbeddedKafkaBroker;
import io.xmlingest.bench.strategy.ExactlyOnceCheck;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.publish.TopicNames;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code --restarts}: issue 6's resume target. A worker, in a process of its own, ingests the datagen
 * file into the bench's broker and is killed (SIGKILL) once a given share of the records is committed;
 * a new worker is launched at once and timed from its launch until a read_committed consumer in the
 * bench receives the first record it committed. Each round ingests the file once, with a kill at every
 * position asked for, and ends with the bench's exactly-once check of what the topics hold.
 */
final class Restarts {

    static final String MARKER = "bench-restarts";

    /** What to measure, and how the worker is started. */
    record Plan(long records, List<Integer> percents, int rounds, String heap, Path dataDir, Path workDir,
                String java, Path workerJar, List<String> workerOptions) {

        Plan {
            percents = List.copyOf(percents);
            workerOptions = List.copyOf(workerOptions);
        }

        /** The worker's command line up to its arguments, as the report shows it. */
        List<String> launcher() {
            List<String> cmd = new ArrayList<>(List.of(java, "-Xmx" + heap));
            cmd.addAll(workerOptions);
            if (workerJar != null) {
                cmd.addAll(List.of("-jar", workerJar.toString()));
            } else {
                cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
            }
            return cmd;
        }
    }

    /**
     * One restart: the worker killed once {@code percent} of the records were committed ({@code committedBefore}
     * read by the successor's launch), and the time from that launch to the arrival of the first record the
     * successor committed; {@code workerSeconds} is the successor's own start-up line's figure, from its JVM's
     * launch to its first commit, when it wrote one.
     */
    record Restart(int round, int percent, long committedBefore, double seconds, Double workerSeconds) {
    }

    /** What the round left in Kafka, by the bench's exactly-once check: {@code problems} empty when all is well. */
    record Round(int round, long messages, long distinctIndexes, List<String> problems) {

        Round {
            problems = List.copyOf(problems);
        }
    }

    /** A whole run. */
    record Results(String startedAt, String machine, String worker, long records, List<Integer> percents, int rounds,
                   String loadBefore, String loadAfter, List<Restart> restarts, List<Round> roundsRead) {
    }

    private static final Pattern WORKER_FIGURE = Pattern.compile("start-up: first commit ([0-9.]+) s after");

    private Restarts() {
    }

    static Results run(Plan plan, PrintStream log) throws Exception {
        String startedAt = Report.startedAt();
        String loadBefore = Report.loadAverage();
        Path file = Bench.dataFile(plan.dataDir(), plan.records());
        Files.createDirectories(plan.workDir());
        // A directory of its own: an inbox a failed run left behind would hand its file to this run's worker.
        Path work = Files.createTempDirectory(plan.workDir(), "restarts");
        List<Restart> restarts = new ArrayList<>();
        List<Round> read = new ArrayList<>();
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(work.resolve("kafka"), "127.0.0.1", 0)) {
            for (int round = 1; round <= plan.rounds(); round++) {
                read.add(round(plan, round, file, work.resolve("round-" + round), broker.bootstrapServers(), restarts,
                        log));
            }
        }
        return new Results(startedAt, Report.machine(), String.join(" ", plan.launcher()), plan.records(),
                plan.percents(), plan.rounds(), loadBefore, Report.loadAverage(), restarts, read);
    }

    private static Round round(Plan plan, int round, Path file, Path dir, String bootstrap, List<Restart> restarts,
            PrintStream log) throws Exception {
        Path inbox = Files.createDirectories(dir.resolve("inbox"));
        String topic = "restarts-" + round;
        List<Path> logs = new ArrayList<>();
        List<Long> committedBefore = new ArrayList<>();
        List<Double> seconds = new ArrayList<>();
        List<String> command = new ArrayList<>(plan.launcher());
        command.addAll(List.of("worker", "--inbox", inbox.toString(), "--topic", topic, "--bootstrap-servers",
                bootstrap, "--http-port", "0", "-s", "worker.id=bench-restarts-" + round));
        try (WorkerProcess worker = new WorkerProcess(command)) {
            worker.launch(nextLog(dir, logs));
            place(file, inbox);
            try (KafkaTopicWatch seen = new KafkaTopicWatch(bootstrap, topic, Duration.ofMinutes(2), worker::alive)) {
                for (int percent : plan.percents()) {
                    try {
                        seen.awaitMessages((long) Math.ceil(plan.records() * percent / 100.0), Duration.ofMinutes(30),
                                worker::alive);
                        worker.kill();
                        var mark = seen.mark(Duration.ofMinutes(1));
                        seen.drain(Duration.ofMinutes(1));
                        if (seen.messages() >= plan.records()) {
                            throw new IllegalStateException(String.format(Locale.ROOT, "the worker had committed all "
                                    + "%,d records before it was killed; give --records more", plan.records()));
                        }
                        committedBefore.add(seen.messages());
                        long launched = System.nanoTime();
                        worker.launch(nextLog(dir, logs));
                        seconds.add((seen.awaitFirstPast(mark, Duration.ofMinutes(2), worker::alive) - launched) / 1e9);
                    } catch (RuntimeException e) {
                        throw new IllegalStateException(String.format(Locale.ROOT, "round %d, kill at %d%%: %s; the "
                                + "worker's log: %s", round, percent, e.getMessage(), logs.get(logs.size() - 1)), e);
                    }
                    log.printf(Locale.ROOT, "round %d: killed at %d%% (%,d records committed), first new record %.3f s "
                            + "after the launch (load average %s)%n", round, percent,
                            committedBefore.get(committedBefore.size() - 1), seconds.get(seconds.size() - 1),
                            Report.loadAverage());
                }
            }
            awaitDone(inbox, file.getFileName().toString(), worker, round, logs.get(logs.size() - 1));
        }
        // Every worker has exited: each successor's start-up line was written at its first commit.
        for (int k = 0; k < seconds.size(); k++) {
            restarts.add(new Restart(round, plan.percents().get(k), committedBefore.get(k), seconds.get(k),
                    workerFigure(logs.get(k + 1))));
        }
        IngestConfig config = IngestConfig.of(IngestSettings.ALL, Map.of(IngestSettings.TOPIC.key(), topic,
                IngestSettings.BOOTSTRAP_SERVERS.key(), bootstrap));
        ExactlyOnceCheck.Tally tally = ExactlyOnceCheck.readSettled(config, TopicNames.of(config), plan.records(),
                Duration.ofMinutes(2));
        log.printf(Locale.ROOT, "round %d: %s%n", round, tally.summary());
        return new Round(round, tally.messages(), tally.distinct(), tally.problems(plan.records()));
    }

    private static Path nextLog(Path dir, List<Path> logs) {
        Path log = dir.resolve("worker-" + logs.size() + ".log");
        logs.add(log);
        return log;
    }

    /**
     * Waits for the file to be done rather than for its record count: a worker that lost records would never
     * reach the count, and the exactly-once check after this says what is missing.
     */
    private static void awaitDone(Path inbox, String name, WorkerProcess worker, int round, Path log)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.HOURS.toNanos(1);
        while (!Files.exists(inbox.resolve("done").resolve(name))) {
            String why = Files.exists(inbox.resolve("failed").resolve(name)) ? "the worker failed the file"
                    : !worker.alive() ? "the worker stopped" : System.nanoTime() > deadline ? "not done within an hour"
                    : null;
            if (why != null) {
                throw new IllegalStateException(String.format(Locale.ROOT, "round %d: %s after its last restart; the "
                        + "worker's log: %s", round, why, log));
            }
            Thread.sleep(100);
        }
    }

    /** A hard link where the file system allows one (instant, no space), else a copy moved in whole. */
    private static void place(Path file, Path inbox) throws IOException {
        Path target = inbox.resolve(file.getFileName());
        try {
            Files.createLink(target, file);
        } catch (FileAlreadyExistsException e) {
            throw e;
        } catch (FileSystemException | UnsupportedOperationException e) {
            Path part = inbox.resolve("." + file.getFileName() + ".part");
            Files.copy(file, part, StandardCopyOption.REPLACE_EXISTING);
            Files.move(part, target, StandardCopyOption.ATOMIC_MOVE);
        }
    }

    static Double workerFigure(Path log) throws IOException {
        if (!Files.exists(log)) {
            return null;
        }
        Matcher m = WORKER_FIGURE.matcher(Files.readString(log));
        return m.find() ? Double.valueOf(m.group(1)) : null;
    }

    static void write(Results results, Path out) throws IOException {
        Files.createDirectories(out);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.resolve("results.json").toFile(),
                results);
        Files.writeString(out.resolve("report.md"), RestartReport.full(results));
    }
}
