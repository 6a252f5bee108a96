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

class ConvertedRecordsTest {

    private static final QName PERSON = new QName("urn:xmlingest:sample:persons", "person");

    @TempDir
    Path dir;

    private static ConvertedRecords.Plan plan(int threads, int pageRecords) {
        IngestConfig config = IngestConfig.of(IngestSettings.ALL, Map.of("topic", "t", "bind.threads",
                Integer.toString(threads), "page.max.records", Integer.toString(pageRecords)));
        return ConvertedRecords.Plan.of(config, IngestionPipeline.model(config));
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

    private static IngestConfig partsConfig(int threads, int pageRecords) {
        return IngestConfig.of(IngestSettings.ALL, Map.of("topic", "t", "bind.threads", Integer.toString(threads),
                "page.max.records", Integer.toString(pageRecords), "record.element", "{urn:xmlingest:test:parts}part",
                "record.class", Part.class.getName(), "record.key", "sku"));
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

    @Test
    void manyBinderThreadsHandRecordsBackInFileOrder() throws Exception {
        Path f = file("order.xml", 3000, "</persons>\n");
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            expected.add(i % 10 == 9 ? "rejected " + i : Integer.toString(i));
        }
        for (int threads : new int[] {1, 4}) {
            try (StaxRecordSplitter s = StaxRecordSplitter.open(f, PERSON, XmlLimits.DEFAULTS);
                 ConvertedRecords records = plan(threads, 100).start(s, "order.xml", "id", 1 << 20)) {
                assertThat(drain(records)).isEqualTo(expected);
                assertThat(records.next()).isNull();
                assertThat(records.bindNanos()).isPositive();
                assertThat(records.scanNanos()).isPositive();
            }
        }
    }

    @Test
    void aRejectedRecordKeepsItsRawTextForTheDeadLetter() throws Exception {
        Path f = file("raw.xml", 10, "</persons>\n");
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, PERSON, XmlLimits.DEFAULTS);
             ConvertedRecords records = plan(2, 100).start(s, "raw.xml", "id", 1 << 20)) {
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

    @Test
    void aFaultComesAfterEveryRecordBeforeItAndStaysThere() throws Exception {
        Path f = file("broken.xml", 250, "<person id=\"x\"><firstName>cut");
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, PERSON, XmlLimits.DEFAULTS);
             ConvertedRecords records = plan(3, 10).start(s, "broken.xml", "id", 1 << 20)) {
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
     * An Error is not the file's fault (out of memory while a large record is read, with too small a
     * heap): it was turned into a failed file, which no restart took up again and which said neither
     * where nor why. It now comes out in its place, naming the record, for the worker to count.
     */
    @Test
    void anErrorWhileReadingComesOutInItsPlaceNamingTheRecord() throws Exception {
        Path f = file("oom.xml", 300, "</persons>\n");
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, PERSON, XmlLimits.DEFAULTS);
             ConvertedRecords records = plan(2, 10).start(new CountingSplitter(s, 150), "oom.xml", "id", 1 << 20)) {
            List<Long> seen = new ArrayList<>();
            assertThatThrownBy(() -> {
                while (true) {
                    seen.add(records.next().position().recordIndex());
                }
            }).isInstanceOfSatisfying(RecordError.class, e -> {
                assertThat(e.getCause()).isInstanceOf(OutOfMemoryError.class);
                assertThat(e.where()).startsWith("while reading file oom.xml, record index 150, line ");
                assertThat(e.getMessage()).startsWith("java.lang.OutOfMemoryError: Java heap space (stand-in) while "
                        + "reading file oom.xml, record index 150, line ");
            });
            assertThat(seen).hasSize(150).last().isEqualTo(149L);
        }
    }

    /**
     * A second out-of-memory while the first was wrapped with its record killed the binder thread
     * before it let the caller have the batch, and the worker waited for ever with the file in hand:
     * not stopped, so its crash was never counted either. The first error now comes out as it is.
     */
    @Test
    void anErrorThatCannotBeDescribedInABinderStillStopsTheFile() throws Exception {
        Path f = parts("parts.xml", 200, 120, "poison");
        IngestConfig config = partsConfig(2, 10);
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

    @Test
    void anErrorThatCannotBeDescribedInTheReaderStillStopsTheFile() throws Exception {
        Path f = file("twice.xml", 300, "</persons>\n");
        Undescribable error = new Undescribable();
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, PERSON, XmlLimits.DEFAULTS);
             ConvertedRecords records = plan(2, 10).start(new CountingSplitter(s, 150, error), "twice.xml", "id",
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
    @Test
    void aReadingThreadThatEndsWithoutAWordDoesNotLeaveTheCallerWaiting() throws Exception {
        Path f = file("silent.xml", 300, "</persons>\n");
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, PERSON, XmlLimits.DEFAULTS);
             ConvertedRecords records = plan(2, 10).start(new CountingSplitter(s, 150,
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

    @Test
    void theReaderRunsAheadOnlyAsFarAsTheBoundsAllow() throws Exception {
        Path f = file("bounded.xml", 5000, "</persons>\n");
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, PERSON, XmlLimits.DEFAULTS)) {
            CountingSplitter counting = new CountingSplitter(s);
            // Pages of 100 records: at most 200 in flight, counted in batches of 64.
            try (ConvertedRecords records = plan(2, 100).start(counting, "bounded.xml", "id", 1 << 20)) {
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
        IngestConfig config = partsConfig(1, 1000);
        Part.Names.stall = new java.util.concurrent.CountDownLatch(1);
        try (StaxRecordSplitter splitter = StaxRecordSplitter.open(f, new QName("urn:xmlingest:test:parts", "part"),
                XmlLimits.DEFAULTS)) {
            CountingSplitter counting = new CountingSplitter(splitter);
            try (ConvertedRecords records = ConvertedRecords.Plan.of(config, RecordModel.of(config))
                    .start(counting, "stall.xml", "id", 1 << 20)) {
                // Until the reader stops: its count unchanged over 300 ms.
                long seen = -1;
                long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
                while (counting.found.get() != seen && System.nanoTime() < deadline) {
                    seen = counting.found.get();
                    Thread.sleep(300);
                }
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

    @Test
    void closingMidFileStopsEveryThread() throws Exception {
        Path f = file("stop.xml", 5000, "</persons>\n");
        try (StaxRecordSplitter s = StaxRecordSplitter.open(f, PERSON, XmlLimits.DEFAULTS)) {
            ConvertedRecords records = plan(3, 50).start(s, "stop.xml", "id", 1 << 20);
            records.next();
            records.close();
        }
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(
                t -> t.getName().startsWith("xmlingest-") && t.isAlive());
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
            return inner.record();
        }

        @Override
        public ResumePoint resumePoint() {
            return inner.resumePoint();
        }

        @Override
        public CapturedRecord capture() {
            if (inner.position().recordIndex() == failAt) {
                throw CountingSplitter.<RuntimeException>sneaky(failure);
            }
            return inner.capture();
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
