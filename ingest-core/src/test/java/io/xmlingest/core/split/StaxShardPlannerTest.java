package io.xmlingest.core.split;

import static org.assertj.core.api.Assertions.assertThat;

import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.pipeline.IngestionPipeline;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each case puts a range boundary (file size x i / shards) where a naive byte search would go
 * wrong, and checks that the shards, read as a shard reader reads them, hold every record once.
 */
class StaxShardPlannerTest {

    private static final String NS = "urn:xmlingest:test";
    private static final RecordElements ITEM = RecordElements.of(new QName(NS, "item"));

    @TempDir
    Path dir;

    private static XmlLimits limits() {
        return IngestionPipeline.limits(IngestConfig.of(IngestSettings.ALL, Map.of("topic", "t")));
    }

    private static String item(int i, String filler) {
        return "<p:item id=\"" + i + "\">" + filler + "</p:item>\n";
    }

    /** The ids of the records of each shard, read by seeking to the shard's start as a worker does. */
    private List<List<String>> read(Path f, List<Shard> shards) {
        List<List<String>> out = new ArrayList<>();
        for (Shard s : shards) {
            List<String> ids = new ArrayList<>();
            try (StaxRecordSplitter r = s.start() == null ? StaxRecordSplitter.open(f, "f.xml", ITEM, limits())
                    : StaxRecordSplitter.resume(f, "f.xml", ITEM, limits(), s.start(), s.firstRecordIndex())) {
                while (r.next() && r.position().recordIndex() < s.endRecordIndex()) {
                    assertThat(r.position().byteOffset()).isLessThan(s.next() == null ? Long.MAX_VALUE : s.next().byteOffset());
                    ids.add(r.record().getAttributeValue(null, "id") + "@" + r.position().recordIndex());
                }
            }
            out.add(ids);
        }
        return out;
    }

    private Path write(String body) throws Exception {
        return Files.writeString(dir.resolve("f.xml"), "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<p:items xmlns:p=\"" + NS + "\" xmlns:x=\"urn:other\">\n" + body + "</p:items>\n", StandardCharsets.UTF_8);
    }

    private static List<String> all(List<List<String>> shards) {
        List<String> flat = new ArrayList<>();
        shards.forEach(flat::addAll);
        return flat;
    }

