package io.xmlingest.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ConfigException;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.FileFailedException;
import io.xmlingest.core.error.RecordRejectedException;
import io.xmlingest.core.error.RetriableIngestException;
import io.xmlingest.core.page.OutgoingRecord;
import io.xmlingest.core.page.Page;
import io.xmlingest.core.publish.InMemoryPagePublisher;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IngestionPipelineTest {

    @TempDir
    Path dir;

    static String person(long id) {
        return "<person id=\"" + id + "\"><firstName>F" + id + "</firstName><lastName>L</lastName>"
                + "<email>f" + id + "@example.com</email><birthDate>1970-01-01</birthDate><active>true</active>"
                + "<salary>1.00</salary><phone type=\"home\">+1234567</phone><address><street>s</street>"
                + "<city>c</city><postalCode>12345</postalCode><country>DE</country></address></person>\n";
    }

    private Path file(String name, String records) throws Exception {
        return Files.writeString(dir.resolve(name),
                "<persons xmlns=\"urn:xmlingest:sample:persons\">\n" + records + "</persons>\n");
    }

    private static IngestConfig config(String... keyValues) {
        Map<String, String> flags = new HashMap<>(Map.of("topic", "t", "page.max.records", "3"));
        for (int i = 0; i < keyValues.length; i += 2) {
            flags.put(keyValues[i], keyValues[i + 1]);
        }
        return IngestConfig.of(IngestSettings.ALL, flags);
    }

    private static List<OutgoingRecord> published(InMemoryPagePublisher publisher) {
        List<OutgoingRecord> all = new ArrayList<>();
        publisher.pages().forEach(p -> all.addAll(p.records()));
        return all;
    }

    /**
     * A file still being written when it was taken: its file id was the hash of all it held when hashed, a moment after
     * its size was read, and it was read on to whatever end it had by then; records past the size it was taken at were
     * published under an id that did not cover them.
     */
    @Test
    void aFileIsHashedAndReadOnlyAsFarAsItWasLongWhenTaken() throws Exception {
        StringBuilder records = new StringBuilder();
        for (long i = 1; i <= 10; i++) {
            records.append(person(i));
        }
        Path f = file("growing.xml", records.toString());
        String whole = Files.readString(f);
        long taken = whole.indexOf("<person id=\"6\"") + 10;
        InMemoryPagePublisher publisher = new InMemoryPagePublisher();
        // One record a page: each record before the cut is handed over before the file fails there.
        IngestionPipeline pipeline = IngestionPipeline.create(config("page.max.records", "1"), publisher,
                IngestListener.NONE);

        assertThatThrownBy(() -> pipeline.ingest(f, taken)).isInstanceOf(FileFailedException.class)
                .hasMessageContaining("growing.xml");
        assertThat(published(publisher)).extracting(OutgoingRecord::index).containsExactly(0L, 1L, 2L, 3L, 4L);
        assertThat(publisher.pages()).extracting(Page::fileId).containsOnly(FileIdentity.sha256(f, taken));
    }

    private Path tenPersons() throws Exception {
        StringBuilder records = new StringBuilder();
        for (long i = 1; i <= 10; i++) {
            records.append(person(i));
        }
        return file("plain.xml", records.toString());
    }

    private static byte[] gzipped(Path file) throws Exception {
        java.io.ByteArrayOutputStream compressed = new java.io.ByteArrayOutputStream();
        try (java.util.zip.GZIPOutputStream gz = new java.util.zip.GZIPOutputStream(compressed)) {
            gz.write(Files.readAllBytes(file));
        }
        return compressed.toByteArray();
    }

    /**
     * A gzip file still being written when it was taken: it was inflated to whatever end it had by then, and records
     * past the size it was taken at were published. Read to that size, its stream breaks off there, and it fails.
     */
    @Test
    void aGzipFileIsReadOnlyAsFarAsItWasLongWhenTaken() throws Exception {
        Path gz = Files.write(dir.resolve("growing-" + java.util.UUID.randomUUID() + ".xml.gz"),
                gzipped(tenPersons()));
        InMemoryPagePublisher publisher = new InMemoryPagePublisher();
        IngestionPipeline pipeline = IngestionPipeline.create(config(), publisher, IngestListener.NONE);

        assertThatThrownBy(() -> pipeline.ingest(gz, Files.size(gz) - 8)).isInstanceOf(FileFailedException.class)
                .hasMessageContaining("not a whole gzip file");
        assertThat(published(publisher)).isEmpty();
        assertThat(pipeline.ingest(gz, Files.size(gz)).records()).isEqualTo(10);
    }

    @Test
    void aGzipFileOrZipArchiveIsIngestedAsItsPlainContentAndItsTemporaryCopyDeleted() throws Exception {
        Path plain = tenPersons();
        String unique = "gz-" + java.util.UUID.randomUUID() + ".xml.gz";
        Path gz = Files.write(dir.resolve(unique), gzipped(plain));
        InMemoryPagePublisher fromPlain = new InMemoryPagePublisher();
        InMemoryPagePublisher fromGzip = new InMemoryPagePublisher();

        IngestionPipeline.create(config(), fromPlain, IngestListener.NONE).ingest(plain);
        FileSummary s = IngestionPipeline.create(config(), fromGzip, IngestListener.NONE).ingest(gz);

        assertThat(s.records()).isEqualTo(10);
        // The identity of its content, as the worker's: the same records plain or compressed are one file.
        assertThat(s.fileId()).isEqualTo(FileIdentity.sha256(plain));
        assertThat(s.fileBytes()).isEqualTo(Files.size(gz));
        assertThat(published(fromGzip)).extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
                .containsExactlyElementsOf(published(fromPlain).stream()
                        .map(r -> new String(r.value(), StandardCharsets.UTF_8)).toList());
        try (java.util.stream.Stream<Path> left = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.contains(unique));
        }

        // A zip archive of the same one file is the same content again.
        Path zip = dir.resolve("zip-" + java.util.UUID.randomUUID() + ".zip");
        try (java.util.zip.ZipOutputStream out = new java.util.zip.ZipOutputStream(Files.newOutputStream(zip))) {
            out.putNextEntry(new java.util.zip.ZipEntry("plain.xml"));
            Files.copy(plain, out);
        }
        InMemoryPagePublisher fromZip = new InMemoryPagePublisher();
        FileSummary z = IngestionPipeline.create(config(), fromZip, IngestListener.NONE).ingest(zip);
        assertThat(z.fileId()).isEqualTo(FileIdentity.sha256(plain));
        assertThat(published(fromZip)).extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
                .containsExactlyElementsOf(published(fromPlain).stream()
                        .map(r -> new String(r.value(), StandardCharsets.UTF_8)).toList());
    }

    @Test
    void publishesEveryRecordInPagesKeyedById() throws Exception {
        StringBuilder records = new StringBuilder();
        for (long i = 1; i <= 10; i++) {
            records.append(person(i * 100));
        }
        Path f = file("ten.xml", records.toString());
        InMemoryPagePublisher publisher = new InMemoryPagePublisher();
        FileSummary s = IngestionPipeline.create(config(), publisher, IngestListener.NONE).ingest(f);

        assertThat(s.records()).isEqualTo(10);
        assertThat(s.pages()).isEqualTo(4);
        assertThat(s.rejected()).isZero();
        assertThat(s.fileId()).isEqualTo(FileIdentity.sha256(f)).hasSize(64);
        assertThat(publisher.pages()).extracting(Page::size).containsExactly(3, 3, 3, 1);
        List<OutgoingRecord> out = published(publisher);
        assertThat(out).extracting(OutgoingRecord::index).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
        assertThat(out).extracting(r -> new String(r.key(), StandardCharsets.UTF_8))
                .containsExactly("100", "200", "300", "400", "500", "600", "700", "800", "900", "1000");
        assertThat(new String(out.get(0).value(), StandardCharsets.UTF_8)).startsWith("{\"id\":100,\"firstName\":\"F100\"");
        assertThat(s.messageBytes()).isEqualTo(out.stream().mapToLong(OutgoingRecord::size).sum());
    }

    @Test
    void withoutAKeySettingTheKeyIsFileIdAndIndex() throws Exception {
        Path f = file("k.xml", person(1) + person(2));
        InMemoryPagePublisher publisher = new InMemoryPagePublisher();
        FileSummary s = IngestionPipeline.create(config("record.key", ""), publisher, IngestListener.NONE).ingest(f);
        assertThat(published(publisher)).extracting(r -> new String(r.key(), StandardCharsets.UTF_8))
                .containsExactly(s.fileId() + ":0", s.fileId() + ":1");
    }

    @Test
    void rejectedRecordsAreReportedAndNotPublishedWhileTheRestIs() throws Exception {
        Path f = file("bad.xml", person(1) + person(2).replace("<salary>1.00", "<salary>x")
                + person(3).replace("<city>c</city>", "") + person(4));
        InMemoryPagePublisher publisher = new InMemoryPagePublisher();
        RejectedRecords listener = new RejectedRecords();
        List<RecordRejectedException> rejected = listener.all;
        FileSummary s = IngestionPipeline.create(config(), publisher, listener).ingest(f);
        assertThat(s.records()).isEqualTo(2);
        assertThat(s.rejected()).isEqualTo(2);
        assertThat(published(publisher)).extracting(OutgoingRecord::index).containsExactly(0L, 3L);
        assertThat(rejected).extracting(e -> e.location().map(ErrorLocation::recordIndex).orElse(-1L))
                .containsExactly(1L, 2L);
        assertThat(rejected.get(0).getMessage()).contains("bad.xml", "line 3");
        assertThat(rejected.get(1).getMessage()).contains("address/city");
    }

    @Test
    void moreRejectionsThanAllowedFailTheFileNamingTheSetting() throws Exception {
        Path f = file("worse.xml", person(1) + person(2).replace("<salary>1.00", "<salary>x")
                + person(3).replace("<salary>1.00", "<salary>y") + person(4));
        InMemoryPagePublisher publisher = new InMemoryPagePublisher();
        List<RecordRejectedException> rejected = new ArrayList<>();
        assertThatThrownBy(() -> IngestionPipeline.create(config("file.max.rejected.records", "1"), publisher,
                new IngestListener() {
                    @Override
                    public void rejected(RecordRejectedException e) {
                        rejected.add(e);
                    }
                }).ingest(f))
                .isInstanceOfSatisfying(FileFailedException.class, e -> {
                    assertThat(e.getMessage()).contains("file.max.rejected.records", "record index 2");
                    // Where the last rejection said its fault was, not the record's start.
                    assertThat(e.location()).isEqualTo(rejected.get(1).location());
                    assertThat(e.location().orElseThrow().column()).isGreaterThan(1);
                });
    }

    @Test
    void aFileThatBreaksMidWayKeepsThePagesBeforeTheFault() throws Exception {
        StringBuilder records = new StringBuilder();
        for (long i = 1; i <= 7; i++) {
            records.append(person(i));
        }
        records.append("<person id=\"8\"><firstName>unclosed</person>\n");
        Path f = file("broken.xml", records.toString());
        InMemoryPagePublisher publisher = new InMemoryPagePublisher();
        assertThatThrownBy(() -> IngestionPipeline.create(config(), publisher, IngestListener.NONE).ingest(f))
                .isInstanceOf(FileFailedException.class)
                .hasMessageContaining("broken.xml")
                .hasMessageContaining("record index 7")
                .hasMessageContaining("line 9");
        assertThat(published(publisher)).extracting(OutgoingRecord::index).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
    }

    @Test
    void aPublishFailureStopsTheFile() throws Exception {
        Path f = file("p.xml", person(1) + person(2));
        InMemoryPagePublisher publisher = new InMemoryPagePublisher();
        publisher.failWith(new RetriableIngestException("broker down", null, "kafka.delivery.timeout.ms", null));
        assertThatThrownBy(() -> IngestionPipeline.create(config(), publisher, IngestListener.NONE).ingest(f))
                .isInstanceOf(RetriableIngestException.class).hasMessageContaining("broker down");
    }

    @Test
    void aRecordTooLargeForKafkaIsRejectedAndTheFileGoesOn() throws Exception {
        Path f = file("large.xml", person(1) + person(2).replace("<street>s</street>", "<street>" + "s".repeat(5000)
                + "</street>") + person(3));
        InMemoryPagePublisher publisher = new InMemoryPagePublisher();
        List<RecordRejectedException> rejected = new ArrayList<>();
        FileSummary s = IngestionPipeline.create(config("kafka.max.request.size", "2KiB"), publisher,
                new IngestListener() {
                    @Override
                    public void rejected(RecordRejectedException e) {
                        rejected.add(e);
                    }
                }).ingest(f);
        assertThat(s.records()).isEqualTo(2);
        assertThat(published(publisher)).extracting(OutgoingRecord::index).containsExactly(0L, 2L);
        assertThat(rejected).singleElement().satisfies(e -> assertThat(e.getMessage())
                .contains("too large", "large.xml", "record index 1", "kafka.max.request.size", "2048"));
    }

    @Test
    void aFileWithoutRecordsPublishesNothing() throws Exception {
        Path f = file("empty.xml", "");
        InMemoryPagePublisher publisher = new InMemoryPagePublisher();
        FileSummary s = IngestionPipeline.create(config(), publisher, IngestListener.NONE).ingest(f);
        assertThat(s.records()).isZero();
        assertThat(publisher.pages()).isEmpty();
    }

    @Test
    void aMissingFileAndAMissingKeySayWhatIsMissing() throws Exception {
        assertThatThrownBy(() -> IngestionPipeline.create(config(), new InMemoryPagePublisher(), IngestListener.NONE)
                .ingest(dir.resolve("gone.xml")))
                .isInstanceOf(FileFailedException.class)
                .hasMessageStartingWith("cannot read the file: no such file or directory [file ").hasMessageContaining("gone.xml");

        RejectedRecords listener = new RejectedRecords();
        // The sample model requires every value a key could be; schema-less records have no such rule.
        IngestionPipeline.create(config("record.class", "-", "record.key", "nickname"), new InMemoryPagePublisher(),
                listener).ingest(file("nokey.xml", person(1)));
        assertThat(listener.all).singleElement().satisfies(e -> {
            assertThat(e.reason()).isEqualTo("record has no value for its key 'nickname'");
            // The setting travels with the rejection (a dead letter's "setting"), not only in the text.
            assertThat(e.settingKey()).contains("record.key");
        });

        // An empty value is no key either: before, such records were published with an empty key, all of them
        // on one partition and one entry of a compacted topic.
        RejectedRecords empty = new RejectedRecords();
        InMemoryPagePublisher published = new InMemoryPagePublisher();
        IngestionPipeline.create(config("record.key", "firstName"), published, empty)
                .ingest(file("emptykey.xml", person(1).replace("<firstName>F1</firstName>", "<firstName></firstName>")
                        + person(2).replace("<firstName>F2</firstName>", "<firstName> \n</firstName>") + person(3)));
        assertThat(empty.all).hasSize(2);
        assertThat(empty.all.get(0).reason()).isEqualTo("record has an empty value for its key 'firstName'");
        assertThat(empty.all.get(0).settingKey()).contains("record.key");
        assertThat(empty.all.get(1).reason()).isEqualTo("record has a blank value for its key 'firstName'");
        assertThat(published.pages()).flatExtracting(p -> p.records()).extracting(r -> r.index()).containsExactly(2L);
        RejectedRecords schemaless = new RejectedRecords();
        IngestionPipeline.create(config("record.class", "-", "record.key", "id"), new InMemoryPagePublisher(), schemaless)
                .ingest(file("emptyid.xml", person(1).replace("id=\"1\"", "id=\"\"")));
        assertThat(schemaless.all).singleElement().extracting(e -> e.reason())
                .isEqualTo("record has an empty value for its key 'id'");
    }

    @Test
    void wrongModelSettingsStopStartUpNamingTheSetting() {
        assertThatThrownBy(() -> IngestionPipeline.model(config("record.class", "com.example.Nope")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("record.class");
        assertThatThrownBy(() -> IngestionPipeline.model(config("record.key", "nope")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("record.key");
    }
}
