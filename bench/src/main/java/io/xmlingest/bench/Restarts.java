package io.xmlingest.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.xmlingest.app.cli.Main;
import io.xmlingest.app.kafka.EmbeddedKafkaBroker;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code --restarts}: issue 6's resume target. A worker, in a process of its own, ingests the datagen
 * file into the bench's broker and is killed (SIGKILL) once a given share of the records is committed;
 * a new worker is launched at once and timed from its launch until a read_committed consumer in the
 * bench receives the first record committed after the kill. Each round ingests the file once, with a
 * kill at every position asked for, and ends by checking that the consumer received every record
 * exactly once.
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
     * in fact, with what the last transaction held), and the time from the new worker's launch to the first
     * new record's arrival; {@code workerSeconds} is the worker's own start-up line's figure, from its JVM's
     * launch to its first commit, when it wrote one.
     */
    record Restart(int round, int percent, long committedBefore, double seconds, Double workerSeconds) {
    }

    /** What the consumer received over a round. */
    record Round(int round, long messages, long distinctIndexes) {
    }

    /** A whole run. */
    record Results(String startedAt, String machine, String worker, long records, List<Integer> percents, int rounds,
                   String loadBefore, String loadAfter, List<Restart> restarts, List<Round> roundsRead) {
    }

    /** Between a kill and the successor's launch; not timed. */
    static final long SETTLE_MILLIS = 250;

    private static final Pattern WORKER_FIGURE = Pattern.compile("start-up: first commit ([0-9.]+) s after");

    private Restarts() {
    }

    static Results run(Plan plan, PrintStream log) throws Exception {
        String startedAt = java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC).withNano(0).toString();
        String loadBefore = ValueFormats.loadAverage();
        Path file = Bench.dataFile(plan.dataDir(), plan.records());
        Files.createDirectories(plan.workDir());
        List<Restart> restarts = new ArrayList<>();
        List<Round> read = new ArrayList<>();
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(Files.createTempDirectory(plan.workDir(), "kafka"),
                "127.0.0.1", 0)) {
            for (int round = 1; round <= plan.rounds(); round++) {
                read.add(round(plan, round, file, broker.bootstrapServers(), restarts, log));
            }
        }
        return new Results(startedAt, Report.machine(), String.join(" ", plan.launcher()), plan.records(),
                plan.percents(), plan.rounds(), loadBefore, ValueFormats.loadAverage(), restarts, read);
    }

    private static Round round(Plan plan, int round, Path file, String bootstrap, List<Restart> restarts,
            PrintStream log) throws Exception {
        Path dir = plan.workDir().resolve("round-" + round);
        Path inbox = dir.resolve("inbox");
        Files.createDirectories(inbox);
        String topic = "restarts-" + round;
        List<Path> logs = new ArrayList<>();
        Worker worker = new Worker(plan, inbox, topic, "bench-restarts-" + round, bootstrap);
        List<Long> committedBefore = new ArrayList<>();
        List<Double> seconds = new ArrayList<>();
        try {
            logs.add(dir.resolve("worker-0.log"));
            worker.launch(logs.get(0));
            place(file, inbox);
            try (CommittedRecords seen = new CommittedRecords(bootstrap, topic, Duration.ofMinutes(2), worker::alive)) {
                for (int percent : plan.percents()) {
                    long target = (long) Math.ceil(plan.records() * percent / 100.0);
                    seen.awaitMessages(target, Duration.ofMinutes(30), worker::alive);
                    worker.kill();
                    // A commit the killed worker asked for just before it died is still completed by the broker's
                    // transaction coordinator; read after it has settled, or its records would pass for the successor's.
                    Thread.sleep(SETTLE_MILLIS);
                    seen.drain(Duration.ofMinutes(1));
                    if (seen.messages() >= plan.records()) {
                        throw new IllegalStateException(String.format(Locale.ROOT, "round %d: the worker had committed "
                                + "all %,d records before it could be killed at %d%%; give --records more", round,
                                plan.records(), percent));
                    }
                    long before = seen.messages();
                    committedBefore.add(before);
                    Path workerLog = dir.resolve("worker-" + logs.size() + ".log");
                    logs.add(workerLog);
                    long launched = System.nanoTime();
                    worker.launch(workerLog);
                    long arrived = seen.awaitNext(Duration.ofMinutes(2), worker::alive);
                    seconds.add((arrived - launched) / 1e9);
                    log.printf(Locale.ROOT, "round %d: killed at %d%% (%,d records committed), first new record %.3f s "
                            + "after the launch (load average %s)%n", round, percent, before, seconds.get(seconds.size() - 1),
                            ValueFormats.loadAverage());
                }
                seen.awaitMessages(plan.records(), Duration.ofMinutes(30), worker::alive);
                // A duplicate would come after the last new record: wait until the file is done, then read to the end.
                Path done = inbox.resolve("done").resolve(file.getFileName());
                long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
                while (!Files.exists(done)) {
                    if (System.nanoTime() > deadline || !worker.alive()) {
                        Path lastLog = logs.get(logs.size() - 1);
                        throw new IllegalStateException("round " + round + ": the worker did not move "
                                + file.getFileName() + " to done/ after committing every record; see " + lastLog);
                    }
                    Thread.sleep(50);
                }
                seen.drain(Duration.ofMinutes(1));
                Round r = new Round(round, seen.messages(), seen.distinctIndexes());
                log.printf(Locale.ROOT, "round %d: %,d messages, %,d distinct record indexes%n", round, r.messages(),
                        r.distinctIndexes());
                return r;
            }
        } finally {
            worker.stop();
            // The start-up line is written at the first commit, which the consumer has seen; read once all have exited.
            for (int k = 0; k < seconds.size(); k++) {
                restarts.add(new Restart(round, plan.percents().get(k), committedBefore.get(k), seconds.get(k),
                        workerFigure(logs.get(k + 1))));
            }
        }
    }

    /** A hard link where the file system allows one (instant, no space), else a copy moved in whole. */
    private static void place(Path file, Path inbox) throws IOException {
        Path target = inbox.resolve(file.getFileName());
        try {
            Files.createLink(target, file);
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

    /** The worker process of a round: one at a time, each start fencing the one before. */
    private static final class Worker {

        private final List<String> command;
        private Process process;

        Worker(Plan plan, Path inbox, String topic, String workerId, String bootstrap) {
            command = new ArrayList<>(plan.launcher());
            command.addAll(List.of("worker", "--inbox", inbox.toString(), "--topic", topic, "--bootstrap-servers",
                    bootstrap, "--http-port", "0", "-s", "worker.id=" + workerId));
        }

        void launch(Path log) throws IOException {
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        }

        boolean alive() {
            return process != null && process.isAlive();
        }

        /** SIGKILL, as a crash or an OOM killer would: nothing is closed or flushed. */
        void kill() throws InterruptedException {
            process.destroyForcibly().waitFor();
        }

        void stop() throws InterruptedException {
            if (process == null) {
                return;
            }
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }
}