    private static List<String> expected(int count) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(i + "@" + i);
        }
        return ids;
    }

    @Test
    void everyRecordIsInExactlyOneShardWithItsFileIndex() throws Exception {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 500; i++) {
            body.append(item(i, "<x:v>" + "v".repeat(i % 37) + "</x:v>"));
        }
        Path f = write(body.toString());
        for (int n : new int[] {1, 2, 3, 7, 12, 64}) {
            List<Shard> plan = new StaxShardPlanner(ITEM, limits()).plan(f, "f.xml", n);
            assertThat(plan).hasSize(n);
            List<List<String>> shards = read(f, plan);
            assertThat(all(shards)).as("%d shards", n).containsExactlyElementsOf(expected(500));
            shards.forEach(s -> assertThat(s).isNotEmpty());
        }
    }

    @Test
    void aBoundaryInsideACommentOrCdataHoldingTheStartTagTextIsNotARecordStart() throws Exception {
        String fake = "<p:item id=\"fake\">x</p:item>";
        String comment = "<!-- " + fake.repeat(40) + " -->";
        String cdata = "<x:note><![CDATA[" + fake.repeat(40) + "]]></x:note>";
        String body = item(0, "") + comment + "\n" + item(1, cdata) + item(2, "") + "<x:a t='" + "&lt;p:item id=&quot;no&quot;&gt;".repeat(20) + "'/>\n" + item(3, "");
        Path f = write(body);
        long size = Files.size(f);
        String text = Files.readString(f);
        // Two shards cut in the middle of the comment, three in it and in the CDATA section.
        assertThat(text.indexOf(comment)).isLessThan((int) (size / 2));
        for (int n = 2; n <= 9; n++) {
            List<Shard> plan = new StaxShardPlanner(ITEM, limits()).plan(f, "f.xml", n);
            assertThat(all(read(f, plan))).as("%d shards", n).containsExactlyElementsOf(expected(4));
            for (Shard s : plan) {
                if (s.start() != null) {
                    assertThat(text.substring((int) s.start().byteOffset())).startsWith("<p:item id=\"" + s.firstRecordIndex() + "\"");
                }
            }
        }
    }

    @Test
    void aBoundaryInsideARecordOrAMultiByteCharacterMovesToTheNextRecordStart() throws Exception {
        // Records of multi-byte text only: every byte boundary falls inside a record, most inside a character.
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            body.append(item(i, "<x:v>" + "\u00e9\u4e2d\ud83d\ude00".repeat(13 + i % 5) + "</x:v>"));
        }
        Path f = write(body.toString());
        byte[] bytes = Files.readAllBytes(f);
        for (int n : new int[] {2, 3, 5, 11, 40, 80}) {
            List<Shard> plan = new StaxShardPlanner(ITEM, limits()).plan(f, "f.xml", n);
            assertThat(all(read(f, plan))).as("%d shards", n).containsExactlyElementsOf(expected(40));
            for (Shard s : plan) {
                if (s.start() != null) {
                    String at = new String(bytes, (int) s.start().byteOffset(), 12, StandardCharsets.UTF_8);
                    assertThat(at).startsWith("<p:item id=");
                }
            }
        }
    }

    @Test
    void aBoundaryAtTheExactStartOfARecordStartsTheShardThere() throws Exception {
        // 3 records of equal length after a prolog padded so that record 2 starts at exactly half the file.
        String a = item(0, "a".repeat(50));
        String b = item(1, "b".repeat(50));
        String c = item(2, "c".repeat(50));
        String head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<p:items xmlns:p=\"" + NS + "\" xmlns:x=\"urn:other\">\n";
        String tail = "</p:items>\n";
        int before = head.length() + a.length() + b.length();
        int after = c.length() + tail.length();
        // Pad with a comment after the last record until the second half starts at record 2.
        String pad = "<!--" + "-".repeat(0) + " ".repeat(before - after - 7) + "-->";
        Path f = Files.writeString(dir.resolve("f.xml"), head + a + b + c + pad + tail, StandardCharsets.UTF_8);
        assertThat(Files.size(f) / 2).isEqualTo(before);
        List<Shard> plan = new StaxShardPlanner(ITEM, limits()).plan(f, "f.xml", 2);
        assertThat(plan).hasSize(2);
        assertThat(plan.get(1).start().byteOffset()).isEqualTo(before);
        assertThat(plan.get(1).firstRecordIndex()).isEqualTo(2);
        assertThat(read(f, plan)).containsExactly(List.of("0@0", "1@1"), List.of("2@2"));
    }

    @Test
    void aFileWithFewerRecordsThanRangesGetsFewerShardsAndAnEmptyFileOne() throws Exception {
        Path f = write(item(0, "z".repeat(4000)) + item(1, ""));
        List<Shard> plan = new StaxShardPlanner(ITEM, limits()).plan(f, "f.xml", 8);
        assertThat(plan).hasSize(2);
        assertThat(plan).extracting(Shard::count).containsOnly(2);
        assertThat(all(read(f, plan))).containsExactlyElementsOf(expected(2));

        Path empty = write("");
        assertThat(new StaxShardPlanner(ITEM, limits()).plan(empty, "f.xml", 8)).hasSize(1);
    }

    /** A file still being written when it was hashed is cut as it was then: its later records are in no shard. */
    @Test
    void aFileIsCutOnlyAsFarAsTheEndItIsGiven() throws Exception {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 400; i++) {
            body.append(item(i, "<x:v>" + "v".repeat(20) + "</x:v>"));
        }
        Path f = write(body.toString());
        long end = Files.size(f) / 4;
        List<Shard> plan = new StaxShardPlanner(ITEM, limits()).plan(f, "f.xml", 4, end);
        assertThat(plan).hasSize(4);
        assertThat(plan).allSatisfy(s -> assertThat(s.start() == null ? 0 : s.start().byteOffset()).isLessThan(end));
        // Cut whole, its last shard starts past that end.
        List<Shard> whole = new StaxShardPlanner(ITEM, limits()).plan(f, "f.xml", 4);
        assertThat(whole.get(3).start().byteOffset()).isGreaterThan(end);
    }

    @Test
    void aFaultEndsThePlanAndTheLastShardMeetsIt() throws Exception {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            body.append(item(i, i == 70 ? "<broken>" : ""));
        }
        Path f = write(body.toString());
        List<Shard> plan = new StaxShardPlanner(ITEM, limits()).plan(f, "f.xml", 10);
        Shard last = plan.get(plan.size() - 1);
        assertThat(last.firstRecordIndex()).isLessThanOrEqualTo(70);
        assertThat(last.next()).isNull();
        assertThat(plan.size()).isBetween(2, 8);
    }
}
