package io.xmlingest.app.worker;

import static io.xmlingest.app.worker.WorkerHarness.await;
import static io.xmlingest.app.worker.WorkerHarness.header;
import static io.xmlingest.app.worker.WorkerHarness.report;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import io.xmlingest.app.TestBroker;
import io.xmlingest.app.cli.Main;
import io.xmlingest.app.http.Health;
import io.xmlingest.app.http.HttpEndpoints;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.IngestException;
import io.xmlingest.core.pipeline.FileIdentity;
import io.xmlingest.core.publish.KafkaClientSettings;
import io.xmlingest.core.publish.MessageHeaders;
import io.xmlingest.datagen.DatagenCommand;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** The worker in this JVM against a real broker: the inbox lifecycle, exactly once, dead letters, failures, stop. */
class WorkerIT {

    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final long SEED = 11;
    private static final double INVALID = 0.02;

    @TempDir
    static Path data;
    static Path persons;

    @TempDir
    Path inbox;

    @BeforeAll
    static void generate() throws Exception {
        persons = DatagenCommand.generate(data.resolve("persons-3000.xml"), 3000, SEED, INVALID);
    }

    private static long invalidCount(long records) {
        long n = 0;
        for (long i = 0; i < records; i++) {
            n += DatagenCommand.isInvalid(i, SEED, INVALID) ? 1 : 0;
        }
        return n;
    }

    private static Logger workerLogger() {
        return (Logger) LoggerFactory.getLogger(Worker.class);
    }

    /** What the worker logs from now on, until the caller detaches it from {@link #workerLogger()}. */
    private static ListAppender<ILoggingEvent> workerLog() {
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        workerLogger().addAppender(lines);
        return lines;
    }

    /**
     * What {@code appender} holds now. The worker's threads append while the test reads, and reading
     * its list as it grew threw ConcurrentModificationException: the copy is taken under the lock
     * the appender appends under.
     */
    private static List<ILoggingEvent> logged(ListAppender<ILoggingEvent> appender) {
        synchronized (appender) {
            return List.copyOf(appender.list);
        }
    }

