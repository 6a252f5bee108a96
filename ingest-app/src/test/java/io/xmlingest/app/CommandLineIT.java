package io.xmlingest.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.app.kafka.EmbeddedKafkaBroker;
import io.xmlingest.core.error.ConfigException;
import io.xmlingest.datagen.DatagenCommand;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import io.xmlingest.app.AppProcess.Result;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shaded jar run as users run it: child processes, real brokers, nothing installed. */
class CommandLineIT {

    private static final Pattern ID = Pattern.compile("^\\{\"id\":(\\d+),");

    @TempDir
    Path dir;

    private Result run(String... args) throws Exception {
        return runWith(Map.of(), args);
    }

    private Result runWith(Map<String, String> env, String... args) throws Exception {
        return AppProcess.run(dir, env, args);
    }

    @Test
    void theEmbeddedDefaultKeepsDataFromOneCommandForTheNext() throws Exception {
        Path file = DatagenCommand.generate(dir.resolve("persons.xml"), 2_000, 3);

        Result ingest = run("ingest", "persons.xml", "--topic", "persons");
        assertThat(ingest.exit()).as(ingest.stderr()).isZero();
        // Not a terminal: no progress line on stderr, and stdout holds the summary alone.
        assertThat(ingest.stderr()).doesNotContain("\r");
        assertThat(ingest.stdout()).allSatisfy(l -> assertThat(l).startsWith("persons.xml: "));
        assertThat(ingest.stdout()).anySatisfy(l -> assertThat(l).startsWith("persons.xml: 2000 records"));
        assertThat(dir.resolve(".xmlingest/kafka/logs/meta.properties")).exists();

        Result all = run("read", "--topic", "persons");
        assertThat(all.exit()).as(all.stderr()).isZero();
        assertThat(uniqueIds(all.stdout())).hasSize(2_000);
        assertThat(all.stdout()).hasSize(2_000);

        Result three = run("read", "--topic", "persons", "--max", "3");
        assertThat(three.exit()).isZero();
        assertThat(three.stdout()).hasSize(3);
        assertThat(file).exists();
    }

