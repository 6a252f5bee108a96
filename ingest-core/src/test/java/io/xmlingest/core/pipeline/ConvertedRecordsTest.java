package io.xmlingest.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.FileFailedException;
import io.xmlingest.core.error.RecordError;
import io.xmlingest.core.pipeline.fragile.Part;
import io.xmlingest.core.split.CapturedRecord;
import io.xmlingest.core.split.RawRecord;
import io.xmlingest.core.split.RecordSplitter;
import io.xmlingest.core.split.ResumePoint;
import io.xmlingest.core.split.SplitPosition;
import io.xmlingest.core.split.DoctypePolicy;
import io.xmlingest.core.split.StaxRecordSplitter;
import io.xmlingest.core.split.XmlLimits;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.xml.namespace.QName;
import javax.xml.stream.XMLStreamReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConvertedRecordsTest {

    private static final QName PERSON = new QName("urn:xmlingest:sample:persons", "person");

    @TempDir
    Path dir;

    /** @param bindOn where records are bound: binders or reader (bind.on) */
    private static ConvertedRecords.Plan plan(String bindOn, int threads, int pageRecords, String... more) {
        Map<String, String> settings = new java.util.HashMap<>(Map.of("topic", "t", "bind.on", bindOn,
                "bind.threads", Integer.toString(threads), "page.max.records", Integer.toString(pageRecords)));
        for (int i = 0; i < more.length; i += 2) {
            settings.put(more[i], more[i + 1]);
        }
        IngestConfig config = IngestConfig.of(IngestSettings.ALL, settings);
        ConvertedRecords.Plan plan = ConvertedRecords.Plan.of(config, IngestionPipeline.model(config));
        assertThat(plan.bindOnReader()).isEqualTo(bindOn.equals("reader"));
        return plan;
    }

    /** Every 10th record has text in a number, so it is rejected by its binder. */
    private Path file(String name, int count, String tail) throws Exception {
        StringBuilder s = new StringBuilder("<persons xmlns=\"urn:xmlingest:sample:persons\">\n");
        for (int i = 0; i < count; i++) {
            String p = IngestionPipelineTest.person(i);
            s.append(i % 10 == 9 ? p.replace("<salary>1.00</salary>", "<salary>lots</salary>") : p);
        }
        return Files.writeString(dir.resolve(name), s.append(tail).toString());
    }

    /** Parts keyed by their index, named n0, n1, ... except the one at {@code special}, named {@code specialName}. */
    private Path parts(String name, int count, int special, String specialName) throws Exception {
        StringBuilder s = new StringBuilder("<parts xmlns=\"urn:xmlingest:test:parts\">\n");
        for (int i = 0; i < count; i++) {
            s.append("<part><sku>").append(i).append("</sku><name>").append(i == special ? specialName : "n" + i)
                    .append("</name></part>\n");
        }
        return Files.writeString(dir.resolve(name), s.append("</parts>\n"));
    }

    private static IngestConfig partsConfig(String bindOn, int threads, int pageRecords) {
        return IngestConfig.of(IngestSettings.ALL, Map.of("topic", "t", "bind.on", bindOn,
                "bind.threads", Integer.toString(threads), "page.max.records", Integer.toString(pageRecords),
                "record.element", "{urn:xmlingest:test:parts}part", "record.class", Part.class.getName(),
                "record.key", "sku"));
    }

    /** What comes out, in order: the key of a message, or "rejected N". */
    private static List<String> drain(ConvertedRecords records) {
        List<String> out = new ArrayList<>();
        ConvertedRecords.Converted c;
        while ((c = records.next()) != null) {
            out.add(c.message() != null ? new String(c.message().key(), StandardCharsets.UTF_8)
                    : "rejected " + c.position().recordIndex());
        }
        return out;
    }

    /**
     * auto binds on the reading thread on small machines; a record deeper than the default stack
     * takes keeps the binder threads, whose stacks are sized for it, whatever bind.on says.
     */
    @Test
    void bindOnAutoFollowsTheProcessorsAndDeepRecordsKeepTheBinders() {
        IngestConfig auto = IngestConfig.of(IngestSettings.ALL, Map.of("topic", "t"));
        assertThat(ConvertedRecords.Plan.of(auto, IngestionPipeline.model(auto)).bindOnReader()).isEqualTo(
                Runtime.getRuntime().availableProcessors() <= IngestSettings.BIND_ON_READER_MAX_PROCESSORS);
        IngestConfig deep = IngestConfig.of(IngestSettings.ALL, Map.of("topic", "t", "bind.on", "reader",
                "xml.max.depth", "5000"));
        ConvertedRecords.Plan plan = ConvertedRecords.Plan.of(deep, IngestionPipeline.model(deep));
        assertThat(plan.bindOnReader()).isFalse();
        assertThat(ConvertedRecords.binderStackBytes(plan.maxDepth())).isPositive();
        assertThatThrownBy(() -> IngestConfig.of(IngestSettings.ALL, Map.of("topic", "t", "bind.on", "caller")))
                .hasMessageContaining("bind.on");
    }

    @Test
    void recordsComeBackInFileOrderWhateverBindsThem() throws Exception {
        Path f = file("order.xml", 3000, "</persons>\n");
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            expected.add(i % 10 == 9 ? "rejected " + i : Integer.toString(i));
        }
        for (String way : new String[] {"binders 1", "binders 4", "reader 2"}) {
            String[] w = way.split(" ");
            try (StaxRecordSplitter s = StaxRecordSplitter.open(f, PERSON, XmlLimits.DEFAULTS);
                 ConvertedRecords records = plan(w[0], Integer.parseInt(w[1]), 100).start(s, "order.xml", "id",
                         1 << 20)) {
                assertThat(drain(records)).isEqualTo(expected);
                assertThat(records.next()).isNull();
                assertThat(records.bindNanos()).isPositive();
                assertThat(records.scanNanos()).isPositive();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"binders", "reader"})
    void aRejectedRecordKeepsItsRawTextForTheDeadLetter(String bindOn) throws Exception {
        Path f = file("raw.xml", 10, "</persons>\n");
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, PERSON, XmlLimits.DEFAULTS);
             ConvertedRecords records = plan(bindOn, 2, 100).start(s, "raw.xml", "id", 1 << 20)) {
            ConvertedRecords.Converted c;
            do {
                c = records.next();
            } while (c.rejected() == null);
            assertThat(c.rejected().getMessage()).contains("raw.xml", "record index 9", "lots");
            RawRecord raw = c.raw().read(1 << 20);
            assertThat(raw.xml()).isEqualTo(IngestionPipelineTest.person(9).strip().replace("1.00", "lots"));
            assertThat(c.raw().read(10).xml()).isNull();
        }
    }

    /**
     * A copy is checked whole before it is bound, so a record both too large and unbindable was rejected
     * as too large by the binders and as unbindable off the parser, which meets the bad value first. It
     * is too large both ways now, at the same tag, and the records after it come through.
     */
    @Test
    void aRecordTooLargeAndUnbindableIsRejectedAsTooLargeEitherWay() throws Exception {
        String bad = IngestionPipelineTest.person(1).replace("<salary>1.00</salary>", "<salary>lots</salary>")
                .replace("<street>s</street>", "<street>" + "s".repeat(3000) + "</street>");
        Path f = Files.writeString(dir.resolve("both.xml"), "<persons xmlns=\"urn:xmlingest:sample:persons\">\n"
                + IngestionPipelineTest.person(0) + bad + IngestionPipelineTest.person(2) + "</persons>\n");
        XmlLimits limits = new XmlLimits(500, 500, 64 * 1024, 16L * 1024 * 1024, DoctypePolicy.IGNORE, 10_000, 4, 2000);
        List<String> told = new ArrayList<>();
        for (String bindOn : new String[] {"binders", "reader"}) {
            try (StaxRecordSplitter s = StaxRecordSplitter.open(f, PERSON, limits);
                 ConvertedRecords records = plan(bindOn, 2, 100).start(s, "both.xml", "id", 1 << 20)) {
                assertThat(records.next().message()).isNotNull();
                ConvertedRecords.Converted c = records.next();
                assertThat(c.rejected()).as(bindOn).isNotNull();
                assertThat(c.rejected().settingKey()).contains("xml.max.record.size");
                // The record's start, where a reader of the file finds it; the tag past the limit is in the reason.
                String head = "<persons xmlns=\"urn:xmlingest:sample:persons\">\n" + IngestionPipelineTest.person(0);
                assertThat(c.rejected().location().orElseThrow().byteOffset()).as(bindOn).isEqualTo(head.length());
                told.add(c.rejected().getMessage());
                assertThat(new String(records.next().message().key(), StandardCharsets.UTF_8)).isEqualTo("2");
                assertThat(records.next()).isNull();
            }
        }
        assertThat(told.get(1)).isEqualTo(told.get(0)).contains("both.xml", "record index 1", "record is too large",
                "2000 characters (it is past that at line ");
        // Small enough, the same record is unbindable, both ways.
        String small = IngestionPipelineTest.person(1).replace("<salary>1.00</salary>", "<salary>lots</salary>");
        Path g = Files.writeString(dir.resolve("one.xml"), "<persons xmlns=\"urn:xmlingest:sample:persons\">\n"
                + small + "</persons>\n");
        for (String bindOn : new String[] {"binders", "reader"}) {
            try (StaxRecordSplitter s = StaxRecordSplitter.open(g, PERSON, limits);
                 ConvertedRecords records = plan(bindOn, 2, 100).start(s, "one.xml", "id", 1 << 20)) {
                assertThat(records.next().rejected().getMessage()).as(bindOn).contains("lots")
                        .doesNotContain("too large");
            }
        }
    }

    /**
     * A record that binds but whose message is too large is rejected only once its value is written:
     * on the caller's thread with bind.on=reader, long after the reader has moved on. Its raw text is
     * read back from the file then, for the dead letter.
     */
    @ParameterizedTest
    @ValueSource(strings = {"binders", "reader"})
    void aRecordRejectedAsItsValueIsWrittenKeepsItsRawText(String bindOn) throws Exception {
        String big = IngestionPipelineTest.person(1).replace("<lastName>L<", "<lastName>" + "L".repeat(3000) + "<");
        Path f = Files.writeString(dir.resolve("big.xml"), "<persons xmlns=\"urn:xmlingest:sample:persons\">\n"
                + IngestionPipelineTest.person(0) + big + IngestionPipelineTest.person(2) + "</persons>\n");
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, PERSON, XmlLimits.DEFAULTS);
             ConvertedRecords records = plan(bindOn, 2, 100, "kafka.max.request.size", "2048").start(s, "big.xml",
                     "id", 1 << 20)) {
            assertThat(records.next().message()).isNotNull();
            ConvertedRecords.Converted c = records.next();
            assertThat(c.rejected()).hasMessageContaining("record too large to publish")
                    .hasMessageContaining("big.xml").hasMessageContaining("record index 1")
                    .hasMessageContaining("kafka.max.request.size");
            assertThat(c.raw().read(1 << 20).xml()).isEqualTo(big.strip());
            assertThat(c.raw().read(100).xml()).isNull();
            assertThat(records.next().message()).isNotNull();
            assertThat(records.next()).isNull();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"binders", "reader"})
    void aFaultComesAfterEveryRecordBeforeItAndStaysThere(String bindOn) throws Exception {
        Path f = file("broken.xml", 250, "<person id=\"x\"><firstName>cut");
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, PERSON, XmlLimits.DEFAULTS);
             ConvertedRecords records = plan(bindOn, 3, 10).start(s, "broken.xml", "id", 1 << 20)) {
            List<String> seen = new ArrayList<>();
            assertThatThrownBy(() -> {
                while (true) {
                    ConvertedRecords.Converted c = records.next();
                    seen.add(c.position().recordIndex() + "");
                }
            }).isInstanceOf(FileFailedException.class).hasMessageContaining("broken.xml");
            assertThat(seen).hasSize(250);
            assertThatThrownBy(records::next).isInstanceOf(FileFailedException.class);
        }
    }

    /**
     * A fault of the XML inside a record stops the file at that record, told the same way whether the
     * record was copied or bound straight off the parser: a bad character reference, an undeclared
     * entity and a byte that is not UTF-8, for a model class and for schema-less records. Read off the
     * parser, the first two surface only as the text is read, wrapped in a runtime exception.
     */
    @Test
    void aFaultInsideARecordStopsTheFileAlikeWhereverItIsBound() throws Exception {
        String[] faults = {"x &#1; y", "x &foo; y", "x \u00ff y"};
        for (String recordClass : new String[] {"io.xmlingest.sample.persons.Person", "-"}) {
            for (String fault : faults) {
                String bad = IngestionPipelineTest.person(2).replace(">L<", ">" + fault + "<");
                String xml = "<persons xmlns=\"urn:xmlingest:sample:persons\">\n" + IngestionPipelineTest.person(0)
                        + IngestionPipelineTest.person(1) + bad + IngestionPipelineTest.person(3) + "</persons>\n";
                byte[] bytes = xml.getBytes(StandardCharsets.UTF_8);
                if (fault.contains("\u00ff")) {
                    // A lone 0xFF byte, not the two bytes UTF-8 writes for U+00FF.
                    bytes = xml.replace("\u00ff", "\u0001").getBytes(StandardCharsets.UTF_8);
                    for (int i = 0; i < bytes.length; i++) {
                        if (bytes[i] == 1) {
                            bytes[i] = (byte) 0xFF;
                        }
                    }
                }
                Path f = Files.write(dir.resolve("fault.xml"), bytes);
                List<String> told = new ArrayList<>();
                for (String bindOn : new String[] {"binders", "reader"}) {
                    try (StaxRecordSplitter s = StaxRecordSplitter.open(f, PERSON, XmlLimits.DEFAULTS);
                         ConvertedRecords records = plan(bindOn, 2, 100, "record.class", recordClass).start(s,
                                 "fault.xml", "id", 1 << 20)) {
                        assertThat(records.next().message()).isNotNull();
                        assertThat(records.next().message()).isNotNull();
                        Throwable thrown = catchThrowable(records::next);
                        assertThat(thrown).as(recordClass + " " + fault + " " + bindOn)
                                .isInstanceOf(FileFailedException.class);
                        told.add(thrown.getMessage());
                    }
                }
                assertThat(told.get(1)).as(recordClass + " " + fault).isEqualTo(told.get(0))
                        .contains("fault.xml", "record index 2", "line 4");
            }
        }
    }

    /**
     * An Error is not the file's fault (out of memory while a large record is read, with too small a
     * heap): it was turned into a failed file, which no restart took up again and which said neither
     * where nor why. It now comes out in its place, naming the record, for the worker to count.
     */
    @ParameterizedTest
    @ValueSource(strings = {"binders", "reader"})
    void anErrorWhileReadingComesOutInItsPlaceNamingTheRecord(String bindOn) throws Exception {
        Path f = file("oom.xml", 300, "</persons>\n");
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, PERSON, XmlLimits.DEFAULTS);
             ConvertedRecords records = plan(bindOn, 2, 10).start(new CountingSplitter(s, 150), "oom.xml", "id", 1 << 20)) {
            List<Long> seen = new ArrayList<>();
            assertThatThrownBy(() -> {
                while (true) {
                    seen.add(records.next().position().recordIndex());
                }
            }).isInstanceOfSatisfying(RecordError.class, e -> {
                assertThat(e.getCause()).isInstanceOf(OutOfMemoryError.class);
                // On the reading thread either way, but there it is binding the record.
                String doing = bindOn.equals("reader") ? "converting" : "reading";
                assertThat(e.where()).startsWith("while " + doing + " file oom.xml, record index 150, line ");
                assertThat(e.getMessage()).startsWith("java.lang.OutOfMemoryError: Java heap space (stand-in) while "
                        + doing + " file oom.xml, record index 150, line ");
            });
            assertThat(seen).hasSize(150).last().isEqualTo(149L);
        }
    }

    /**
     * A second out-of-memory while the first was wrapped with its record killed the binder thread
     * before it let the caller have the batch, and the worker waited for ever with the file in hand:
     * not stopped, so its crash was never counted either. The first error now comes out as it is.
     */
    @ParameterizedTest
    @ValueSource(strings = {"binders", "reader"})
    void anErrorThatCannotBeDescribedInABinderStillStopsTheFile(String bindOn) throws Exception {
        Path f = parts("parts.xml", 200, 120, "poison");
        IngestConfig config = partsConfig(bindOn, 2, 10);
        Undescribable error = new Undescribable();
        Part.Names.error = error;
        try (StaxRecordSplitter splitter = StaxRecordSplitter.open(f, new QName("urn:xmlingest:test:parts", "part"),
                XmlLimits.DEFAULTS);
             ConvertedRecords records = ConvertedRecords.Plan.of(config, RecordModel.of(config))
                     .start(splitter, "parts.xml", "id", 1 << 20)) {
            List<Long> seen = new ArrayList<>();
            Throwable thrown = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> catchThrowable(() -> {
                while (true) {
                    seen.add(records.next().position().recordIndex());
                }
            }));
            assertThat(thrown).isSameAs(error);
            assertThat(error.describing).isTrue();
            assertThat(seen).hasSize(120).last().isEqualTo(119L);
        } finally {
            Part.Names.error = new NoClassDefFoundError("com/example/MissingHelper");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"binders", "reader"})
    void anErrorThatCannotBeDescribedInTheReaderStillStopsTheFile(String bindOn) throws Exception {
        Path f = file("twice.xml", 300, "</persons>\n");
        Undescribable error = new Undescribable();
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, PERSON, XmlLimits.DEFAULTS);
             ConvertedRecords records = plan(bindOn, 2, 10).start(new CountingSplitter(s, 150, error), "twice.xml", "id",
                     1 << 20)) {
            List<Long> seen = new ArrayList<>();
            Throwable thrown = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> catchThrowable(() -> {
                while (true) {
                    seen.add(records.next().position().recordIndex());
                }
            }));
            assertThat(thrown).isSameAs(error);
            assertThat(seen).hasSize(150);
        }
    }

    /**
     * Whatever ends the reading thread without a word (here a checked exception no code declares),
     * the caller is not left waiting for a record that will never come: the file stops with an error.
     */
    @ParameterizedTest
    @ValueSource(strings = {"binders", "reader"})
    void aReadingThreadThatEndsWithoutAWordDoesNotLeaveTheCallerWaiting(String bindOn) throws Exception {
        Path f = file("silent.xml", 300, "</persons>\n");
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, PERSON, XmlLimits.DEFAULTS);
             ConvertedRecords records = plan(bindOn, 2, 10).start(new CountingSplitter(s, 150,
                     new java.io.IOException("undeclared")), "silent.xml", "id", 1 << 20)) {
            List<Long> seen = new ArrayList<>();
            Throwable thrown = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> catchThrowable(() -> {
                while (true) {
                    seen.add(records.next().position().recordIndex());
                }
            }));
            assertThat(thrown).isInstanceOf(InternalError.class).hasMessage("the reading thread of file silent.xml "
                    + "ended without handing on why (another error while it handled the first one, most likely; "
                    + "the log has the thread's stack trace)");
            // The records of the batches handed on before come out first, and no record after the fault.
            assertThat(seen).isNotEmpty().allMatch(i -> i < 150);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"binders", "reader"})
    void theReaderRunsAheadOnlyAsFarAsTheBoundsAllow(String bindOn) throws Exception {
        Path f = file("bounded.xml", 5000, "</persons>\n");
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, PERSON, XmlLimits.DEFAULTS)) {
            CountingSplitter counting = new CountingSplitter(s);
            // Pages of 100 records: at most 200 in flight, counted in batches of 64.
            try (ConvertedRecords records = plan(bindOn, 2, 100).start(counting, "bounded.xml", "id", 1 << 20)) {
                for (int i = 0; i < 300; i++) {
                    records.next();
                }
                Thread.sleep(300);
                long ahead = counting.found.get() - 300;
                assertThat(ahead).isLessThanOrEqualTo(200 + 2L * ConvertedRecords.BATCH_RECORDS).isPositive();
            }
        }
    }

    /**
     * Records rejected as they are bound keep their raw text for the dead letters, and that counts
     * against the heap bound too: 400 records of 100 KB that all fail to bind, none taken, stop the
     * reader after a few, not after the bound on records in flight (which would hold 40 MB).
     */
    @ParameterizedTest
    @ValueSource(strings = {"binders", "reader"})
    void rejectedRecordsHeldForTheirRawTextCountAgainstTheHeapBound(String bindOn) throws Exception {
        StringBuilder xml = new StringBuilder("<persons xmlns=\"urn:xmlingest:sample:persons\">\n");
        String filler = "L".repeat(100_000);
        for (int i = 0; i < 400; i++) {
            xml.append(IngestionPipelineTest.person(i).replace("<salary>1.00</salary>", "<salary>lots</salary>")
                    .replace(">L<", ">" + filler + "<"));
        }
        Path f = Files.writeString(dir.resolve("heavy.xml"), xml.append("</persons>\n"));
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, PERSON, XmlLimits.DEFAULTS)) {
            CountingSplitter counting = new CountingSplitter(s);
            // Up to 2,000 records in flight, but about 2 MB of their heap.
            try (ConvertedRecords records = plan(bindOn, 1, 1000, "page.max.bytes", "1MiB").start(counting,
                    "heavy.xml", "id", 1 << 20)) {
                untilTheReaderStops(counting);
                assertThat(counting.found.get()).isLessThan(100);
                ConvertedRecords.Converted c = records.next();
                assertThat(c.rejected()).isNotNull();
                assertThat(c.raw().read(1 << 20).xml()).hasSizeGreaterThan(100_000);
            }
        }
    }

    /**
     * Records wait for a binder only a batch or so each: one copied thousands of records before it is
     * bound has left the caches by then, and binding it cost a third more CPU (see ConvertedRecords).
     * A binder held on the first record stops the reader within a few batches, far inside the bound
     * on records in flight; let go, every record still comes out once, in order.
     */
    @Test
    void theReaderWaitsForTheBindersWithinAFewBatches() throws Exception {
        int count = 2000;
        Path f = parts("stall.xml", count, 0, "stall");
        // Pages of 1,000 records: up to 2,000 in flight.
        IngestConfig config = partsConfig("binders", 1, 1000);
        Part.Names.stall = new java.util.concurrent.CountDownLatch(1);
        try (StaxRecordSplitter splitter = StaxRecordSplitter.open(f, new QName("urn:xmlingest:test:parts", "part"),
                XmlLimits.DEFAULTS)) {
            CountingSplitter counting = new CountingSplitter(splitter);
            try (ConvertedRecords records = ConvertedRecords.Plan.of(config, RecordModel.of(config))
                    .start(counting, "stall.xml", "id", 1 << 20)) {
                untilTheReaderStops(counting);
                // The held batch, the binder count plus one waiting, and the one being filled.
                assertThat(counting.found.get()).isGreaterThan(ConvertedRecords.BATCH_RECORDS)
                        .isLessThanOrEqualTo(4L * ConvertedRecords.BATCH_RECORDS);
                Part.Names.stall.countDown();
                List<String> keys = drain(records);
                assertThat(keys).hasSize(count);
                for (int i = 0; i < count; i++) {
                    assertThat(keys.get(i)).isEqualTo(Integer.toString(i));
                }
            }
        } finally {
            Part.Names.stall.countDown();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"binders", "reader"})
    void closingMidFileStopsEveryThread(String bindOn) throws Exception {
        Path f = file("stop.xml", 5000, "</persons>\n");
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, PERSON, XmlLimits.DEFAULTS)) {
            ConvertedRecords records = plan(bindOn, 3, 50).start(s, "stop.xml", "id", 1 << 20);
            records.next();
            records.close();
        }
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(
                t -> t.getName().startsWith("xmlingest-") && t.isAlive());
    }

    /** Waits until the reader stops: its count unchanged over 300 ms (at most 20 s). */
    private static void untilTheReaderStops(CountingSplitter counting) throws InterruptedException {
        long seen = -1;
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (counting.found.get() != seen && System.nanoTime() < deadline) {
            seen = counting.found.get();
            Thread.sleep(300);
        }
    }

    /** Stands in for an error met with memory short: describing it runs out of memory again, the first time. */
    private static final class Undescribable extends Error {
        final AtomicBoolean describing = new AtomicBoolean();

        Undescribable() {
            super("the first error");
        }

        @Override
        public String toString() {
            if (describing.compareAndSet(false, true)) {
                throw new OutOfMemoryError("Java heap space (stand-in, while the first error is described)");
            }
            return super.toString();
        }
    }

    /** Counts the records the reader has found. */
    private static final class CountingSplitter implements RecordSplitter {
        final RecordSplitter inner;
        final AtomicLong found = new AtomicLong();
        /** The record whose capture fails, or -1. */
        final long failAt;
        final Throwable failure;

        CountingSplitter(RecordSplitter inner) {
            this(inner, -1);
        }

        /** Runs out of memory at record {@code outOfMemoryAt}. */
        CountingSplitter(RecordSplitter inner, long outOfMemoryAt) {
            this(inner, outOfMemoryAt, new OutOfMemoryError("Java heap space (stand-in)"));
        }

        CountingSplitter(RecordSplitter inner, long failAt, Throwable failure) {
            this.inner = inner;
            this.failAt = failAt;
            this.failure = failure;
        }

        @Override
        public boolean next() {
            boolean more = inner.next();
            if (more) {
                found.incrementAndGet();
            }
            return more;
        }

        @Override
        public SplitPosition position() {
            return inner.position();
        }

        @Override
        public XMLStreamReader record() {
            failHere();
            return inner.record();
        }

        @Override
        public RawRecord.Source rawLater() {
            return inner.rawLater();
        }

        @Override
        public FileFailedException fault(javax.xml.stream.XMLStreamException e) {
            return inner.fault(e);
        }

        @Override
        public ResumePoint resumePoint() {
            return inner.resumePoint();
        }

        @Override
        public CapturedRecord capture() {
            failHere();
            return inner.capture();
        }

        private void failHere() {
            if (inner.position().recordIndex() == failAt) {
                throw CountingSplitter.<RuntimeException>sneaky(failure);
            }
        }

        @SuppressWarnings("unchecked")
        private static <T extends Throwable> T sneaky(Throwable t) throws T {
            throw (T) t;
        }

        @Override
        public RawRecord raw(long maxBytes) {
            return inner.raw(maxBytes);
        }

        @Override
        public long bytesRead() {
            return inner.bytesRead();
        }

        @Override
        public void close() {
            inner.close();
        }
    }
}
