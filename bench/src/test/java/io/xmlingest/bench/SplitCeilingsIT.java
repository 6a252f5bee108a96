package io.xmlingest.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.app.kafka.EmbeddedKafkaBroker;
import io.xmlingest.sample.persons.Person;
import jakarta.xml.bind.JAXBContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The issue-6 ceilings convert every record and put each into Kafka once, or fail; they never hang on a fault. */
class SplitCeilingsIT {

    private static final int RECORDS = 2000;

    @TempDir
    static Path dir;

    private static EmbeddedKafkaBroker broker;
    private static Path file;
    private static JAXBContext context;

    @BeforeAll
    static void setUp() throws Exception {
        broker = EmbeddedKafkaBroker.start(dir.resolve("kafka"), "127.0.0.1", 0);
        file = Bench.dataFile(dir.resolve("data"), RECORDS);
        context = JAXBContext.newInstance(Person.class);
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @Test
    void eachVariantWithoutKafkaConvertsEveryRecord() throws Exception {
        assertThat(SplitCeilings.reparse(file, context, 2, SplitCeilings.Binding.STRICT, null)).isEqualTo(RECORDS);
        assertThat(SplitCeilings.replay(file, context, 2)).isEqualTo(RECORDS);
    }

    @Test
    void eachVariantIntoKafkaLeavesOneMessagePerRecordPerRun() throws Exception {
        try (KafkaSink sink = new KafkaSink(broker.bootstrapServers())) {
            assertThat(SplitCeilings.reparse(file, context, 2, SplitCeilings.Binding.LENIENT, sink)).isEqualTo(RECORDS);
            assertThat(SplitCeilings.studyPipelined(file, context, sink, false)).isEqualTo(RECORDS);
            assertThat(SplitCeilings.studyPipelined(file, context, sink, true)).isEqualTo(RECORDS);
            assertThat(messagesIn(sink.topic())).isEqualTo(3L * RECORDS);
        }
    }

    @Test
    void aRecordTheStrictBinderRefusesFailsTheRunInsteadOfHangingIt() throws Exception {
        Path bad = dir.resolve("bad.xml");
        String xml = Files.readString(file);
        // The third record's salary becomes a value no decimal parser takes.
        int third = xml.indexOf("<person", xml.indexOf("<person", xml.indexOf("<person") + 1) + 1);
        int salary = xml.indexOf("<salary>", third) + "<salary>".length();
        Files.writeString(bad, xml.substring(0, salary) + "lots" + xml.substring(xml.indexOf('<', salary)));
        assertThatThrownBy(() -> SplitCeilings.reparse(bad, context, 2, SplitCeilings.Binding.STRICT, null))
                .hasMessageContaining("a worker thread failed").hasMessageContaining("lots");
        assertThatThrownBy(() -> SplitCeilings.replay(bad, context, 2))
                .hasMessageContaining("a worker thread failed").hasMessageContaining("lots");
    }

    private static long messagesIn(String topic) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
            List<TopicPartition> partitions = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic)
                    .partitions().stream().map(p -> new TopicPartition(topic, p.partition())).toList();
            Map<TopicPartition, OffsetSpec> latest = partitions.stream()
                    .collect(Collectors.toMap(p -> p, p -> OffsetSpec.latest()));
            return admin.listOffsets(latest).all().get().values().stream().mapToLong(o -> o.offset()).sum();
        }
    }
}
