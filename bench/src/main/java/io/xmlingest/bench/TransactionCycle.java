package io.xmlingest.bench;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * What Kafka alone costs a small file on the worker's path, with none of this project's code: read
 * a checkpoint topic to its end ({@code read_committed}), then one transaction of RECORDS records
 * of 500 bytes and one checkpoint record, committed. The worker pays this once per file, whatever
 * the file's size, so it sets the floor under many small files.
 *
 * <pre>
 * java -cp bench/target/bench.jar io.xmlingest.bench.TransactionCycle BOOTSTRAP [CYCLES] [RECORDS] [LINGER_MS] [FETCH_MAX_WAIT_MS]
 * </pre>
 *
 * A broker in its own process, as the worker sees one: {@code java -jar ingest-app/target/ingest-app.jar
 * broker --port 0 --data DIR} prints its address. Defaults: 300 cycles, 100 records, the worker's
 * linger.ms (10) and its checkpoint reader's fetch.max.wait.ms (10). Prints the median and 90th
 * percentile of each step, and of the end offsets' request on its own, right after a commit and,
 * first, with no commit before it.
 */
public final class TransactionCycle {

    private TransactionCycle() {
    }

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        int cycles = args.length > 1 ? Integer.parseInt(args[1]) : 300;
        int records = args.length > 2 ? Integer.parseInt(args[2]) : 100;
        int linger = args.length > 3 ? Integer.parseInt(args[3]) : 10;
        int fetchWait = args.length > 4 ? Integer.parseInt(args[4]) : 10;
        String run = Long.toString(System.currentTimeMillis());
        String data = "cycle-data-" + run;
        String checkpoints = "cycle-checkpoints-" + run;
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.createTopics(List.of(new NewTopic(data, 1, (short) 1), new NewTopic(checkpoints, 1, (short) 1)))
                    .all().get();
        }
        byte[] value = new byte[500];
        Arrays.fill(value, (byte) 'x');
        long[] idle = new long[cycles];
        long[] endOffsets = new long[cycles];
        long[] read = new long[cycles];
        long[] send = new long[cycles];
        long[] commit = new long[cycles];
        TopicPartition tp = new TopicPartition(checkpoints, 0);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producer(bootstrap, linger, run));
             KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumer(bootstrap, fetchWait))) {
            producer.initTransactions();
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            // The same request with no commit just before it: what the broker answers in when not busy with one.
            for (int i = 0; i < cycles; i++) {
                long t0 = System.nanoTime();
                consumer.endOffsets(List.of(tp));
                idle[i] = System.nanoTime() - t0;
            }
            for (int i = 0; i < cycles; i++) {
                long t0 = System.nanoTime();
                long end = consumer.endOffsets(List.of(tp)).get(tp);
                long t1 = System.nanoTime();
                while (consumer.position(tp) < end) {
                    consumer.poll(Duration.ofMillis(200));
                }
                long t2 = System.nanoTime();
                producer.beginTransaction();
                for (int r = 0; r < records; r++) {
                    producer.send(new ProducerRecord<>(data, value));
                }
                producer.send(new ProducerRecord<>(checkpoints, ("file" + i).getBytes(), value));
                long t3 = System.nanoTime();
                producer.commitTransaction();
                long t4 = System.nanoTime();
                endOffsets[i] = t1 - t0;
                read[i] = t2 - t0;
                send[i] = t3 - t2;
                commit[i] = t4 - t3;
            }
        }
        System.out.printf(Locale.ROOT, "%d cycles of %d records, linger.ms %d, fetch.max.wait.ms %d; ms, median / 90th "
                        + "percentile: read to the end %s (its end offsets %s; with no commit before, %s), send %s, commit %s%n",
                cycles, records, linger, fetchWait, percentiles(read), percentiles(endOffsets), percentiles(idle),
                percentiles(send), percentiles(commit));
    }

    /** The worker's producer settings that bear on a commit's time. */
    private static Properties producer(String bootstrap, int linger, String run) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, linger);
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "cycle-" + run);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        return p;
    }

    private static Properties consumer(String bootstrap, int fetchWait) {
        Properties c = new Properties();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, fetchWait);
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return c;
    }

    private static String percentiles(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return String.format(Locale.ROOT, "%.2f / %.2f", sorted[sorted.length / 2] / 1e6,
                sorted[sorted.length * 9 / 10] / 1e6);
    }
}
