package io.xmlingest.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xmlingest.app.cli.Main;
import io.xmlingest.datagen.DatagenCommand;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** datagen → ingest → real broker → read_committed: every record exactly once, field by field. */
class EndToEndIT {

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.USE_LONG_FOR_INTS);

    @TempDir
    Path dir;

    @Test
    void everyRecordArrivesExactlyOnceEqualToTheSource() throws Exception {
        Path file = DatagenCommand.generate(dir.resolve("persons-10k.xml"), 10_000, 42);
        String topic = TestBroker.uniqueTopic("persons");
        String bootstrap = TestBroker.bootstrapServers();

        int exit = Main.run("ingest", file.toString(), "--topic", topic, "--bootstrap-servers", bootstrap,
                "-s", "page.max.records=500");
        assertThat(exit).isZero();

        List<Map<String, Object>> expected = ExpectedPersons.parse(file);
        assertThat(expected).hasSize(10_000);
        String fileId = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));

        List<ConsumerRecord<byte[], byte[]>> records = TestBroker.readCommitted(bootstrap, topic);
        assertThat(records).hasSize(10_000);
        Map<Long, ConsumerRecord<byte[], byte[]>> byIndex = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            long index = Long.parseLong(header(r, "xmlingest.record.index"));
            assertThat(byIndex.put(index, r)).as("record index %d published once", index).isNull();
        }
        for (int i = 0; i < expected.size(); i++) {
            ConsumerRecord<byte[], byte[]> r = byIndex.get((long) i);
            assertThat(r).as("record index %d", i).isNotNull();
            Map<?, ?> actual = JSON.readValue(r.value(), Map.class);
            Map<String, Object> want = expected.get(i);
            assertThat(actual).as("record index %d", i).isEqualTo(want);
            assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo(want.get("id").toString());
            assertThat(header(r, "xmlingest.file")).isEqualTo(file.toString());
            assertThat(header(r, "xmlingest.file.id")).isEqualTo(fileId);
            assertThat(header(r, "xmlingest.page")).isEqualTo(Long.toString(i / 500));
        }
    }

    static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        assertThat(h).as("header %s", name).isNotNull();
        return new String(h.value(), StandardCharsets.UTF_8);
    }
}
