package io.xmlingest.bench;

import io.xmlingest.app.kafka.EmbeddedKafkaBroker;
import io.xmlingest.core.checkpoint.Checkpoint;
import io.xmlingest.core.checkpoint.CheckpointCodec;
import io.xmlingest.core.checkpoint.FileState;
import io.xmlingest.core.checkpoint.KafkaCheckpointStore;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.pipeline.KafkaSession;
import io.xmlingest.core.pipeline.StepTimes;
import io.xmlingest.core.publish.TopicNames;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * What opening a transactional session costs once the checkpoint topic holds a long history: a
 * sharing worker opens one per shard. With a store of its own, a session reads every checkpoint
 * ever kept; on the worker's shared store, it reads on from where the store was.
 *
 * <pre>
 * java -XX:+UseParallelGC -cp bench/target/bench.jar io.xmlingest.bench.SessionOpenCost CHECKPOINTS [RUNS]
 * </pre>
 *
 * Starts a broker in this JVM, writes CHECKPOINTS checkpoints as ended files in 12 shards leave them
 * (each file's shards, then its ending), then opens and closes a session RUNS times each way,
 * alternately, and prints the medians, and the heap the shared store holds them in.
 */
public final class SessionOpenCost {

    private SessionOpenCost() {
    }

    public static void main(String[] args) throws Exception {
        int checkpoints = Integer.parseInt(args[0]);
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(Files.createTempDirectory("session-cost"),
                "127.0.0.1", 0)) {
            IngestConfig config = IngestConfig.of(IngestSettings.ALL, Map.of(IngestSettings.TOPIC.key(), "history",
                    IngestSettings.BOOTSTRAP_SERVERS.key(), broker.bootstrapServers()));
            TopicNames topics = TopicNames.of(config);
            KafkaSession.checkpoints(config, topics, StepTimes.NONE).close(); // makes the topics
            fill(broker.bootstrapServers(), topics.checkpoints(), checkpoints);
            List<Double> own = new ArrayList<>();
            List<Double> shared = new ArrayList<>();
            long before = usedHeapAfterGc();
            try (KafkaCheckpointStore store = KafkaSession.checkpoints(config, topics, StepTimes.NONE)) {
                // Every checkpoint ever kept stays in the store's memory, so this grows with the history.
                System.out.printf(Locale.ROOT, "the store read %,d checkpoints (%,d ended files) and holds them in about "
                        + "%.1f MB of heap%n", checkpoints, checkpoints / 13, (usedHeapAfterGc() - before) / 1e6);
                for (int r = 0; r < runs; r++) {
                    long t0 = System.nanoTime();
                    try (KafkaSession s = KafkaSession.open(config, topics, "own-" + r, () -> false, x -> { },
                            StepTimes.NONE)) {
                        requireHistory(s);
                    }
                    own.add((System.nanoTime() - t0) / 1e6);
                    t0 = System.nanoTime();
                    try (KafkaSession s = KafkaSession.open(config, store, "shared-" + r, () -> false, x -> { })) {
                        requireHistory(s);
                    }
                    shared.add((System.nanoTime() - t0) / 1e6);
                }
            }
            System.out.printf(Locale.ROOT, "%,d checkpoints; open and close a session, median of %d: own store %.0f ms, "
                    + "shared store %.0f ms%n", checkpoints, runs, median(own), median(shared));
        }
    }

    private static void fill(String bootstrap, String topic, int n) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            for (int i = 0; i < n; i++) {
                // As a sharing worker leaves them: each file's 12 shards, then the file's ending.
                int shard = i % 13 < 12 ? i % 13 : -1;
                Checkpoint c = new Checkpoint("file" + i / 13, "file.xml", FileState.COMPLETED, 1000, null, 1000, 0, 1,
                        null, shard, shard < 0 ? 12 : 0);
                producer.send(new ProducerRecord<>(topic, c.key().getBytes(StandardCharsets.UTF_8),
                        CheckpointCodec.encode(c)));
            }
            producer.flush();
        }
    }

    /** A session that did not read the history would make the comparison meaningless. */
    private static void requireHistory(KafkaSession s) {
        if (s.checkpoints().find("file0").isEmpty()) {
            throw new IllegalStateException("the session does not see the checkpoints written before it");
        }
    }

    private static long usedHeapAfterGc() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return rt.totalMemory() - rt.freeMemory();
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }
}
