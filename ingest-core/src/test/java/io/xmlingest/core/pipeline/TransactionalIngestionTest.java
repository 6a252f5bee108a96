package io.xmlingest.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.core.checkpoint.Checkpoint;
import io.xmlingest.core.checkpoint.CheckpointCodec;
import io.xmlingest.core.checkpoint.FileState;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.RetriableIngestException;
import io.xmlingest.core.page.OutgoingRecord;
import io.xmlingest.core.publish.Envelope;
import io.xmlingest.core.publish.InMemoryTransactionalPublisher;
import io.xmlingest.core.publish.TopicNames;
import io.xmlingest.core.split.CompressedInput;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TransactionalIngestionTest {

    @TempDir
    Path dir;

    private static final TopicNames TOPICS = new TopicNames(java.util.List.of("t"), "t.dlq", "t.status", "t.checkpoints");

    private static IngestConfig config(String... keyValues) {
        // A commit per page unless a test says otherwise: the crash tests count commits.
        Map<String, String> flags = new HashMap<>(Map.of("topic", "t", "page.max.records", "3", "commit.interval.ms", "0"));
        for (int i = 0; i < keyValues.length; i += 2) {
            flags.put(keyValues[i], keyValues[i + 1]);
        }
        return IngestConfig.of(IngestSettings.ALL, flags);
    }

    private static TransactionalIngestion ingestion(IngestConfig config) {
        return new TransactionalIngestion(config, IngestionPipeline.model(config), "test-worker");
    }

    /** Every 7th record (from the 4th) has text in a numeric field, so it becomes a dead letter. */
    private static String records(int count) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < count; i++) {
            String p = IngestionPipelineTest.person(1000 + i);
            s.append(i % 7 == 3 ? p.replace("<salary>1.00</salary>", "<salary>lots</salary>") : p);
        }
        return s.toString();
    }

    private Path file(String name, String body) throws Exception {
        return Files.writeString(dir.resolve(name), "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- an export -->\n"
                + "<persons xmlns=\"urn:xmlingest:sample:persons\">\n" + body + "</persons>\n");
    }

    private static FileJob job(Path f, Checkpoint from) throws Exception {
        return new FileJob(f, f.getFileName().toString(), FileIdentity.sha256(f), Files.size(f), from);
    }

    private static List<String> events(InMemoryTransactionalPublisher p) {
        return p.envelopes("t.status").stream().map(e -> new String(e.value(), StandardCharsets.UTF_8))
                .map(v -> v.replaceAll("^\\{\"event\":\"(\\w+)\".*$", "$1")).toList();
    }

    private static Checkpoint lastCheckpoint(InMemoryTransactionalPublisher p) {
        List<Envelope> c = p.envelopes("t.checkpoints");
        return c.isEmpty() ? null : CheckpointCodec.decode(c.get(c.size() - 1).value());
    }

    @Test
    void aCommitIntervalKafkaWouldCutShortIsRefused() {
        // Before, every transaction was aborted by Kafka and the worker blamed a second worker fencing it.
        assertThatThrownBy(() -> ingestion(config("commit.interval.ms", "600000", "kafka.transaction.timeout.ms", "1000")))
                .isInstanceOf(io.xmlingest.core.error.ConfigException.class)
                .hasMessageContaining("(setting: commit.interval.ms)")
                .hasMessageContaining("commit.interval.ms is 600000 ms, more than half of kafka.transaction.timeout.ms "
                        + "(1000 ms): Kafka would abort transactions before their commit");
        assertThat(ingestion(config("commit.interval.ms", "30000", "kafka.transaction.timeout.ms", "60000"))).isNotNull();
    }

    /**
     * A request limit too small for the worker's own messages: a dead letter naming a long file did not fit, the file
     * could not fail (its failure did not fit either), and the worker retried it for ever as if Kafka were down.
     */
    @Test
    void aRequestLimitTooSmallForTheWorkersOwnMessagesIsRefused() {
        assertThatThrownBy(() -> ingestion(config("kafka.max.request.size", "1KiB")))
                .isInstanceOf(io.xmlingest.core.error.ConfigException.class)
                .hasMessageContaining("(setting: kafka.max.request.size)")
                .hasMessageContaining("kafka.max.request.size is 1024 bytes, and the worker needs at least 65536 (64KiB)");
        assertThat(ingestion(config("kafka.max.request.size", "64KiB"))).isNotNull();
    }

    @Test
    void aDeadLetterCarriesTheRawRecordUpToHalfTheRequestLimitLessRoomForTheRest() {
        // As the README says: half of kafka.max.request.size less 4 KiB, none under 8 KiB.
        assertThat(TransactionalIngestion.maxRawBytes(1024 * 1024)).isEqualTo(512 * 1024 - 4096);
        assertThat(TransactionalIngestion.maxRawBytes(16 * 1024)).isEqualTo(4096);
        assertThat(TransactionalIngestion.maxRawBytes(8 * 1024)).isZero();
        assertThat(TransactionalIngestion.maxRawBytes(1500)).isZero();
    }

    /**
     * A file still being written when it was identified grows afterwards; what is read of it must be what its
     * identity covers. Read on to its new end, it completed with every record under a file id and byte count that
     * covered only its first part.
     */
    @Test
    void aFileThatGrowsAfterItWasIdentifiedIsReadOnlyAsFarAsItsIdentityGoes() throws Exception {
        String whole = Files.readString(file("whole.xml", records(10)));
        String firstPart = whole.substring(0, whole.indexOf("<person id=\"1005\"") + 20);
        Path f = Files.writeString(dir.resolve("growing.xml"), firstPart);
        FileJob identified = job(f, null);
        Files.writeString(f, whole); // the writer goes on
        InMemoryTransactionalPublisher publisher = new InMemoryTransactionalPublisher();

        FileOutcome out = ingestion(config()).ingest(identified, publisher, IngestListener.NONE, () -> false);

        assertThat(identified.fileId()).isEqualTo(FileIdentity.sha256(f, firstPart.length()));
        assertThat(out.ending()).isEqualTo(FileOutcome.Ending.FAILED);
        // Records 0 to 4 end before the identified part does; record 3 is a dead letter.
        assertThat(publisher.records()).extracting(OutgoingRecord::index).containsExactly(0L, 1L, 2L, 4L);
        assertThat(lastCheckpoint(publisher).state()).isEqualTo(FileState.FAILED);
        assertThat(out.failure().getMessage()).contains("growing.xml");
    }

    /**
     * A record.element that matches nothing used to complete the file with 0 records, and the same
     * file dropped again after the fix was "already ingested": its records were never published.
     */
    @Test
    void aFileWhoseRepeatedElementsAreNoRecordsFailsAndIsTakenUpAgainOnceTheSettingIsFixed() throws Exception {
        Path f = file("ten.xml", records(10));
        InMemoryTransactionalPublisher publisher = new InMemoryTransactionalPublisher();
        FileOutcome wrong = ingestion(config("record.element", "{urn:xmlingest:sample:persons}persn"))
                .ingest(job(f, null), publisher, IngestListener.NONE, () -> false);

        assertThat(wrong.ending()).isEqualTo(FileOutcome.Ending.FAILED);
        assertThat(wrong.failure().getMessage()).contains("the file holds no {urn:xmlingest:sample:persons}persn record, "
                + "but it repeats {urn:xmlingest:sample:persons}person (the second at line ")
                .contains("set file.require.records=false").contains("(setting: record.element)");
        assertThat(publisher.records()).isEmpty();
        Checkpoint failed = lastCheckpoint(publisher);
        assertThat(failed.state()).isEqualTo(FileState.FAILED);

        FileOutcome fixed = ingestion(config()).ingest(job(f, failed), publisher, IngestListener.NONE, () -> false);
        assertThat(fixed.ending()).isEqualTo(FileOutcome.Ending.COMPLETED);
        assertThat(publisher.records()).hasSize(9); // record 3 is a dead letter
    }

    @Test
    void commitsPagesWithDeadLettersStatusEventsAndCheckpoints() throws Exception {
        Path f = file("ten.xml", records(10));
        InMemoryTransactionalPublisher publisher = new InMemoryTransactionalPublisher();
        FileOutcome out = ingestion(config()).ingest(job(f, null), publisher, IngestListener.NONE, () -> false);

        assertThat(out.ending()).isEqualTo(FileOutcome.Ending.COMPLETED);
        // Records 3 of 10 is a dead letter: 9 records in pages of 3, 3, 3.
        assertThat(publisher.records()).extracting(OutgoingRecord::index).containsExactly(0L, 1L, 2L, 4L, 5L, 6L, 7L, 8L, 9L);
        assertThat(events(publisher)).containsExactly("started", "completed");
        List<Envelope> dlq = publisher.envelopes("t.dlq");
        assertThat(dlq).hasSize(1);
        String dead = new String(dlq.get(0).value(), StandardCharsets.UTF_8);
        assertThat(dead).contains("\"recordIndex\":3", "\"file\":\"ten.xml\"", "\"line\":", "lots",
                "\"rawXml\":\"<person id=\\\"1003\\\">");
        String raw = dead.replaceAll("^.*\"rawXml\":\"(.*)\"}$", "$1").replace("\\\"", "\"").replace("\\n", "\n");
        String text = Files.readString(f);
        assertThat(text).contains(raw);
        assertThat(dead).contains("\"byteOffset\":" + text.indexOf("<person id=\"1003\""));
        Checkpoint last = lastCheckpoint(publisher);
        assertThat(last.state()).isEqualTo(FileState.COMPLETED);
        assertThat(last.records()).isEqualTo(9);
        assertThat(last.deadLetters()).isEqualTo(1);
        assertThat(last.nextRecordIndex()).isEqualTo(10);
        // Commits as records 3 and 7 start (pages ending at 2 and 6), and at the end (the page ending at 9).
        assertThat(publisher.commits()).isEqualTo(3);
        String completed = new String(publisher.envelopes("t.status").get(1).value(), StandardCharsets.UTF_8);
        assertThat(completed).contains("\"records\":9", "\"deadLetters\":1", "\"sha256\":\"" + FileIdentity.sha256(f));
    }

    @Test
    void aCommitIntervalGathersSeveralPagesInOneTransaction() throws Exception {
        Path f = file("many.xml", records(60));
        InMemoryTransactionalPublisher publisher = new InMemoryTransactionalPublisher();
        FileOutcome out = ingestion(config("commit.interval.ms", "450000", "page.max.records", "20", "kafka.transaction.timeout.ms", "900000"))
                .ingest(job(f, null), publisher, IngestListener.NONE, () -> false);

        assertThat(out.ending()).isEqualTo(FileOutcome.Ending.COMPLETED);
        // 51 good records in pages of 20 go out as 3 pages, all in the file's one transaction; the
        // 9 dead letters stay under a page's count, which alone would commit.
        assertThat(publisher.commits()).isEqualTo(1);
        assertThat(publisher.records()).hasSize(51);
        Checkpoint last = lastCheckpoint(publisher);
        assertThat(last.pages()).isEqualTo(3);
        assertThat(last.records()).isEqualTo(51);
        assertThat(last.deadLetters()).isEqualTo(9);
    }

    @Test
    void everyCheckpointNamesTheByteOffsetOfItsNextRecord() throws Exception {
        Path f = file("offsets.xml", records(20));
        InMemoryTransactionalPublisher publisher = new InMemoryTransactionalPublisher();
        ingestion(config()).ingest(job(f, null), publisher, IngestListener.NONE, () -> false);
        byte[] bytes = Files.readAllBytes(f);
        List<Envelope> checkpoints = publisher.envelopes("t.checkpoints");
        assertThat(checkpoints).hasSizeGreaterThan(3);
        for (Envelope e : checkpoints.subList(0, checkpoints.size() - 1)) {
            Checkpoint c = CheckpointCodec.decode(e.value());
            String at = new String(bytes, (int) c.resume().byteOffset(), 30, StandardCharsets.UTF_8);
            assertThat(at).startsWith("<person id=\"" + (1000 + c.nextRecordIndex()) + "\"");
            assertThat(c.resume().openElements()).isEqualTo("<persons xmlns=\"urn:xmlingest:sample:persons\">");
        }
    }

    /**
     * A broker lost at random commits, again and again: each run resumes from the last committed
     * checkpoint, and together the runs commit every record and dead letter exactly once.
     */
    @Test
    void crashesAtRandomCommitsLoseNothingAndRepeatNothing() throws Exception {
        crashRepeatedly(config("page.max.records", "7"));
    }

    /** Pages closed by their byte bound leave a record in the open page at a commit; it must not be skipped. */
    @Test
    void crashesWithPagesClosedByBytesLoseNothingAndRepeatNothing() throws Exception {
        crashRepeatedly(config("page.max.records", "50", "page.max.bytes", "1024"));
    }

    private void crashRepeatedly(IngestConfig config) throws Exception {
        crashRepeatedly(config, file("crashy.xml", records(300)));
    }

    /** {@code f} holds {@link #records} of 300. */
    private void crashRepeatedly(IngestConfig config, Path f) throws Exception {
        Random random = new Random(7);
        List<OutgoingRecord> records = new ArrayList<>();
        List<Envelope> deadLetters = new ArrayList<>();
        List<String> events = new ArrayList<>();
        Checkpoint from = null;
        int crashes = 0;
        TransactionalIngestion ingestion = ingestion(config);
        while (true) {
            int failAt = random.nextInt(6);
            InMemoryTransactionalPublisher publisher = new InMemoryTransactionalPublisher(n -> crashesLeft(n, failAt));
            try {
                FileOutcome out = ingestion.ingest(job(f, from), publisher, IngestListener.NONE, () -> false);
                assertThat(out.ending()).isEqualTo(FileOutcome.Ending.COMPLETED);
                collect(publisher, records, deadLetters, events);
                break;
            } catch (RetriableIngestException e) {
                crashes++;
                collect(publisher, records, deadLetters, events);
                Checkpoint last = lastCheckpoint(publisher);
                from = last != null ? last : from;
            }
        }
        assertThat(crashes).isGreaterThan(5);
        List<Long> expected = new ArrayList<>();
        for (long i = 0; i < 300; i++) {
            if (i % 7 != 3) {
                expected.add(i);
            }
        }
        assertThat(records).extracting(OutgoingRecord::index).containsExactlyElementsOf(expected);
        assertThat(deadLetters).hasSize(300 - expected.size());
        assertThat(events).containsExactly("started", "completed");
    }

    private static boolean crashesLeft(int commit, int failAt) {
        return commit == failAt;
    }

    private static void collect(InMemoryTransactionalPublisher p, List<OutgoingRecord> records, List<Envelope> dlq,
                                List<String> events) {
        records.addAll(p.records());
        dlq.addAll(p.envelopes("t.dlq"));
        events.addAll(events(p));
    }

    private static byte[] gzip(byte[] plain) throws Exception {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(plain);
        }
        return out.toByteArray();
    }

    @Test
    void aGzipFileIsReadFromItsPlainCopyAndResumedInItAcrossCrashes() throws Exception {
        byte[] plain = Files.readAllBytes(file("crashy.xml", records(300)));
        Path gz = Files.write(dir.resolve("crashy.xml.gz"), gzip(plain));

        crashRepeatedly(config("page.max.records", "7"), gz);

        // Left beside the file for whoever moves it on (the worker's inbox deletes it then).
        assertThat(Files.readAllBytes(CompressedInput.copyBeside(gz, FileIdentity.sha256(gz)))).isEqualTo(plain);
    }

    /**
     * A compressed file set aside before anything of it was committed is announced with its inflated size,
     * as one read through is, from the copy its crashed tries made; a plain file has none to give.
     */
    @Test
    void aGzipFileSetAsideUnstartedGivesItsInflatedSizeFromItsCopy() throws Exception {
        byte[] plain = Files.readAllBytes(file("aside.xml", records(20)));
        Path gz = Files.write(dir.resolve("aside.xml.gz"), gzip(plain));
        FileJob job = job(gz, null);
        Files.write(CompressedInput.copyBeside(gz, job.fileId()), plain);
        io.xmlingest.core.error.FileFailedException reason = new io.xmlingest.core.error.FileFailedException(
                "set aside", io.xmlingest.core.error.ErrorLocation.ofFile(job.name()), "worker.file.max.crashes", null);

        InMemoryTransactionalPublisher publisher = new InMemoryTransactionalPublisher();
        ingestion(config()).setAside(job, reason, publisher);
        assertThat(events(publisher)).containsExactly("started", "failed");
        assertThat(new String(publisher.envelopes("t.status").get(0).value(), StandardCharsets.UTF_8))
                .contains("\"bytes\":" + Files.size(gz) + ",\"inflatedBytes\":" + plain.length);

        InMemoryTransactionalPublisher plainPublisher = new InMemoryTransactionalPublisher();
        ingestion(config()).setAside(job(dir.resolve("aside.xml"), null), reason, plainPublisher);
        assertThat(new String(plainPublisher.envelopes("t.status").get(0).value(), StandardCharsets.UTF_8))
                .contains("\"bytes\":" + plain.length).doesNotContain("inflatedBytes");
    }

    @Test
    void aGzipFileStoppedMidwayResumesInTheCopyItMadeWithoutInflatingAgain() throws Exception {
        byte[] plain = Files.readAllBytes(file("resumed.xml", records(40)));
        Path gz = Files.write(dir.resolve("resumed.xml.gz"), gzip(plain));
        InMemoryTransactionalPublisher first = new InMemoryTransactionalPublisher();
        Path copy = CompressedInput.copyBeside(gz, FileIdentity.sha256(gz));
        // Asked to stop once the copy is made: at the first commit.
        FileOutcome stopped = ingestion(config("page.max.records", "10"))
                .ingest(job(gz, null), first, IngestListener.NONE, () -> Files.exists(copy));
        assertThat(stopped.ending()).isEqualTo(FileOutcome.Ending.STOPPED);
        assertThat(first.records()).isNotEmpty();
        FileTime marked = FileTime.fromMillis(0);
        Files.setLastModifiedTime(copy, marked);

        InMemoryTransactionalPublisher second = new InMemoryTransactionalPublisher();
        List<Long> progressAgainst = new ArrayList<>();
        IngestListener progress = new IngestListener() {
            @Override
            public void committed(Checkpoint checkpoint, long bytesRead, long fileBytes, PhaseTimes spent) {
                progressAgainst.add(fileBytes);
            }
        };
        FileOutcome done = ingestion(config("page.max.records", "10"))
                .ingest(job(gz, stopped.checkpoint()), second, progress, () -> false);

        assertThat(done.ending()).isEqualTo(FileOutcome.Ending.COMPLETED);
        assertThat(Files.getLastModifiedTime(copy)).as("the copy is not written again").isEqualTo(marked);
        assertThat(done.phases().identifyNanos()).as("no inflating in the identify phase").isZero();
        List<Long> indexes = new ArrayList<>();
        first.records().forEach(r -> indexes.add(r.index()));
        second.records().forEach(r -> indexes.add(r.index()));
        assertThat(indexes).hasSize(34).doesNotHaveDuplicates(); // 40 less the 6 dead letters
        // A dead letter's raw record is read back from the copy, at its byte offset there.
        String dead = new String(second.envelopes("t.dlq").get(0).value(), StandardCharsets.UTF_8);
        long offset = Long.parseLong(dead.replaceAll("^.*\"byteOffset\":(\\d+).*$", "$1"));
        assertThat(new String(plain, StandardCharsets.UTF_8).substring((int) offset)).startsWith("<person id=\"10");
        assertThat(dead).contains("\"rawXml\":\"<person id=\\\"10");
        // The status events give the size of the file as dropped; progress is measured against the copy.
        String completed = new String(second.envelopes("t.status").get(0).value(), StandardCharsets.UTF_8);
        assertThat(completed).contains("\"event\":\"completed\"", "\"bytes\":" + Files.size(gz));
        assertThat(progressAgainst).isNotEmpty().containsOnly((long) plain.length);
    }

    @Test
    void aStopWhileInflatingPublishesNothingAndTheNextRunInflatesAgain() throws Exception {
        Path gz = Files.write(dir.resolve("early.xml.gz"), gzip(Files.readAllBytes(file("early.xml", records(2000)))));
        InMemoryTransactionalPublisher first = new InMemoryTransactionalPublisher();

        FileOutcome stopped = ingestion(config()).ingest(job(gz, null), first, IngestListener.NONE, () -> true);

        assertThat(stopped.ending()).isEqualTo(FileOutcome.Ending.STOPPED);
        assertThat(first.commits()).isZero();
        assertThat(CompressedInput.copyBeside(gz, FileIdentity.sha256(gz))).doesNotExist();
        InMemoryTransactionalPublisher second = new InMemoryTransactionalPublisher();
        FileOutcome done = ingestion(config()).ingest(job(gz, null), second, IngestListener.NONE, () -> false);
        assertThat(done.ending()).isEqualTo(FileOutcome.Ending.COMPLETED);
        assertThat(done.phases().identifyNanos()).as("inflating, counted in the identify phase").isPositive();
        assertThat(second.records()).hasSize(2000 - 286); // every 7th from the 4th is a dead letter
        assertThat(events(second)).containsExactly("started", "completed");
    }

    @Test
    void aGzipFileCutShortFailsWithStartedAndFailedEventsAndPublishesNothing() throws Exception {
        byte[] whole = gzip(Files.readAllBytes(file("cut.xml", records(2000))));
        Path gz = Files.write(dir.resolve("cut.xml.gz"), Arrays.copyOf(whole, whole.length / 2));
        InMemoryTransactionalPublisher publisher = new InMemoryTransactionalPublisher();

        FileOutcome out = ingestion(config()).ingest(job(gz, null), publisher, IngestListener.NONE, () -> false);

        assertThat(out.ending()).isEqualTo(FileOutcome.Ending.FAILED);
        assertThat(out.failure().getMessage()).startsWith("not a whole gzip file: it ends inside member 1's compressed data")
                .endsWith("[file cut.xml.gz]");
        assertThat(publisher.records()).isEmpty();
        assertThat(events(publisher)).containsExactly("started", "failed");
        assertThat(lastCheckpoint(publisher).state()).isEqualTo(FileState.FAILED);
        assertThat(CompressedInput.copyBeside(gz, FileIdentity.sha256(gz))).doesNotExist();
    }

    @Test
    void aResumedFileCommitsItsFirstRecordAtOnce() throws Exception {
        Path f = file("resumed.xml", records(40));
        InMemoryTransactionalPublisher first = new InMemoryTransactionalPublisher();
        FileOutcome stopped = ingestion(config("page.max.records", "10"))
                .ingest(job(f, null), first, IngestListener.NONE, () -> true);
        assertThat(stopped.ending()).isEqualTo(FileOutcome.Ending.STOPPED);
        long next = stopped.checkpoint().nextRecordIndex();

        InMemoryTransactionalPublisher second = new InMemoryTransactionalPublisher();
        FileOutcome done = ingestion(config("commit.interval.ms", "450000", "page.max.records", "10", "kafka.transaction.timeout.ms", "900000"))
                .ingest(job(f, stopped.checkpoint()), second, IngestListener.NONE, () -> false);
        assertThat(done.ending()).isEqualTo(FileOutcome.Ending.COMPLETED);
        // The first transaction after the resume holds the first record alone; the rest wait for the interval.
        assertThat(second.commits()).isEqualTo(2);
        Checkpoint firstAfterResume = CheckpointCodec.decode(second.envelopes("t.checkpoints").get(0).value());
        assertThat(firstAfterResume.nextRecordIndex()).isEqualTo(next + 1);
        assertThat(done.checkpoint().records() + done.checkpoint().deadLetters()).isEqualTo(40);
    }

    @Test
    void aStopRequestEndsTheRunAtACommitAndTheNextRunGoesOn() throws Exception {
        Path f = file("stop.xml", records(30));
        AtomicInteger asked = new AtomicInteger();
        InMemoryTransactionalPublisher first = new InMemoryTransactionalPublisher();
        TransactionalIngestion ingestion = ingestion(config());
        FileOutcome stopped = ingestion.ingest(job(f, null), first, IngestListener.NONE, () -> asked.incrementAndGet() >= 2);
        assertThat(stopped.ending()).isEqualTo(FileOutcome.Ending.STOPPED);
        assertThat(stopped.checkpoint().state()).isEqualTo(FileState.IN_PROGRESS);
        InMemoryTransactionalPublisher second = new InMemoryTransactionalPublisher();
        FileOutcome done = ingestion.ingest(job(f, stopped.checkpoint()), second, IngestListener.NONE, () -> false);
        assertThat(done.ending()).isEqualTo(FileOutcome.Ending.COMPLETED);
        List<Long> all = new ArrayList<>();
        first.records().forEach(r -> all.add(r.index()));
        second.records().forEach(r -> all.add(r.index()));
        assertThat(all).doesNotHaveDuplicates().hasSize(30 - 4);
        assertThat(done.checkpoint().records()).isEqualTo(26);
        assertThat(events(first)).containsExactly("started");
        assertThat(events(second)).containsExactly("completed");
    }

    @Test
    void aFileThatBreaksOffCommitsTheRecordsBeforeTheFaultAndFails() throws Exception {
        String body = records(8);
        int cut = body.indexOf("<person id=\"1006\"") + 40;
        Path f = Files.writeString(dir.resolve("cut.xml"), "<persons xmlns=\"urn:xmlingest:sample:persons\">\n"
                + body.substring(0, cut));
        InMemoryTransactionalPublisher publisher = new InMemoryTransactionalPublisher();
        FileOutcome out = ingestion(config()).ingest(job(f, null), publisher, IngestListener.NONE, () -> false);
        assertThat(out.ending()).isEqualTo(FileOutcome.Ending.FAILED);
        assertThat(publisher.records()).extracting(OutgoingRecord::index).containsExactly(0L, 1L, 2L, 4L, 5L);
        assertThat(events(publisher)).containsExactly("started", "failed");
        String failed = new String(publisher.envelopes("t.status").get(1).value(), StandardCharsets.UTF_8);
        assertThat(failed).contains("\"recordIndex\":6", "\"line\":", "cut.xml");
        assertThat(out.checkpoint().state()).isEqualTo(FileState.FAILED);
        assertThat(out.checkpoint().nextRecordIndex()).isEqualTo(6);
    }

    @Test
    void aRecordKafkaRefusesFailsTheFileAtTheLastCommitSoARetryLosesNothing() throws Exception {
        Path f = file("refused.xml", records(20));
        InMemoryTransactionalPublisher publisher = new InMemoryTransactionalPublisher().refusing(i -> i == 8);
        TransactionalIngestion ingestion = ingestion(config());
        FileOutcome out = ingestion.ingest(job(f, null), publisher, IngestListener.NONE, () -> false);
        assertThat(out.ending()).isEqualTo(FileOutcome.Ending.FAILED);
        assertThat(out.failure().getMessage()).contains("refused", "record index 8");
        // Pages of records 0-2 and 4-6 are committed; the page holding record 8 is not, nor claimed to be.
        assertThat(publisher.records()).extracting(OutgoingRecord::index).containsExactly(0L, 1L, 2L, 4L, 5L, 6L);
        assertThat(out.checkpoint().nextRecordIndex()).isEqualTo(7);
        assertThat(events(publisher)).containsExactly("started", "failed");
        InMemoryTransactionalPublisher retry = new InMemoryTransactionalPublisher();
        FileOutcome again = ingestion.ingest(job(f, out.checkpoint()), retry, IngestListener.NONE, () -> false);
        assertThat(again.ending()).isEqualTo(FileOutcome.Ending.COMPLETED);
        assertThat(retry.records()).extracting(OutgoingRecord::index).startsWith(7L, 8L, 9L).doesNotContain(10L);
        assertThat(again.checkpoint().records()).isEqualTo(20 - 3);
    }

    @Test
    void tooManyDeadLettersFailTheFileWithTheSettingNamed() throws Exception {
        Path f = file("bad.xml", records(30));
        InMemoryTransactionalPublisher publisher = new InMemoryTransactionalPublisher();
        FileOutcome out = ingestion(config("file.max.rejected.records", "2")).ingest(job(f, null), publisher,
                IngestListener.NONE, () -> false);
        assertThat(out.ending()).isEqualTo(FileOutcome.Ending.FAILED);
        assertThat(out.failure().getMessage()).contains("file.max.rejected.records", "record index 17");
        // At the last dead letter's fault (its salary), as its rejection gave it, not at the record's start.
        assertThat(out.failure().location().orElseThrow().column()).isGreaterThan(1);
        assertThat(publisher.envelopes("t.dlq")).hasSize(3);
        assertThat(publisher.records()).extracting(OutgoingRecord::index).allMatch(i -> i < 17);
    }
}