    private static Set<Long> indexes(List<ConsumerRecord<byte[], byte[]>> records) {
        Set<Long> seen = new HashSet<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            assertThat(seen.add(header(r, MessageHeaders.RECORD_INDEX))).as("record index published once").isTrue();
        }
        return seen;
    }

    @Test
    void aDroppedFileIsPublishedOnceWithDeadLettersStatusEventsAndAReport() throws Exception {
        WorkerHarness h = new WorkerHarness(TestBroker.bootstrapServers(), inbox);
        long invalid = invalidCount(3000);
        assertThat(invalid).isPositive();
        try (WorkerHarness.Running w = h.start()) {
            h.drop(persons, "batch-1.xml");
            await("batch-1.xml in done/", WAIT, () -> Files.exists(h.done("batch-1.xml")));
        }
        Set<Long> published = indexes(h.records());
        assertThat(published).hasSize((int) (3000 - invalid));
        for (long i = 0; i < 3000; i++) {
            assertThat(published.contains(i)).as("record %d published iff valid", i)
                    .isEqualTo(!DatagenCommand.isInvalid(i, SEED, INVALID));
        }
        List<JsonNode> dead = h.deadLetters();
        assertThat(dead).hasSize((int) invalid);
        JsonNode first = dead.get(0);
        assertThat(first.get("file").asText()).isEqualTo("batch-1.xml");
        assertThat(DatagenCommand.isInvalid(first.get("recordIndex").asLong(), SEED, INVALID)).isTrue();
        assertThat(first.get("position").get("line").asInt()).isPositive();
        assertThat(first.get("error").asText()).startsWith("record does not bind");
        assertThat(first.get("rawXml").asText()).startsWith("<person").endsWith("</person>");
        byte[] bytes = Files.readAllBytes(h.done("batch-1.xml"));
        String atOffset = new String(bytes, (int) first.get("byteOffset").asLong(), first.get("byteLength").asInt(),
                StandardCharsets.UTF_8);
        assertThat(atOffset).isEqualTo(first.get("rawXml").asText());

        List<JsonNode> status = h.status();
        assertThat(status).extracting(s -> s.get("event").asText()).containsExactly("started", "completed");
        JsonNode completed = status.get(1);
        assertThat(completed.get("records").asLong()).isEqualTo(3000 - invalid);
        assertThat(completed.get("deadLetters").asLong()).isEqualTo(invalid);
        assertThat(completed.get("sha256").asText()).hasSize(64);
        assertThat(status).as("a plain file has no inflated size").noneMatch(e -> e.has("inflatedBytes"));

        JsonNode report = report(h.done("batch-1.xml"));
        assertThat(report.get("outcome").asText()).isEqualTo("completed");
        assertThat(report.get("records").asLong()).isEqualTo(3000 - invalid);
        assertThat(report.get("deadLetters").asLong()).isEqualTo(invalid);
        assertThat(report.get("pages").asLong()).isEqualTo((3000 - invalid + 99) / 100);
        assertThat(report.get("bytes").asLong()).isEqualTo(Files.size(persons));
        assertThat(Files.list(inbox.resolve("processing")).flatMap(WorkerIT::listQuietly).toList()).isEmpty();
    }

    private static java.util.stream.Stream<Path> listQuietly(Path dir) {
        try {
            return Files.list(dir);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * The record topic deleted under a running worker: its producer waits for the topic for ever, and the worker said
     * only that Kafka had not acknowledged anything, though the broker answered. Health and the log now name the topic;
     * created again, it takes the file's records.
     */
    @Test
    void aRecordTopicDeletedUnderTheWorkerIsNamedRatherThanTakenForKafkaBeingDown() throws Exception {
        WorkerHarness h = new WorkerHarness(TestBroker.bootstrapServers(), inbox);
        Logger checkLogger = (Logger) LoggerFactory.getLogger(MissingTopics.class);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        checkLogger.addAppender(lines);
        String said = "topic " + h.topic + " does not exist, though Kafka answers";
        try (WorkerHarness.Running w = h.start();
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestBroker.bootstrapServers()))) {
            await("ready", WAIT, () -> w.worker().health().ready());
            admin.deleteTopics(List.of(h.topic)).all().get(30, java.util.concurrent.TimeUnit.SECONDS);
            h.drop(persons, "orphan.xml");
            await("health naming the missing topic", WAIT,
                    () -> String.valueOf(w.worker().health().checks().get("kafka")).contains(said));
            assertThat(w.worker().health().ready()).isFalse();
            assertThat(logged(lines)).anySatisfy(e -> assertThat(e.getFormattedMessage()).startsWith(said));
            admin.createTopics(List.of(new NewTopic(h.topic, java.util.Optional.empty(), java.util.Optional.empty())))
                    .all().get(30, java.util.concurrent.TimeUnit.SECONDS);
            await("orphan.xml in done/", WAIT, () -> Files.exists(h.done("orphan.xml")));
        } finally {
            checkLogger.detachAppender(lines);
        }
        assertThat(h.records()).hasSize((int) (3000 - invalidCount(3000)));
    }

    /**
     * A finished file that cannot be moved to done/ is tried again every second; its "moving it" line was logged at
     * each try, one a second for as long as the folder stayed unwritable, where the inbox's warning comes once.
     */
    @Test
    void aFinishedFileThatCannotBeMovedIsSaidOnceAndMovedWhenTheFolderWorksAgain() throws Exception {
        WorkerHarness h = new WorkerHarness(TestBroker.bootstrapServers(), inbox);
        ListAppender<ILoggingEvent> lines = workerLog();
        try (WorkerHarness.Running w = h.start()) {
            // A folder, not empty, where the file's report goes: the report cannot replace it, root or not (chattr +i
            // on done/, as a user met it, needs a file system that has it).
            Path blocker = Files.createDirectories(h.done("stuck.xml.report.json").resolve("in-the-way"));
            h.drop(persons, "stuck.xml");
            await("stuck.xml completed", WAIT, () -> h.status().stream()
                    .anyMatch(s -> s.get("event").asText().equals("completed")));
            java.util.function.Supplier<Long> said = () -> logged(lines).stream().filter(e -> e.getFormattedMessage()
                    .equals("stuck.xml was completed before but not moved out of the inbox; moving it")).count();
            await("the move tried again", WAIT, () -> said.get() >= 1);
            Thread.sleep(4000); // four tries more, at one a second
            assertThat(said.get()).isEqualTo(1);
            Files.delete(blocker);
            Files.delete(blocker.getParent());
            await("stuck.xml in done/", WAIT, () -> Files.exists(h.done("stuck.xml")));
        } finally {
            workerLogger().detachAppender(lines);
        }
        assertThat(h.records()).hasSize((int) (3000 - invalidCount(3000)));
    }

    @Test
    void theSameContentDroppedAgainPublishesNothingAndAChangedFileUnderAnOldNameIsNew() throws Exception {
        WorkerHarness h = new WorkerHarness(TestBroker.bootstrapServers(), inbox);
        Path changed = data.resolve("changed.xml");
        try (WorkerHarness.Running w = h.start()) {
            h.drop(persons, "a.xml");
            await("a.xml done", WAIT, () -> Files.exists(h.done("a.xml")));
            h.drop(persons, "a-again.xml");
            await("a-again.xml done", WAIT, () -> Files.exists(h.done("a-again.xml")));
            Files.writeString(changed, Files.readString(persons).replace("</persons>", "<!-- one more comment --></persons>"));
            h.drop(changed, "a.xml");
            await("the changed a.xml done", WAIT, () -> {
                try (var s = Files.list(h.done("a.xml").getParent())) {
                    return s.filter(p -> p.getFileName().toString().startsWith("a.xml.") && !p.toString().endsWith(".json"))
                            .count() == 1;
                } catch (java.io.IOException e) {
                    return false;
                }
            });
        }
        assertThat(report(h.done("a-again.xml")).get("outcome").asText()).isEqualTo("already_ingested");
        long valid = 3000 - invalidCount(3000);
        // Twice: the original and the changed file, which is a new file; the duplicate added nothing.
        assertThat(h.records()).hasSize((int) (2 * valid));
        assertThat(h.status()).extracting(s -> s.get("event").asText())
                .containsExactly("started", "completed", "started", "completed");
        assertThat(h.status().get(0).get("fileId").asText()).isNotEqualTo(h.status().get(2).get("fileId").asText());
    }

    /**
     * A file that completed with not one record, under a record.element that matched nothing in it
     * (one record a file, so nothing repeats to tell): dropped again after the setting is fixed, its
     * content is read again, not taken for ingested, and its record is published once.
     */
    @Test
    void aFileThatHeldNoRecordIsReadAgainWhenDroppedAgain() throws Exception {
        WorkerHarness h = new WorkerHarness(TestBroker.bootstrapServers(), inbox,
                "record.element", "{urn:xmlingest:sample:persons}persn");
        Path single = data.resolve("single.xml");
        Files.writeString(single, """
                <?xml version="1.0"?>
                <persons xmlns="urn:xmlingest:sample:persons">
                <person id="777"><firstName>A</firstName><lastName>B</lastName><email>a@x.org</email>\
                <birthDate>1960-01-01</birthDate><active>true</active><salary>10.50</salary><phone type="home">+1</phone>\
                <address><street>s</street><city>c</city><postalCode>1</postalCode><country>PT</country></address></person>
                </persons>
                """);
        try (WorkerHarness.Running w = h.start()) {
            h.drop(single, "single.xml");
            await("single.xml done", WAIT, () -> Files.exists(h.done("single.xml")));
        }
        JsonNode first = report(h.done("single.xml"));
        assertThat(first.get("outcome").asText()).isEqualTo("completed");
        assertThat(first.get("records").asLong()).isZero();
        assertThat(first.get("note").asText()).startsWith("it holds no {urn:xmlingest:sample:persons}persn element "
                + "(setting record.element)");
        h.settings.remove("record.element");
        try (WorkerHarness.Running w = h.start()) {
            h.drop(single, "single-again.xml");
            await("single-again.xml done", WAIT, () -> Files.exists(h.done("single-again.xml")));
            // Read once more under the same settings, it has its record already: now it is ingested.
            h.drop(single, "single-thrice.xml");
            await("single-thrice.xml done", WAIT, () -> Files.exists(h.done("single-thrice.xml")));
        }
        JsonNode again = report(h.done("single-again.xml"));
        assertThat(again.get("outcome").asText()).isEqualTo("completed");
        assertThat(again.get("records").asLong()).isEqualTo(1);
        assertThat(report(h.done("single-thrice.xml")).get("outcome").asText()).isEqualTo("already_ingested");
        assertThat(h.records()).hasSize(1);
        assertThat(h.status()).extracting(e -> e.get("event").asText()).containsExactly("started", "completed", "completed");
        assertThat(h.status().get(2).get("records").asLong()).isEqualTo(1);
    }

    /**
     * A record whose element is misspelt is no record: it was passed over with a warning in the log
     * alone. The completed event counts it by name, and the report says so.
     */
    @Test
    void whatACompletedFilePassedOverIsInItsEventAndReport() throws Exception {
        WorkerHarness h = new WorkerHarness(TestBroker.bootstrapServers(), inbox);
        String person = "<person id=\"%d\"><firstName>A</firstName><lastName>B</lastName><email>a@x.org</email>"
                + "<birthDate>1960-01-01</birthDate><active>true</active><salary>10.50</salary><phone type=\"home\">+1</phone>"
                + "<address><street>s</street><city>c</city><postalCode>1</postalCode><country>PT</country></address></person>\n";
        Path file = Files.writeString(data.resolve("misspelt.xml"), "<persons xmlns=\"urn:xmlingest:sample:persons\">\n"
                + person.formatted(1) + person.formatted(2).replace("person", "persn") + person.formatted(3) + "</persons>\n");
        try (WorkerHarness.Running w = h.start()) {
            h.drop(file, "misspelt.xml");
            await("misspelt.xml done", WAIT, () -> Files.exists(h.done("misspelt.xml")));
        }
        assertThat(indexes(h.records())).hasSize(2);
        JsonNode completed = h.status().get(1);
        assertThat(completed.get("event").asText()).isEqualTo("completed");
        assertThat(completed.get("passedOver").get("{urn:xmlingest:sample:persons}persn").asLong()).isEqualTo(1);
        assertThat(completed.get("passedOver").size()).isEqualTo(1);
        assertThat(report(h.done("misspelt.xml")).get("note").asText()).isEqualTo("1 element beside its records was "
                + "passed over in this run, not being {urn:xmlingest:sample:persons}person: "
                + "{urn:xmlingest:sample:persons}persn (1); a record with a misspelt or wrongly qualified name is one of "
                + "them (setting: record.element)");
    }

    /**
     * Two workers on one inbox, each with a copy of one content: the one that did not get hold of the
     * content waits, publishing nothing, until the other copy has let go of it as it left processing/,
     * and then finds the content ingested. Before, each took the checkpoint (none yet, or the other's
     * in progress) for its own, and the content was published twice.
     */
    @Test
    void twoWorkersEachWithACopyOfOneContentPublishItOnce() throws Exception {
        WorkerHarness a = new WorkerHarness(TestBroker.bootstrapServers(), inbox);
        WorkerHarness b = new WorkerHarness(TestBroker.bootstrapServers(), inbox);
        b.settings.putAll(a.settings);
        b.settings.put("worker.id", a.settings.get("worker.id") + "-b");
        // Worker a's claim, holding its content as a worker holds what it takes, as if a had stopped before publishing
        // anything.
        Path first = Files.createDirectories(inbox.resolve("processing").resolve(a.settings.get("worker.id")))
                .resolve("one.xml");
        Files.copy(persons, first);
        assertThat(new Inbox(inbox, a.settings.get("worker.id"), 0, java.time.Clock.systemUTC())
                .holdContent(first, FileIdentity.sha256(persons))).isEmpty();
        ListAppender<ILoggingEvent> lines = workerLog();
        try (WorkerHarness.Running rb = b.start()) {
            b.drop(persons, "two.xml");
            await("two.xml waiting for one.xml", WAIT, () -> logged(lines).stream().anyMatch(e -> e.getFormattedMessage()
                    .startsWith("two.xml has the content of one.xml (file id " + FileIdentity.sha256(persons)
                            + "), which worker " + a.settings.get("worker.id") + " took first: it waits")));
            assertThat(inbox.resolve("processing").resolve(b.settings.get("worker.id")).resolve("two.xml")).exists();
            assertThat(a.records()).as("nothing published while it waits").isEmpty();
            assertThat(rb.worker().metrics().scrape()).contains("xmlingest_file_waiting{file=\"two.xml\"} 1");
            try (WorkerHarness.Running ra = a.start()) {
                await("one.xml done", WAIT, () -> Files.exists(a.done("one.xml")));
                await("two.xml done", WAIT, () -> Files.exists(b.done("two.xml")));
            }
            assertThat(rb.worker().metrics().scrape()).doesNotContain("xmlingest_file_waiting{");
        } finally {
            workerLogger().detachAppender(lines);
        }
        assertThat(indexes(a.records())).hasSize((int) (3000 - invalidCount(3000)));
        assertThat(report(a.done("one.xml")).get("outcome").asText()).isEqualTo("completed");
        assertThat(report(b.done("two.xml")).get("outcome").asText()).isEqualTo("already_ingested");
        assertThat(a.status()).extracting(e -> e.get("event").asText()).containsExactly("started", "completed");
    }

    /**
     * worker.completed.retention.ms: within it the same content is already ingested; after it the
     * file's checkpoint is deleted on the topic (so a worker started afresh does not know it either)
     * and the same content is ingested as a new file.
     */
    @Test
    void aCompletedFileIsForgottenAfterTheRetentionAndItsContentIsThenNew() throws Exception {
        WorkerHarness h = new WorkerHarness(TestBroker.bootstrapServers(), inbox, "worker.completed.retention.ms", "3600000");
        String fileId = FileIdentity.sha256(persons);
        try (WorkerHarness.Running w = h.start()) {
            h.drop(persons, "a.xml");
            await("a.xml done", WAIT, () -> Files.exists(h.done("a.xml")));
            h.drop(persons, "b.xml");
            await("b.xml done", WAIT, () -> Files.exists(h.done("b.xml")));
            h.clock.advance(Duration.ofHours(2));
            await("the checkpoint deleted", WAIT, () -> TestBroker.readCommitted(h.bootstrap, h.topic + ".checkpoints")
                    .stream().anyMatch(r -> r.value() == null && fileId.equals(new String(r.key(), StandardCharsets.UTF_8))));
        }
        assertThat(report(h.done("b.xml")).get("outcome").asText()).isEqualTo("already_ingested");
        try (WorkerHarness.Running w = h.start()) {
            h.drop(persons, "c.xml");
            await("c.xml done", WAIT, () -> Files.exists(h.done("c.xml")));
        }
        assertThat(report(h.done("c.xml")).get("outcome").asText()).isEqualTo("completed");
        long valid = 3000 - invalidCount(3000);
        assertThat(h.records()).hasSize((int) (2 * valid));
        assertThat(h.status()).extracting(st -> st.get("event").asText())
                .containsExactly("started", "completed", "started", "completed");
    }

    @Test
    void aFileChangedBetweenACrashAndTheRestartIsRefused() throws Exception {
        WorkerHarness h = new WorkerHarness(TestBroker.bootstrapServers(), inbox);
        String id = h.settings.get("worker.id");
        Path processing = Files.createDirectories(inbox.resolve("processing").resolve(id));
        Files.copy(persons, processing.resolve("crashed.xml"));
        // What a worker that died mid-file leaves: the file, and the identity it began with.
        Files.writeString(processing.resolve(".crashed.xml.fileid"), "0".repeat(64));
        try (WorkerHarness.Running w = h.start()) {
            await("crashed.xml in failed/", WAIT, () -> Files.exists(h.failed("crashed.xml")));
        }
        JsonNode report = report(h.failed("crashed.xml"));
        assertThat(report.get("outcome").asText()).isEqualTo("refused");
        assertThat(report.get("error").get("reason").asText()).contains("changed since its ingestion began",
                "0".repeat(64));
        assertThat(h.records()).isEmpty();
    }

    @Test
    void aStopWhileKafkaCannotBeReachedDoesNotWaitForIt() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        WorkerHarness h = new WorkerHarness("127.0.0.1:" + port, inbox);
        WorkerHarness.Running w = h.start();
        // Until the worker waits for its session, which would take up to topic.ready.timeout.ms (60 s) to fail: a stop
        // before that would pass without testing anything.
        await("the worker waiting for Kafka", WAIT, () -> Arrays.stream(w.thread().getStackTrace())
                .anyMatch(f -> f.getMethodName().equals("openedUnlessStopped")));
        // It says why files are not being taken within seconds, not when the attempt gives up a minute later.
        await("the health check naming the wait", Duration.ofSeconds(20), () -> w.worker().health().checks().get("kafka")
                .equals("DOWN: waiting for Kafka at 127.0.0.1:" + port + ", which has not answered yet"));
        assertThat(w.worker().health().ready()).isFalse();
        long t0 = System.nanoTime();
        w.worker().requestStop();
        // Nothing is in hand while the session opens: before, the stop waited for the opening to time out.
        assertThat(w.worker().awaitStopped(15_000)).as("stopped without waiting for Kafka").isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(15));
        w.thread().join(5_000);
        assertThat(w.thread().isAlive()).isFalse();
    }

    /**
     * Another producer takes the worker's transactional id mid-file, as a second worker started with the same
     * worker.id would. The worker says so (it had said Kafka was unavailable), takes its id back, and the file
     * still ends with every record exactly once.
     */
    @Test
    void aWorkerFencedByAnotherProducerWithItsIdSaysSoAndLosesNothing() throws Exception {
        Path big = DatagenCommand.generate(data.resolve("persons-20k-fenced.xml"), 20_000, 11, 0.0);
        WorkerHarness h = new WorkerHarness(TestBroker.bootstrapServers(), inbox, "page.max.records", "50",
                "commit.interval.ms", "0");
        AtomicReference<String> seen = new AtomicReference<>("");
        // The health check says it from the fence until the session is open again, a second or so; a test thread held
        // off the CPU that long would miss it, and then takes the worker's warning, which says the same.
        ListAppender<ILoggingEvent> warnings = workerLog();
        try (WorkerHarness.Running w = h.start()) {
            h.drop(big, "big.xml");
            await("some pages committed", WAIT, () -> w.worker().metrics().scrape()
                    .matches("(?s).*xmlingest_records_total [1-9][0-9]{2,}.*"));
            Properties p = new Properties();
            p.put("bootstrap.servers", h.bootstrap);
            p.put("transactional.id", "xmlingest-" + h.settings.get("worker.id"));
            p.put("key.serializer", ByteArraySerializer.class.getName());
            p.put("value.serializer", ByteArraySerializer.class.getName());
            try (KafkaProducer<byte[], byte[]> usurper = new KafkaProducer<>(p)) {
                usurper.initTransactions(); // fences the worker's producer
            }
            await("the worker says it was fenced", WAIT, () -> {
                String kafka = w.worker().health().checks().get("kafka");
                if (kafka.contains("is a second worker running with worker.id=")) {
                    seen.set(kafka);
                }
                return !seen.get().isEmpty() || Files.exists(h.done("big.xml"));
            });
            await("big.xml done", WAIT, () -> Files.exists(h.done("big.xml")));
        } finally {
            workerLogger().detachAppender(warnings);
        }
        if (seen.get().isEmpty()) {
            logged(warnings).stream().map(ILoggingEvent::getFormattedMessage)
                    .filter(m -> m.contains("is a second worker running with worker.id=")).findFirst().ifPresent(seen::set);
        }
        // Fenced at its next send, or its commit in flight aborted under it: either way the message names worker.id.
        assertThat(seen.get()).contains("another producer").contains("is a second worker running with worker.id="
                + h.settings.get("worker.id") + "?");
        List<ConsumerRecord<byte[], byte[]>> records = h.records();
        assertThat(indexes(records)).hasSize(20_000);
        assertThat(records).hasSize(20_000);
    }

    /**
     * A gzip-compressed file is read from a plain copy made beside it in processing/: a stop mid-file
     * resumes in that copy, every record is published once, and the file ends in done/ as dropped,
     * its copy deleted.
     */
    @Test
    void aGzipFileIsIngestedOnceAcrossAStopAndEndsInDoneAsDropped() throws Exception {
        Path plain = DatagenCommand.generate(data.resolve("persons-20k-gz.xml"), 20_000, 13, 0.0);
        Path gz = data.resolve("persons-20k.xml.gz");
        try (java.io.OutputStream out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(gz))) {
            Files.copy(plain, out);
        }
        WorkerHarness h = new WorkerHarness(TestBroker.bootstrapServers(), inbox, "page.max.records", "50",
                "commit.interval.ms", "0");
        Path processing = inbox.resolve("processing").resolve(h.settings.get("worker.id"));
        // Named for the content it holds: the file's identity is that of its inflated content.
        Path copy = io.xmlingest.core.split.CompressedInput.copyBeside(processing.resolve("persons.xml.gz"),
                FileIdentity.sha256(plain));
        try (WorkerHarness.Running w = h.start()) {
            h.drop(gz, "persons.xml.gz");
            await("some pages committed", WAIT, () -> w.worker().metrics().scrape()
                    .matches("(?s).*xmlingest_records_total [1-9][0-9]{2,}.*"));
        }
        assertThat(h.done("persons.xml.gz")).doesNotExist();
        assertThat(copy).hasSameBinaryContentAs(plain);
        long firstRun = h.records().size();

        try (WorkerHarness.Running w = h.start()) {
            await("persons.xml.gz done", WAIT, () -> Files.exists(h.done("persons.xml.gz")));
        }
        List<ConsumerRecord<byte[], byte[]>> records = h.records();
        assertThat(firstRun).isLessThan(20_000);
        assertThat(indexes(records)).hasSize(20_000);
        assertThat(records).hasSize(20_000);
        assertThat(h.done("persons.xml.gz")).hasSameBinaryContentAs(gz);
        JsonNode report = report(h.done("persons.xml.gz"));
        assertThat(report.get("outcome").asText()).isEqualTo("completed");
        assertThat(report.get("bytes").asLong()).isEqualTo(Files.size(gz));
        assertThat(report.get("fileId").asText()).isEqualTo(FileIdentity.sha256(plain));
        assertThat(WorkerHarness.list(processing)).isEmpty();
        // The started event of the first run, the completed of the resumed one: both give both sizes.
        List<JsonNode> events = h.status();
        assertThat(events).extracting(e -> e.get("event").asText()).containsExactly("started", "completed");
        assertThat(events).allSatisfy(e -> {
            assertThat(e.get("bytes").asLong()).isEqualTo(Files.size(gz));
            assertThat(e.get("inflatedBytes").asLong()).isEqualTo(Files.size(plain));
        });

        // The same XML dropped plain, or compressed another way, is the same file: nothing is published again.
        Path again = data.resolve("persons-20k-again.xml.gz");
        try (java.io.OutputStream out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(again))) {
            out.write(Files.readAllBytes(plain), 0, 1000);
        }
        try (java.io.OutputStream out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(again,
                java.nio.file.StandardOpenOption.APPEND))) {
            byte[] all = Files.readAllBytes(plain);
            out.write(all, 1000, all.length - 1000);
        }
        try (WorkerHarness.Running w = h.start()) {
            h.drop(plain, "plain.xml");
            h.drop(again, "two-members.xml.gz");
            await("both done", WAIT, () -> Files.exists(h.done("plain.xml")) && Files.exists(h.done("two-members.xml.gz")));
        }
        assertThat(report(h.done("plain.xml")).get("outcome").asText()).isEqualTo("already_ingested");
        assertThat(report(h.done("two-members.xml.gz")).get("outcome").asText()).isEqualTo("already_ingested");
        assertThat(h.records()).hasSize(20_000);
        assertThat(WorkerHarness.list(processing)).isEmpty();
    }

    /**
     * A zip archive of one file, as macOS's Finder makes it (a folder, the file, metadata under
     * __MACOSX/), is ingested as that file; one of several files fails and publishes nothing; the
     * same XML dropped plain is the same file.
     */
    @Test
    void aZipArchiveOfOneFileIsIngestedAsItsFileAndOneOfSeveralFails() throws Exception {
        Path plain = DatagenCommand.generate(data.resolve("persons-3k-zip.xml"), 3_000, 17, 0.0);
        Path zip = data.resolve("persons.zip");
        Path two = data.resolve("two.zip");
        writeZip(zip, "export/", null, "export/persons.xml", plain, "export/.DS_Store", null,
                "__MACOSX/export/._persons.xml", null);
        writeZip(two, "a.xml", plain, "b.xml", plain);
        WorkerHarness h = new WorkerHarness(TestBroker.bootstrapServers(), inbox, "page.max.records", "500");
        Path processing = inbox.resolve("processing").resolve(h.settings.get("worker.id"));
        try (WorkerHarness.Running w = h.start()) {
            h.drop(zip, "persons.zip");
            await("persons.zip done", WAIT, () -> Files.exists(h.done("persons.zip")));
            h.drop(two, "two.zip");
            h.drop(plain, "persons.xml");
            await("two.zip failed and persons.xml done", WAIT,
                    () -> Files.exists(h.failed("two.zip")) && Files.exists(h.done("persons.xml")));
        }
        List<ConsumerRecord<byte[], byte[]>> records = h.records();
        assertThat(indexes(records)).hasSize(3_000);
        assertThat(records).hasSize(3_000);
        JsonNode report = report(h.done("persons.zip"));
        assertThat(report.get("outcome").asText()).isEqualTo("completed");
        assertThat(report.get("fileId").asText()).isEqualTo(FileIdentity.sha256(plain));
        assertThat(h.done("persons.zip")).hasSameBinaryContentAs(zip);
        assertThat(report(h.done("persons.xml")).get("outcome").asText()).isEqualTo("already_ingested");
        assertThat(report(h.failed("two.zip")).get("error").get("reason").asText())
                .isEqualTo("not a readable zip archive: it holds 2 files (a.xml, b.xml), and an archive of one file is "
                        + "read: extract them and drop each file");
        assertThat(h.failed("two.zip")).hasSameBinaryContentAs(two);
        assertThat(WorkerHarness.list(processing)).isEmpty();
    }

    /** Entries as name, then the file whose content it holds, or null for none (a folder, metadata). */
    private static void writeZip(Path zip, Object... entries) throws IOException {
        try (java.util.zip.ZipOutputStream out = new java.util.zip.ZipOutputStream(Files.newOutputStream(zip))) {
            for (int i = 0; i < entries.length; i += 2) {
                out.putNextEntry(new java.util.zip.ZipEntry((String) entries[i]));
                if (entries[i + 1] != null) {
                    Files.copy((Path) entries[i + 1], out);
                }
                out.closeEntry();
            }
        }
    }

    @Test
    void aFileRewrittenInPlaceAfterAStopIsRefusedThoughItKeptItsSize() throws Exception {
        Path big = DatagenCommand.generate(data.resolve("persons-20k-rewritten.xml"), 20_000, 7, 0.0);
        WorkerHarness h = new WorkerHarness(TestBroker.bootstrapServers(), inbox, "page.max.records", "50");
        Path claimed = inbox.resolve("processing").resolve(h.settings.get("worker.id")).resolve("big.xml");
        try (WorkerHarness.Running w = h.start()) {
            h.drop(big, "big.xml");
            await("some pages committed", WAIT, () -> w.worker().metrics().scrape()
                    .matches("(?s).*xmlingest_records_total [1-9][0-9]{2,}.*"));
        }
        assertThat(claimed.resolveSibling(".big.xml.identity")).exists();
        long firstRun = h.records().size();
        long size = Files.size(claimed);
        FileTime recorded = Files.getLastModifiedTime(claimed);
        try (RandomAccessFile raf = new RandomAccessFile(claimed.toFile(), "rw")) {
            raf.seek(size - 100);
            int b = raf.read();
            raf.seek(size - 100);
            raf.write(b == 'x' ? 'y' : 'x');
        }
        // The write's own time stamp can fall within the recorded one's clock tick; a real edit comes later.
        Files.setLastModifiedTime(claimed, FileTime.from(recorded.toInstant().plusSeconds(1)));
        try (WorkerHarness.Running w = h.start()) {
            await("big.xml in failed/", WAIT, () -> Files.exists(h.failed("big.xml")));
        }
        assertThat(Files.size(h.failed("big.xml"))).isEqualTo(size);
        JsonNode report = report(h.failed("big.xml"));
        assertThat(report.get("outcome").asText()).isEqualTo("refused");
        assertThat(h.records()).hasSize((int) firstRun);
        // The old content's file id ends with a failed event: before, it had only 'started', and a consumer waiting
        // for its end waited for ever. The report is of the new content, of which nothing was published.
        String oldId = FileIdentity.sha256(big);
        List<JsonNode> oldEvents = h.status().stream().filter(st -> oldId.equals(st.get("fileId").asText())).toList();
        assertThat(oldEvents).extracting(st -> st.get("event").asText()).containsExactly("started", "failed");
        assertThat(oldEvents.get(1).get("records").asLong()).isEqualTo(firstRun);
        assertThat(oldEvents.get(1).get("reason").asText()).contains("changed since its ingestion began");
        assertThat(report.get("fileId").asText()).isNotEqualTo(oldId);
        assertThat(report.get("records").asLong()).isZero();
        assertThat(report.get("error").get("reason").asText())
                .contains(firstRun + " records of the old content were committed, and its file id now has a failed event");
        assertThat(claimed.resolveSibling(".big.xml.identity")).doesNotExist();
    }

    @Test
    void aFileThatBreaksOffMidwayCommitsWhatCameBeforeFailsAndTheWorkerGoesOn() throws Exception {
        WorkerHarness h = new WorkerHarness(TestBroker.bootstrapServers(), inbox);
        String text = Files.readString(persons);
        int cut = text.indexOf("<person", text.length() / 2) + 25;
        Path broken = Files.writeString(data.resolve("broken.xml"), text.substring(0, cut) + "<oops></persons>\n");
        try (WorkerHarness.Running w = h.start()) {
            h.drop(broken, "broken.xml");
            h.drop(persons, "good.xml");
            await("good.xml done", WAIT, () -> Files.exists(h.done("good.xml")));
            await("broken.xml failed", WAIT, () -> Files.exists(h.failed("broken.xml")));
        }
        JsonNode report = report(h.failed("broken.xml"));
        assertThat(report.get("outcome").asText()).isEqualTo("failed");
        JsonNode error = report.get("error");
        assertThat(error.get("line").asInt()).isPositive();
        assertThat(error.get("message").asText()).contains("broken.xml", "record index");
        long before = error.get("recordIndex").asLong();
        List<JsonNode> status = h.status();
        JsonNode failed = status.stream().filter(s -> s.get("event").asText().equals("failed")).findFirst().orElseThrow();
        assertThat(failed.get("file").asText()).isEqualTo("broken.xml");
        assertThat(failed.get("position").get("recordIndex").asLong()).isEqualTo(before);
        long brokenRecords = h.records().stream()
                .filter(r -> new String(r.headers().lastHeader(MessageHeaders.FILE).value(), StandardCharsets.UTF_8)
                        .equals("broken.xml")).count();
        long validBefore = 0;
        for (long i = 0; i < before; i++) {
            validBefore += DatagenCommand.isInvalid(i, SEED, INVALID) ? 0 : 1;
        }
        assertThat(brokenRecords).isEqualTo(validBefore);
        assertThat(report(h.done("good.xml")).get("outcome").asText()).isEqualTo("completed");
    }

    @Test
    void aRecordWithAValueLargerThanKafkaTakesIsOneSmallDeadLetterAndTheWorkerGoesOn() throws Exception {
        // The schema validator's reason quotes the value. Before, the dead letter carrying it outgrew
        // kafka.max.request.size, and the worker took the refusal for Kafka being down: it retried the commit
        // for ever, its inbox stuck.
        WorkerHarness h = new WorkerHarness(TestBroker.bootstrapServers(), inbox,
                "record.schema", Path.of("../ingest-core/src/main/resources/xsd/persons.xsd").toAbsolutePath().toString());
        String text = Files.readString(persons);
        int valid = 0;
        while (DatagenCommand.isInvalid(valid, SEED, INVALID)) {
            valid++;
        }
        int from = 0;
        for (int i = 0; i <= valid; i++) {
            from = text.indexOf("<person ", from + 1);
        }
        String record = text.substring(from, text.indexOf("</person>", from) + "</person>".length());
        String huge = record.replaceFirst("<email>[^<]*</email>", "<email>" + "x@".repeat(600_000) + "</email>");
        int firstRecord = text.indexOf("<person ");
        Path file = Files.writeString(data.resolve("huge-value.xml"),
                text.substring(0, firstRecord) + huge + "\n  " + text.substring(firstRecord));
        long invalid = invalidCount(3000);
        try (WorkerHarness.Running w = h.start()) {
            h.drop(file, "huge-value.xml");
            h.drop(persons, "after.xml");
            await("huge-value.xml in done/", WAIT, () -> Files.exists(h.done("huge-value.xml")));
            await("after.xml in done/", WAIT, () -> Files.exists(h.done("after.xml")));
        }
        List<JsonNode> dead = h.deadLetters();
        assertThat(dead).hasSize((int) (2 * invalid + 1));
        JsonNode first = dead.stream().filter(d -> d.get("file").asText().equals("huge-value.xml")
                && d.get("recordIndex").asLong() == 0).findFirst().orElseThrow();
        assertThat(first.get("error").asText()).startsWith("record is not valid against the schema: cvc-pattern-valid")
                .contains("more characters)")
                .hasSizeLessThan(IngestException.MAX_REASON_CHARS + 100);
        assertThat(first.get("byteLength").asLong()).isGreaterThan(1_200_000);
        assertThat(first.has("rawXml")).as("too large to carry").isFalse();
        assertThat(h.records()).hasSize((int) (2 * (3000 - invalid)));
        assertThat(report(h.done("huge-value.xml")).get("deadLetters").asLong()).isEqualTo(invalid + 1);
    }

    @Test
    void aDeadLetterTheTopicCannotTakeFailsItsFileNamingTheTopicAndTheWorkerGoesOn() throws Exception {
        // A dead-letter topic made with a smaller max.message.bytes than ours. Before, its refusal read as Kafka
        // being down, and the commit was retried for ever.
        WorkerHarness h = new WorkerHarness(TestBroker.bootstrapServers(), inbox);
        String dlq = h.topic + ".dlq";
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestBroker.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(dlq, 1, (short) 1).configs(Map.of("max.message.bytes", "4000"))))
                    .all().get();
        }
        Path clean = DatagenCommand.generate(data.resolve("clean-200.xml"), 200, SEED, 0.0);
        String text = Files.readString(clean);
        byte[] noise = new byte[12_000];
        new java.util.Random(SEED).nextBytes(noise);
        // An unknown element rejects the record; its raw XML, random so that lz4 cannot shrink it, goes with the
        // dead letter.
        int firstRecord = text.indexOf("<person ");
        Path file = Files.writeString(data.resolve("big-dead-letter.xml"), text.substring(0, firstRecord)
                + "<person id=\"0\"><unknown>" + java.util.Base64.getEncoder().encodeToString(noise) + "</unknown></person>\n  "
                + text.substring(firstRecord));
        try (WorkerHarness.Running w = h.start()) {
            h.drop(file, "big-dead-letter.xml");
            h.drop(clean, "after.xml");
            await("big-dead-letter.xml in failed/", WAIT, () -> Files.exists(h.failed("big-dead-letter.xml")));
            await("after.xml in done/", WAIT, () -> Files.exists(h.done("after.xml")));
        }
        JsonNode error = report(h.failed("big-dead-letter.xml")).get("error");
        assertThat(error.get("message").asText()).contains("is too large: the broker refused it", dlq,
                "its limit is the topic's max.message.bytes", "big-dead-letter.xml", "record index 0");
        // kafka.max.request.size (1 MiB) was never the limit at fault; it used to be named.
        assertThat(error.hasNonNull("setting")).isFalse();
        assertThat(report(h.done("after.xml")).get("records").asLong()).isEqualTo(200);
    }

    @Test
    void aStoppedWorkerLeavesTheFileInProcessingAndTheNextOneFinishesItExactlyOnce() throws Exception {
        Path big = DatagenCommand.generate(data.resolve("persons-20k.xml"), 20_000, 5, 0.0);
        WorkerHarness h = new WorkerHarness(TestBroker.bootstrapServers(), inbox, "page.max.records", "50");
        String id = h.settings.get("worker.id");
        try (WorkerHarness.Running w = h.start()) {
            h.drop(big, "big.xml");
            await("some pages committed", WAIT, () -> w.worker().metrics().scrape()
                    .matches("(?s).*xmlingest_records_total [1-9][0-9]{2,}.*"));
        }
        assertThat(inbox.resolve("processing").resolve(id).resolve("big.xml")).exists();
        assertThat(h.done("big.xml")).doesNotExist();
        long firstRun = h.records().size();
        assertThat(firstRun).isBetween(1L, 19_999L);
        try (WorkerHarness.Running w = h.start()) {
            await("big.xml done", WAIT, () -> Files.exists(h.done("big.xml")));
        }
        assertThat(indexes(h.records())).hasSize(20_000);
        assertThat(h.status()).extracting(s -> s.get("event").asText()).containsExactly("started", "completed");
        assertThat(report(h.done("big.xml")).get("records").asLong()).isEqualTo(20_000);
    }

    @Test
    void healthAndMetricsAreServedOverHttp() throws Exception {
        WorkerHarness h = new WorkerHarness(TestBroker.bootstrapServers(), inbox);
        HttpClient client = HttpClient.newHttpClient();
        try (WorkerHarness.Running w = h.start();
             HttpEndpoints http = HttpEndpoints.start("127.0.0.1", 0, w.worker().metrics(), w.worker()::health)) {
            h.drop(persons, "m.xml");
            await("m.xml done", WAIT, () -> Files.exists(h.done("m.xml")));
            HttpResponse<String> health = client.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + http.port() + "/health")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.body()).contains("\"kafka\":\"UP\"");
            String metrics = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + "/metrics"))
                    .build(), HttpResponse.BodyHandlers.ofString()).body();
            long valid = 3000 - invalidCount(3000);
            assertThat(metrics).contains("xmlingest_records_total " + valid, "xmlingest_dead_letters_total " + (3000 - valid),
                    "xmlingest_files_total{outcome=\"completed\"} 1", "xmlingest_phase_seconds_total{phase=\"bind\"}",
                    // There at 0 before the first of its kind, for alerts on its rate.
                    "xmlingest_files_total{outcome=\"failed\"} 0", "xmlingest_files_total{outcome=\"refused\"} 0",
                    "xmlingest_kafka_up 1", "xmlingest_bytes_read_total " + Files.size(persons));
            // The file was preceded by a read of the checkpoint topic to its end, which takes some time however fast.
            Matcher read = Pattern.compile(
                    "xmlingest_phase_seconds_total\\{phase=\"checkpoints\"} (\\S+)").matcher(metrics);
            assertThat(read.find()).as(metrics).isTrue();
            assertThat(Double.parseDouble(read.group(1))).isPositive();
        }
    }

    /**
     * An inbox unmounted under a running worker, leaving the empty folder it was mounted on: unready,
     * naming why, not a crash, and no folders made on the disk beneath; back to work once it is back.
     */
    @Test
    void anUnmountedInboxMakesTheWorkerUnreadyUntilItIsBackAndNothingIsLost() throws Exception {
        Path in = Files.createDirectories(inbox.resolve("mounted"));
        Path volume = inbox.resolve("volume");
        WorkerHarness h = new WorkerHarness(TestBroker.bootstrapServers(), in);
        ListAppender<ILoggingEvent> log = workerLog();
        try (WorkerHarness.Running w = h.start()) {
            await("ready", WAIT, () -> w.worker().health().ready());
            h.drop(persons, "before.xml");
            await("before.xml done", WAIT, () -> Files.exists(h.done("before.xml")));
            // Gone first, then an empty folder where it was: the mount point once its volume is away.
            Files.move(in, volume);
            await("the worker finds the inbox gone", WAIT,
                    () -> w.worker().health().checks().get("inbox").startsWith("DOWN: cannot list"));
            Health away = w.worker().health();
            assertThat(away.ready()).isFalse();
            assertThat(away.live()).as("still live: a restart would find the same inbox").isTrue();
            assertThat(away.checks().get("inbox")).contains(in.toString(), "no such file or directory");
            Files.createDirectory(in);
            await("the worker finds an empty folder in its place", WAIT,
                    () -> w.worker().health().checks().get("inbox").contains("is not the one this worker started with"));
            Thread.sleep(1500);
            try (var beneath = Files.list(in)) {
                assertThat(beneath.toList()).as("nothing made beneath the mount point").isEmpty();
            }
            // Looked at again every second meanwhile: warned of once per cause, not at every look.
            assertThat(logged(log).stream().filter(e -> e.getFormattedMessage().contains("takes no file until it can")))
                    .hasSize(2);
            Files.delete(in);
            Files.move(volume, in);
            await("ready again", WAIT, () -> w.worker().health().ready());
            assertThat(w.worker().health().checks().get("inbox")).isEqualTo("UP");
            // Other content: the same would rightly be already_ingested.
            h.drop(Files.writeString(data.resolve("after-removal.xml"), Files.readString(persons) + "<!-- after -->\n"),
                    "after.xml");
            await("after.xml done", WAIT, () -> Files.exists(h.done("after.xml")));
        } finally {
            workerLogger().detachAppender(log);
        }
        long valid = 3000 - invalidCount(3000);
        assertThat(h.records()).hasSize((int) (2 * valid));
        assertThat(h.status()).extracting(s -> s.get("event").asText())
                .containsExactly("started", "completed", "started", "completed");
    }

    @Test
    void twoWorkersOnOneInboxTakeEachFileOnce() throws Exception {
        WorkerHarness a = new WorkerHarness(TestBroker.bootstrapServers(), inbox);
        WorkerHarness b = new WorkerHarness(TestBroker.bootstrapServers(), inbox);
        // Same topics, their own ids: what two replicas of one deployment would be.
        b.settings.put("topic", a.topic);
        b.settings.put("worker.id", a.settings.get("worker.id") + "-b");
        String text = Files.readString(persons);
        int files = 6;
        try (WorkerHarness.Running wa = a.start(); WorkerHarness.Running wb = b.start()) {
            await("both workers ready", WAIT, () -> wa.worker().health().ready() && wb.worker().health().ready());
            for (int i = 0; i < files; i++) {
                // Distinct content per file, so each is a file of its own.
                Path f = Files.writeString(data.resolve("shared-" + i + ".xml"), text + "<!-- " + i + " -->\n");
                a.drop(f, "shared-" + i + ".xml");
            }
            await("all files done", WAIT, () -> {
                try (var s = Files.list(inbox.resolve("done"))) {
                    return s.filter(p -> !p.toString().endsWith(".json")).count() == files;
                } catch (java.io.IOException e) {
                    return false;
                }
            });
        }
        long valid = 3000 - invalidCount(3000);
        assertThat(a.records()).hasSize((int) (files * valid));
        List<JsonNode> status = a.status();
        assertThat(status.stream().filter(s -> s.get("event").asText().equals("completed")).count()).isEqualTo(files);
        assertThat(status.stream().map(s -> s.get("worker").asText()).distinct().count())
                .as("both workers took files").isEqualTo(2);
    }

    /** Issue 4's end-to-end case: attacks dropped into a running worker fail fast with the reason, and it goes on. */
    @Test
    void hostileFilesEndInFailedWithTheReasonAndTheWorkerGoesOnToTheNextFile() throws Exception {
        WorkerHarness h = new WorkerHarness(TestBroker.bootstrapServers(), inbox);
        StringBuilder dtd = new StringBuilder("<!DOCTYPE persons [<!ENTITY lol \"lol\">");
        dtd.append("<!ENTITY lol1 \"").append("&lol;".repeat(10)).append("\">");
        for (int i = 2; i <= 9; i++) {
            dtd.append("<!ENTITY lol").append(i).append(" \"").append(("&lol" + (i - 1) + ";").repeat(10)).append("\">");
        }
        String first = Files.readString(persons).replaceFirst("(?s)<persons .*", "");
        String body = Files.readString(persons).substring(first.length());
        Path secret = Files.writeString(data.resolve("secret.txt"), "do not read me");
        Path laughs = Files.writeString(data.resolve("laughs.xml"), first + dtd + "]>\n"
                + body.replaceFirst("<firstName>[^<]*</firstName>", "<firstName>&lol9;</firstName>"));
        Path external = Files.writeString(data.resolve("external.xml"), first + "<!DOCTYPE persons [<!ENTITY x SYSTEM \""
                + secret.toUri() + "\">]>\n" + body.replaceFirst("<firstName>[^<]*</firstName>", "<firstName>&x;</firstName>"));
        try (WorkerHarness.Running w = h.start()) {
            for (Path attack : List.of(laughs, external)) {
                String name = attack.getFileName().toString();
                long dropped = System.nanoTime();
                h.drop(attack, name);
                await(name + " in failed/", WAIT, () -> Files.exists(h.failed(name)));
                System.out.printf("%s ended in failed/ %d ms after it was dropped%n", name,
                        (System.nanoTime() - dropped) / 1_000_000);
            }
            h.drop(persons, "good.xml");
            await("good.xml done", WAIT, () -> Files.exists(h.done("good.xml")));
        }
        assertThat(report(h.failed("laughs.xml")).get("error").get("reason").asText()).contains("&lol9;");
        assertThat(report(h.failed("external.xml")).get("error").get("reason").asText()).contains("&x;");
        assertThat(h.records()).allSatisfy(r -> assertThat(new String(r.value(), StandardCharsets.UTF_8))
                .doesNotContain("do not read me", "lollol"));
        assertThat(h.records()).hasSize((int) (3000 - invalidCount(3000)));
        assertThat(h.status()).extracting(s -> s.get("event").asText())
                .containsExactly("started", "failed", "started", "failed", "started", "completed");
    }

    /**
     * The worker begins opening Kafka before it starts its HTTP endpoints, so that a restart waits for
     * neither in turn. A mistaken second start of a running worker, whose HTTP port is then taken, must
     * still stop as a setting's fault without fencing the running one (its transaction commits), and
     * close what it had begun to open rather than leave it running in the JVM.
     */
    @Test
    void aTakenHttpPortStopsStartUpWithoutFencingTheRunningWorker() throws Exception {
        String worker = "taken-port-" + System.nanoTime();
        String topic = TestBroker.uniqueTopic("taken-port");
        IngestConfig config = IngestConfig.of(IngestSettings.ALL, Map.of(IngestSettings.TOPIC.key(), topic,
                IngestSettings.BOOTSTRAP_SERVERS.key(), TestBroker.bootstrapServers()));
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", TestBroker.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        }
        Properties running = KafkaClientSettings.transactionalProducer(config, "xmlingest-" + worker);
        running.put(ProducerConfig.CLIENT_ID_CONFIG, "the-running-worker");
        try (ServerSocket taken = new ServerSocket(0);
             KafkaProducer<byte[], byte[]> live = new KafkaProducer<>(running)) {
            live.initTransactions();
            live.beginTransaction();
            live.send(new ProducerRecord<>(topic, "k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8)));
            int exit = Main.run("worker", "--inbox", inbox.toString(), "--topic", topic, "--bootstrap-servers",
                    TestBroker.bootstrapServers(), "--http-port", String.valueOf(taken.getLocalPort()),
                    "-s", "worker.id=" + worker);
            assertThat(exit).isEqualTo(2);
            // Time for an opening not held back to reach its fence, had the start not been stopped before it.
            Thread.sleep(3000);
            live.commitTransaction();
        }
        // The producer's network thread is named after its client id, which carries the worker's id.
        await("the session opened ahead closed", WAIT, () -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().contains(worker)));
    }

    @Test
    void anInvalidSettingStopsStartUpNamingIt() {
        int exit = Main.run("worker", "--inbox", inbox.toString(), "--topic", "t", "-s", "inbox.poll.interval.ms=0");
        assertThat(exit).isEqualTo(2);
        assertThat(Main.run("worker", "--topic", "t", "--bootstrap-servers", "127.0.0.1:1")).isEqualTo(2);
    }
}
