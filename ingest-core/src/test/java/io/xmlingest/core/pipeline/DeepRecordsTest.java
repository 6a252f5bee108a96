package io.xmlingest.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.ctc.wstx.api.WstxInputProperties;
import com.ctc.wstx.stax.WstxInputFactory;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.RecordRejectedException;
import io.xmlingest.core.page.OutgoingRecord;
import io.xmlingest.core.pipeline.deep.Folder;
import io.xmlingest.core.publish.InMemoryPagePublisher;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import javax.xml.stream.XMLStreamReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Model records as deep as xml.max.depth lets in. Before, one 500 levels deep was rejected by
 * Jackson's own nesting limit (1,000), in a message naming no setting of ours, and one 20,000
 * deep overflowed the binder thread's stack, which failed the whole file.
 */
class DeepRecordsTest {

    private static final String NS = "urn:xmlingest:test:folder";
    private static final int DEPTH = 5_000;

    @TempDir
    Path dir;

    /** A folder record nesting {@code levels} more elements named {@code inner} (folders, or wildcard content). */
    private static String folder(String name, String inner, int levels) {
        StringBuilder x = new StringBuilder("<folder name='").append(name).append("'>");
        x.append(("<" + inner + ">").repeat(levels)).append(("</" + inner + ">").repeat(levels));
        return x.append("</folder>").toString();
    }

    private static IngestConfig config(int maxDepth) {
        return IngestConfig.of(IngestSettings.ALL, Map.of("topic", "t",
                "record.element", "{" + NS + "}folder", "record.class", Folder.class.getName(),
                "record.key", "name", "xml.max.depth", Integer.toString(maxDepth)));
    }

    @Test
    void recordsAsDeepAsTheDepthLimitAreWrittenWhole() throws Exception {
        Path file = Files.writeString(dir.resolve("deep.xml"), "<folders xmlns='" + NS + "'>"
                + folder("tree", "folder", DEPTH) + folder("open", "other", DEPTH) + folder("flat", "other", 0)
                + "</folders>");
        List<String> rejections = new ArrayList<>();
        InMemoryPagePublisher publisher = new InMemoryPagePublisher();

        FileSummary summary = IngestionPipeline.create(config(DEPTH + 10), publisher, new IngestListener() {
            @Override
            public void rejected(RecordRejectedException e) {
                rejections.add(e.getMessage());
            }
        }).ingest(file);

        assertThat(rejections).isEmpty();
        assertThat(summary.records()).isEqualTo(3);
        List<String> json = new ArrayList<>();
        publisher.pages().forEach(p -> p.records().forEach(r -> json.add(new String(r.value(), StandardCharsets.UTF_8))));
        // A folder level is an array and an object: {"name":"tree","folder":[{"folder":[{... {}]}]}. Compared
        // piecewise: a failure message quoting 5,000 levels helps nobody.
        String tree = json.get(0);
        assertThat(tree.startsWith("{\"name\":\"tree\",\"folder\":[{\"folder\":[{")).as("tree start").isTrue();
        assertThat(tree.endsWith("{}" + "]}".repeat(DEPTH))).as("tree end").isTrue();
        assertThat(count(tree, "\"folder\":[")).isEqualTo(DEPTH);
        // Wildcard content follows the schema-less rules: an element with only a child is an object.
        String open = json.get(1);
        assertThat(open.startsWith("{\"name\":\"open\",\"any\":[{\"other\":{\"other\":{")).as("open start").isTrue();
        assertThat(open.endsWith("\"other\":\"\"" + "}".repeat(DEPTH) + "]}")).as("open end").isTrue();
        assertThat(count(open, "\"other\":")).isEqualTo(DEPTH);
        assertThat(json.get(2)).isEqualTo("{\"name\":\"flat\"}");
    }

    @Test
    void aThreadWithLessStackRejectsTheRecordAloneNamingTheDepthLimit() throws Exception {
        RecordConverter converter = new RecordConverter(RecordModel.of(config(DEPTH + 10)), 1 << 20, DEPTH + 10, false);
        AtomicReference<Object> tooDeep = new AtomicReference<>();
        AtomicReference<Object> next = new AtomicReference<>();
        // Far less than binderStackBytes gives for this depth: about 1,600 levels fit in a megabyte.
        Thread small = new Thread(null, () -> {
            tooDeep.set(convert(converter, folder("tree", "folder", DEPTH), 0));
            next.set(convert(converter, folder("small", "folder", 3), 1));
        }, "small-stack", 256 * 1024);
        small.start();
        small.join();

        assertThat(tooDeep.get()).isInstanceOfSatisfying(RecordRejectedException.class, e -> assertThat(e.getMessage())
                .contains("record nests too deeply to be converted on this thread's stack")
                .contains("record index 0").contains("setting: xml.max.depth"));
        // The unmarshaller the overflow interrupted is not used again.
        assertThat(next.get()).isInstanceOfSatisfying(OutgoingRecord.class, r -> assertThat(
                new String(r.value(), StandardCharsets.UTF_8)).isEqualTo(
                "{\"name\":\"small\",\"folder\":[{\"folder\":[{\"folder\":[{}]}]}]}"));
        assertThat(ConvertedRecords.binderStackBytes(DEPTH + 10)).isGreaterThan(10_000_000L);
        assertThat(ConvertedRecords.binderStackBytes(IngestSettings.XML_MAX_DEPTH.defaultValue().orElseThrow())).isZero();
    }

    private static Object convert(RecordConverter converter, String record, long index) {
        try {
            WstxInputFactory f = new WstxInputFactory();
            f.setProperty(WstxInputProperties.P_MAX_ELEMENT_DEPTH, DEPTH + 10);
            XMLStreamReader reader = f.createXMLStreamReader(new StringReader(
                    record.replaceFirst("<folder ", "<folder xmlns='" + NS + "' ")));
            reader.nextTag();
            return converter.convert(reader, index, new ErrorLocation("deep.xml", index, 1, 1, 0), "deep.xml", "id");
        } catch (RuntimeException | Error e) {
            return e;
        } catch (Exception e) {
            return new IllegalStateException(e);
        }
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }
}