    /**
     * The first line a broker command prints, its address, read aside: a broker that never prints it fails the test
     * instead of hanging the build.
     */
    private static String printedAddress(Process broker) throws Exception {
        BufferedReader stdout = new BufferedReader(new InputStreamReader(broker.getInputStream(), StandardCharsets.UTF_8));
        return java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return stdout.readLine();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }).get(3, TimeUnit.MINUTES);
    }

    @Test
    void theBrokerCommandServesIngestAndRead() throws Exception {
        DatagenCommand.generate(dir.resolve("p.xml"), 3_000, 5);
        int port = freePort();
        Process broker = new ProcessBuilder(AppProcess.javaBin(), "-jar", AppProcess.appJar(), "broker", "--port", Integer.toString(port),
                "--data", dir.resolve("broker-data").toString())
                .redirectError(dir.resolve("broker.err").toFile()).start();
        try {
            String address = printedAddress(broker);
            assertThat(address).as(Files.readString(dir.resolve("broker.err"))).isEqualTo("127.0.0.1:" + port);

            Result ingest = run("ingest", "p.xml", "--topic", "people", "--bootstrap-servers", address);
            assertThat(ingest.exit()).as(ingest.stderr()).isZero();
            Result read = run("read", "--topic", "people", "--bootstrap-servers", address);
            assertThat(read.exit()).as(read.stderr()).isZero();
            assertThat(uniqueIds(read.stdout())).hasSize(3_000);
            assertThat(read.stdout()).hasSize(3_000);
            assertThat(dir.resolve(".xmlingest")).doesNotExist();
            // Another command on the running broker's data directory is refused before it touches it: it had rewritten
            // the running broker's metadata log, which crashed the broker and lost a topic it had just made.
            Result second = run("read", "--topic", "people", "-s", "embedded.data.dir=" + dir.resolve("broker-data"));
            assertThat(second.exit()).isEqualTo(2);
            assertThat(second.stderr()).contains("is in use by another broker").contains("(setting: embedded.data.dir)");
            Result still = run("read", "--topic", "people", "--bootstrap-servers", address);
            assertThat(still.stdout()).as(still.stderr()).hasSize(3_000);
            // A tombstone (the worker deletes old checkpoints with them) is printed as null: read stopped there with
            // a NullPointerException.
            Properties p = new Properties();
            p.put("bootstrap.servers", address);
            try (Admin admin = Admin.create(p)) {
                admin.createTopics(List.of(new NewTopic("tombs", 1, (short) 1))).all().get(60, TimeUnit.SECONDS);
            }
            p.put("key.serializer", ByteArraySerializer.class.getName());
            p.put("value.serializer", ByteArraySerializer.class.getName());
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
                for (String value : new String[] {"{\"a\":1}", null, "{\"b\":2}"}) {
                    producer.send(new ProducerRecord<>("tombs", "k".getBytes(StandardCharsets.UTF_8),
                            value == null ? null : value.getBytes(StandardCharsets.UTF_8))).get(60, TimeUnit.SECONDS);
                }
            }
            Result tombs = run("read", "--topic", "tombs", "--bootstrap-servers", address);
            assertThat(tombs.exit()).as(tombs.stderr()).isZero();
            assertThat(tombs.stdout()).containsExactly("{\"a\":1}", "null", "{\"b\":2}");
            // A topic that is not there is a setting to fix, not Kafka being away (it was exit 1, as if a file failed).
            Result missing = run("read", "--topic", "peple", "--bootstrap-servers", address);
            assertThat(missing.exit()).isEqualTo(2);
            assertThat(missing.stderr()).contains("topic peple does not exist at " + address + " (setting: topic)");
        } finally {
            broker.destroy();
            assertThat(broker.waitFor(60, TimeUnit.SECONDS)).as("broker stops on SIGTERM").isTrue();
            // It was 143, which a supervisor reads as a crash.
            assertThat(broker.exitValue()).as("a stop asked for is a success").isZero();
        }
    }

    /**
     * Listening on every address, the broker told clients 127.0.0.1, so a client on another machine went on to its own
     * loopback after its first contact. The name it is told here resolves nowhere, as a NAT's public name may not from
     * the broker's own machine: the broker still starts, since it talks to itself over a loopback port of its own.
     */
    @Test
    void theBrokerCommandOnEveryAddressTellsClientsTheAdvertisedHost() throws Exception {
        int port = freePort();
        Process broker = new ProcessBuilder(AppProcess.javaBin(), "-jar", AppProcess.appJar(), "broker", "--port",
                Integer.toString(port), "--host", "0.0.0.0", "--advertised-host", "clients-only.invalid", "--data",
                dir.resolve("everywhere").toString()).redirectError(dir.resolve("everywhere.err").toFile()).start();
        try {
            String address = printedAddress(broker);
            // Printed once the broker answers; it timed out waiting for itself at the name it tells clients.
            assertThat(address).as(Files.readString(dir.resolve("everywhere.err"))).isEqualTo("clients-only.invalid:" + port);
            assertThat(Files.readString(dir.resolve("everywhere.err"))).doesNotContain("warning: --host");
            Result bad = run("broker", "--advertised-host", "kafka.example.com:9092");
            assertThat(bad.exit()).isEqualTo(2);
            assertThat(bad.stderr()).contains("--advertised-host kafka.example.com:9092: a host name or address without a "
                    + "port");
        } finally {
            broker.destroy();
            assertThat(broker.waitFor(60, TimeUnit.SECONDS)).as("broker stops on SIGTERM").isTrue();
        }
    }

    /** Before, a run stopped by Kafka mid-file printed nothing, though records of it were in the topic. */
    @Test
    void aRunThatLosesKafkaSaysWhatItPublishedBeforeItStops() throws Exception {
        DatagenCommand.generate(dir.resolve("first.xml"), 500, 5);
        DatagenCommand.generate(dir.resolve("second.xml"), 100_000, 6);
        DatagenCommand.generate(dir.resolve("third.xml"), 10, 7);
        Process ingest;
        BufferedReader stdout;
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(dir.resolve("lost-data"), "127.0.0.1", 0)) {
            ingest = new ProcessBuilder(AppProcess.javaBin(), "-jar", AppProcess.appJar(), "ingest", "first.xml",
                    "second.xml", "third.xml", "--topic", "lost", "--bootstrap-servers", broker.bootstrapServers(),
                    "-s", "kafka.delivery.timeout.ms=10000")
                    .directory(dir.toFile()).redirectError(dir.resolve("ingest.err").toFile()).start();
            stdout = new BufferedReader(new InputStreamReader(ingest.getInputStream(), StandardCharsets.UTF_8));
            BufferedReader lines = stdout;
            String first = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try {
                    return lines.readLine();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).get(3, TimeUnit.MINUTES);
            assertThat(first).as(Files.readString(dir.resolve("ingest.err"))).startsWith("first.xml: 500 records");
        }
        assertThat(ingest.waitFor(3, TimeUnit.MINUTES)).isTrue();
        List<String> rest = stdout.lines().toList();
        String err = Files.readString(dir.resolve("ingest.err"));
        assertThat(ingest.exitValue()).as(err).isEqualTo(4);
        assertThat(rest).as(err).hasSize(2);
        assertThat(rest.get(0)).startsWith("second.xml: NOT FINISHED: ").contains("acknowledged by Kafka before the run stopped");
        assertThat(rest.get(1)).startsWith("total: 3 files, 0 failed, ").endsWith(", 1 not read");
    }

    /** Before, a run stopped by SIGTERM or Ctrl-C ended without a word, though records of the file in hand were in the topic. */
    @Test
    void aRunStoppedBySignalSaysWhatItPublishedOfTheFileInHand() throws Exception {
        DatagenCommand.generate(dir.resolve("big.xml"), 400_000, 8);
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(dir.resolve("signal-data"), "127.0.0.1", 0);
             Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
            Process ingest = new ProcessBuilder(AppProcess.javaBin(), "-jar", AppProcess.appJar(), "ingest", "big.xml",
                    "--topic", "signal", "--bootstrap-servers", broker.bootstrapServers())
                    .directory(dir.toFile()).redirectError(dir.resolve("signal.err").toFile())
                    .redirectOutput(dir.resolve("signal.out").toFile()).start();
            // Stopped once Kafka has dozens of its 1,000-record pages, well before its end: a page is acknowledged once
            // the last of its records is, and those first in the topic may all be of pages not wholly there yet.
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
            while (inTopic(admin, "signal") < 50_000) {
                assertThat(System.nanoTime()).as(Files.readString(dir.resolve("signal.err"))).isLessThan(deadline);
                assertThat(ingest.isAlive()).as(Files.readString(dir.resolve("signal.err"))).isTrue();
                Thread.sleep(50);
            }
            ingest.destroy();
            assertThat(ingest.waitFor(60, TimeUnit.SECONDS)).isTrue();
            String out = Files.readString(dir.resolve("signal.out"));
            Matcher said = Pattern.compile("^big\\.xml: NOT FINISHED: stopped by a signal; (\\d+) records of it were "
                    + "acknowledged by Kafka before the stop \\(the highest record index \\d+\\), 0 rejected\n$").matcher(out);
            assertThat(said.find()).as(out + Files.readString(dir.resolve("signal.err"))).isTrue();
            long acknowledged = Long.parseLong(said.group(1));
            assertThat(acknowledged).isPositive().isLessThan(400_000);
            // What it says Kafka has, Kafka has (more may have come in as the producer closed).
            assertThat(inTopic(admin, "signal")).isGreaterThanOrEqualTo(acknowledged);
        }
    }

    /** Records in a topic that ingest wrote, without transactions: its partitions' end offsets, added up. */
    private static long inTopic(Admin admin, String topic) throws Exception {
        if (!admin.listTopics().names().get().contains(topic)) {
            return 0;
        }
        var partitions = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions();
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        partitions.forEach(p -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
        return admin.listOffsets(latest).all().get().values().stream().mapToLong(i -> i.offset()).sum();
    }

    @Test
    void aSecondBrokerInOneJvmIsRefusedAndTheFirstKeepsItsDirectory() throws Exception {
        Path data = dir.resolve("shared-data");
        try (EmbeddedKafkaBroker first = EmbeddedKafkaBroker.start(data, "127.0.0.1", 0)) {
            assertThatThrownBy(() -> EmbeddedKafkaBroker.start(data, "127.0.0.1", 0))
                    .isInstanceOf(ConfigException.class).hasMessageContaining("is in use by another broker");
            // Refusing it must not release the first's lock for other processes: closing any channel on the lock file
            // in this JVM would have.
            Result other = run("read", "--topic", "t", "-s", "embedded.data.dir=" + data);
            assertThat(other.exit()).as(other.stderr()).isEqualTo(2);
            assertThat(other.stderr()).contains("is in use by another broker");
        }
        try (EmbeddedKafkaBroker again = EmbeddedKafkaBroker.start(data, "127.0.0.1", 0)) {
            assertThat(again.bootstrapServers()).startsWith("127.0.0.1:");
        }
    }

    @Test
    void datagenRedirectedDrawsNoProgressAndPrintsOnlyItsSummary() throws Exception {
        Path jar = Path.of("..", "datagen", "target", "datagen.jar").toAbsolutePath().normalize();
        assertThat(jar).exists();
        Process p = new ProcessBuilder(AppProcess.javaBin(), "-jar", jar.toString(), "--records", "5000", "--out", "d.xml")
                .directory(dir.toFile()).start();
        // Both pipes drained before waiting, so a full pipe cannot stall the child.
        String[] err = new String[1];
        Thread errReader = new Thread(() -> {
            try {
                err[0] = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                err[0] = e.toString();
            }
        });
        errReader.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
        errReader.join();
        assertThat(p.exitValue()).as(err[0]).isZero();
        // A pipe is not a terminal: no progress bar anywhere, and stdout is the one summary line.
        assertThat(err[0]).doesNotContain("\r").doesNotContain("records/s");
        assertThat(out.lines().toList()).singleElement().asString().startsWith("wrote 5000 records");
        assertThat(dir.resolve("d.xml")).exists();
        assertThat(dir.resolve("d.xml.part")).doesNotExist();

        // '-' is standard output, the summary then on the error stream (before, a file named '-').
        Process piped = new ProcessBuilder(AppProcess.javaBin(), "-jar", jar.toString(), "--records", "3", "--out", "-")
                .directory(dir.toFile()).redirectError(dir.resolve("piped.err").toFile()).start();
        String xml = new String(piped.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(piped.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(piped.exitValue()).isZero();
        assertThat(xml).startsWith("<?xml").contains("<person id=\"3\"").endsWith("</persons>\n");
        assertThat(Files.readString(dir.resolve("piped.err"))).contains("wrote 3 records").contains("to standard output");
        assertThat(dir.resolve("-")).doesNotExist();
    }

    @Test
    void datagenOnATerminalDrawsProgressOnStderrOnlyAndNoProgressTurnsItOff() throws Exception {
        Path jar = Path.of("..", "datagen", "target", "datagen.jar").toAbsolutePath().normalize();
        // util-linux's script gives the child a pseudo-terminal, so System.console() is not null (it
        // needs stdin and stdout on a terminal); stderr goes to a file, so the two can be told apart.
        String stdout = onTerminal(jar, "t.xml", "t.err", "");
        assertThat(Files.readString(dir.resolve("t.err"))).contains("\r[").contains("100% 20000/20000 records");
        assertThat(stdout).doesNotContain("\r[").contains("wrote 20000 records");

        String forcedOff = onTerminal(jar, "n.xml", "n.err", " --no-progress");
        assertThat(Files.readString(dir.resolve("n.err"))).doesNotContain("\r[").doesNotContain("records/s");
        assertThat(forcedOff).contains("wrote 20000 records");
    }

    private String onTerminal(Path jar, String xml, String stderrFile, String extra) throws Exception {
        String inner = AppProcess.javaBin() + " -jar " + jar + " --records 20000 --out " + xml + extra + " 2> " + stderrFile;
        Process p = new ProcessBuilder("script", "-qec", inner, "/dev/null").directory(dir.toFile())
                .redirectErrorStream(true).start();
        p.getOutputStream().close();
        String terminal = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(terminal).isZero();
        return terminal;
    }

    @Test
    void invalidSettingsAndMissingTopicsGiveClearErrors() throws Exception {
        Result badKey = run("config", "-s", "page.max.record=5");
        assertThat(badKey.exit()).isEqualTo(2);
        assertThat(badKey.stderr()).contains("page.max.record").contains("did you mean page.max.records");

        Result noTopic = run("ingest", "nothing.xml");
        assertThat(noTopic.exit()).isEqualTo(2);
        assertThat(noTopic.stderr()).contains("topic");

        // Checked before Kafka is asked: the broker's refusal came out as the topic never becoming ready (exit 4).
        Result badTopic = run("ingest", "nothing.xml", "--topic", "a b");
        assertThat(badTopic.exit()).isEqualTo(2);
        assertThat(badTopic.stderr()).contains("topic name 'a b' has ' ' at 2");
        Result badServers = run("read", "--topic", "t", "--bootstrap-servers", "nohostport");
        assertThat(badServers.exit()).isEqualTo(2);
        assertThat(badServers.stderr()).contains("'nohostport' is not host:port").doesNotContain("\tat ");

        // Nobody listens there: Kafka is unavailable (exit 4), in the time the setting gives, without a stack trace.
        // Before, read gave exit 1 with a trace, and ingest waited out the admin client's own 60 s after the timeout.
        String nobody = "127.0.0.1:" + freePort();
        Result readAway = run("read", "--topic", "t", "--bootstrap-servers", nobody, "-s", "topic.ready.timeout.ms=2000");
        assertThat(readAway.exit()).as(readAway.stderr()).isEqualTo(4);
        assertThat(readAway.stderr()).contains("did not say within 2000 ms which partitions topic t has")
                .contains("(setting: topic.ready.timeout.ms)").doesNotContain("\tat ");
        Files.writeString(dir.resolve("one.xml"), "<persons xmlns=\"urn:xmlingest:sample:persons\"/>");
        long t0 = System.nanoTime();
        Result ingestAway = run("ingest", "one.xml", "--topic", "t", "--bootstrap-servers", nobody,
                "-s", "topic.ready.timeout.ms=2000");
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0);
        assertThat(ingestAway.exit()).as(ingestAway.stderr()).isEqualTo(4);
        assertThat(ingestAway.stderr()).contains("within 2000 ms").contains("(setting: topic.ready.timeout.ms)");
        // The behaviour under test is the timeout being kept; 45 s leaves a loaded machine room, and the old
        // wait took at least 60.
        assertThat(seconds).as("seconds to give up").isLessThan(45);

        Result fromEnv = runWith(Map.of("XMLINGEST_LOG_LEVEL", "WARN", "XMLINGEST_PAGE_MAX_RECORDS", "77"), "config");
        assertThat(fromEnv.exit()).as(fromEnv.stderr()).isZero();
        assertThat(fromEnv.stdout()).contains("page.max.records = 77  [environment]");

        Result badEnv = runWith(Map.of("XMLINGEST_PAGE_MAX_RECORD", "77"), "config");
        assertThat(badEnv.exit()).isEqualTo(2);
        assertThat(badEnv.stderr()).contains("XMLINGEST_PAGE_MAX_RECORD");

        Result negative = run("read", "--topic", "t", "--max", "-1");
        assertThat(negative.exit()).isEqualTo(2);
        assertThat(negative.stderr()).contains("--max must be 0 or more, not -1");

        // The option names a place that cannot be written: a usage error naming it, as other options' are.
        Result unwritable = run("schema", "--out", "no-such-dir/x.json");
        assertThat(unwritable.exit()).isEqualTo(2);
        assertThat(unwritable.stderr()).contains("cannot write the schema to ")
                .contains("no-such-dir/x.json: no such file or directory (setting: --out)").doesNotContain("\tat ");

        Result help = run("ingest", "--help");
        assertThat(help.exit()).isZero();
        assertThat(String.join("\n", help.stdout())).contains("Examples:").contains("--bootstrap-servers");
    }

    private static Set<Long> uniqueIds(List<String> lines) {
        Set<Long> ids = new HashSet<>();
        for (String line : lines) {
            Matcher m = ID.matcher(line);
            assertThat(m.find()).as(line).isTrue();
            ids.add(Long.parseLong(m.group(1)));
        }
        return ids;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
