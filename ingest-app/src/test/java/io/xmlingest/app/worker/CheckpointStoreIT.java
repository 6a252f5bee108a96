package io.xmlingest.app.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.xmlingest.app.TestBroker;
import io.xmlingest.core.checkpoint.Checkpoint;
import io.xmlingest.core.checkpoint.CheckpointCodec;
import io.xmlingest.core.checkpoint.FileState;
import io.xmlingest.core.checkpoint.KafkaCheckpointStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * The worker re-reads the checkpoint topic before each file. A commit's markers are written
 * after the commit returns, so that read can end before the worker's own last checkpoint: it
 * once took a completed file back to its previous checkpoint, and the same content dropped again
 * was ingested a second time from there.
 */
class CheckpointStoreIT {

    private static Checkpoint checkpoint(FileState state, long next, long records) {
        return new Checkpoint("f1", "a.xml", state, next, null, records, 0, next / 100, null);
    }

    @Test
    void aRefreshNeverTakesAFileBackToAnOlderCheckpoint() throws Exception {
        String bootstrap = TestBroker.bootstrapServers();
        String topic = TestBroker.uniqueTopic("checkpoints");
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        }
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            for (long next : new long[] {1000, 2000, 2600}) {
                producer.send(new ProducerRecord<>(topic, "f1".getBytes(), CheckpointCodec.encode(
                        checkpoint(FileState.IN_PROGRESS, next, next)))).get();
            }
        }
        Properties consumer = new Properties();
        consumer.put("bootstrap.servers", bootstrap);
        try (KafkaCheckpointStore store = new KafkaCheckpointStore(consumer, topic, Duration.ofSeconds(30))) {
            // What the worker records when its last commit returns, before the topic shows it.
            store.committed(checkpoint(FileState.COMPLETED, 3000, 3000));
            store.refresh();
            assertThat(store.find("f1")).get().extracting(Checkpoint::state).isEqualTo(FileState.COMPLETED);
        }
        try (KafkaCheckpointStore fresh = new KafkaCheckpointStore(consumer, topic, Duration.ofSeconds(30))) {
            fresh.refresh();
            assertThat(fresh.find("f1")).get().extracting(Checkpoint::nextRecordIndex).isEqualTo(2600L);
        }
    }
}
