package io.xmlingest.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.xmlingest.bench.formats.AvroValueFormat;
import io.xmlingest.bench.formats.FieldValues;
import io.xmlingest.bench.formats.FileRecords;
import io.xmlingest.bench.formats.JsonValueFormat;
import io.xmlingest.bench.formats.ValueFormat;
import io.xmlingest.bench.formats.XmlFragmentValueFormat;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.publish.KafkaClientSettings;
import io.xmlingest.core.publish.KafkaTopics;
import io.xmlingest.sample.persons.Person;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;

/**
 * The forked JVM of {@code --value-formats}: one value format over one file. Encodes every record
 * once to have the values, then measures encoding alone (single thread, after a warm-up), decoding
 * where a consumer would decode, and for each compression the produce time and the bytes the
 * partitions take on the broker's disk. Prints one line {@code RESULT <json>}.
 */
public final class ValueFormatRunner {

    static final String PREFIX = "RESULT ";
    /** Encode and decode timings use at most this many records, so that 1M bound records need not fit. */
    static final int SAMPLE = 100_000;
    /** Records whose Avro and (re-bound) XML values are checked against the JSON value. */
    static final int CHECKED = 1_000;

    private ValueFormatRunner() {
    }

    /** Arguments: format, file, records, runs, bootstrap servers, compressions (comma-separated). */
    public static void main(String[] args) {
        int exit = 0;
        try {
            System.out.println(PREFIX + measure(args[0], Path.of(args[1]), Long.parseLong(args[2]),
                    Integer.parseInt(args[3]), args[4], List.of(args[5].split(","))));
        } catch (Exception e) {
            e.printStackTrace();
            exit = 1;
        }
        System.out.flush();
        // Kafka clients leave non-daemon threads behind.
        System.exit(exit);
    }

    static ValueFormat format(String name) {
        return switch (name) {
            case "json" -> new JsonValueFormat();
            case "xml" -> new XmlFragmentValueFormat();
            case "avro" -> new AvroValueFormat(Person.class);
            default -> throw new IllegalArgumentException("unknown value format " + name + "; known: json, xml, avro");
        };
    }

    static String measure(String name, Path file, long records, int runs, String bootstrap, List<String> compressions)
            throws Exception {
        ValueFormat format = format(name);
        JsonValueFormat json = new JsonValueFormat();
        FieldValues fields = new FieldValues(new AvroValueFormat(Person.class).schema());
        List<ValueFormat.Source> sample = new ArrayList<>();
        List<byte[]> keys = new ArrayList<>();
        List<byte[]> values = new ArrayList<>();
        long[] rawBytes = {0};
        long[] checked = {0};
        long read = FileRecords.forEach(file, records, r -> {
            byte[] v = format.encode(r);
            values.add(v);
            keys.add(Long.toString(((Person) r.bound()).getId()).getBytes(StandardCharsets.UTF_8));
            rawBytes[0] += v.length;
            if (sample.size() < SAMPLE) {
                sample.add(r);
            }
            if (checked[0] < CHECKED && format instanceof AvroValueFormat) {
                check(fields.fromJson(json.encode(r)), fields.fromAvro(v), checked[0]);
                checked[0]++;
            }
        });
        if (read != records) {
            throw new IllegalStateException(file + " has " + read + " records, expected " + records);
        }
        ObjectNode result = new ObjectMapper().createObjectNode();
        result.put("format", name).put("records", read).put("valueBytes", rawBytes[0]);
        if (checked[0] > 0) {
            result.put("verified", "the first " + checked[0] + " Avro values decode to the same field values as their JSON");
        }
        result.set("encodeNanos", nanos(runs, () -> encodeAll(format, sample)));
        result.put("timedRecords", sample.size());
        LongSupplier decode = decoder(name, fields, values.subList(0, sample.size()));
        if (decode != null) {
            result.set("decodeNanos", nanos(runs, decode));
        }
        ArrayNode produce = result.putArray("produce");
        // One untimed pass of every value warms up the producer's and the broker's code.
        int[] repeated = {0};
        produceRetrying(bootstrap, compressions.get(0), keys, values, values.size(), repeated);
        List<ObjectNode> byCompression = new ArrayList<>();
        for (String compression : compressions) {
            ObjectNode c = produce.addObject().put("compression", compression);
            c.putArray("nanos");
            c.putArray("logBytes");
            byCompression.add(c);
        }
        // Compressions take turns within each round, so the machine's load, which other builds move
        // from minute to minute, and what is left of the warm-up fall on every one of them alike.
        for (int i = 0; i < runs; i++) {
            for (ObjectNode c : byCompression) {
                long[] r = produceRetrying(bootstrap, c.get("compression").asText(), keys, values, values.size(), repeated);
                ((ArrayNode) c.get("nanos")).add(r[0]);
                ((ArrayNode) c.get("logBytes")).add(r[1]);
            }
        }
        result.put("repeatedRuns", repeated[0]);
        return result.toString();
    }

    private static void check(Object fromJson, Object fromOther, long index) {
        if (!fromJson.equals(fromOther)) {
            throw new IllegalStateException("record " + index + ": Avro value decodes to " + fromOther
                    + " but its JSON value to " + fromJson);
        }
    }

    private static long encodeAll(ValueFormat format, List<ValueFormat.Source> sample) {
        long bytes = 0;
        for (ValueFormat.Source s : sample) {
            bytes += format.encode(s).length;
        }
        return bytes;
    }

    /** What a consumer does with a value before it can use its fields; none for the XML fragment here. */
    private static LongSupplier decoder(String name, FieldValues fields, List<byte[]> values) {
        return switch (name) {
            case "json" -> () -> values.stream().mapToLong(v -> fields.parseJson(v).size()).sum();
            case "avro" -> () -> values.stream().mapToLong(v -> fields.decodeAvro(v).getSchema().getFields().size()).sum();
            default -> null;
        };
    }

    /** Times each run of the work after two untimed passes, so the JIT has compiled the loop. */
    private static ArrayNode nanos(int runs, LongSupplier work) {
        long sink = work.getAsLong() + work.getAsLong();
        ArrayNode out = new ObjectMapper().createArrayNode();
        for (int i = 0; i < runs; i++) {
            long t0 = System.nanoTime();
            sink += work.getAsLong();
            out.add(System.nanoTime() - t0);
        }
        // Keeps the work observable, so none of it can be dropped as dead code.
        if (sink == Long.MIN_VALUE) {
            System.err.println(sink);
        }
        return out;
    }

    /**
     * The idempotent producer sometimes meets OutOfOrderSequenceException just after a topic is
     * created on this busy single broker (the README's kafka-producer ceiling met it too); that
     * run is thrown away and done again on a fresh topic, and the report counts such repeats.
     */
    private static long[] produceRetrying(String bootstrap, String compression, List<byte[]> keys, List<byte[]> values,
            int count, int[] repeated) throws Exception {
        for (int attempt = 1; ; attempt++) {
            try {
                return produceOnce(bootstrap, compression, keys, values, count);
            } catch (IllegalStateException e) {
                if (attempt == 3) {
                    throw e;
                }
                repeated[0]++;
                System.err.println("repeating a " + compression + " run: " + e.getMessage() + ": " + e.getCause());
            }
        }
    }

    /** Sends the values to a new topic and waits for every acknowledgement; returns the time and the log bytes. */
    private static long[] produceOnce(String bootstrap, String compression, List<byte[]> keys, List<byte[]> values,
            int count) throws Exception {
        String topic = "bench-values-" + UUID.randomUUID();
        IngestConfig config = IngestConfig.of(IngestSettings.ALL, Map.of(IngestSettings.TOPIC.key(), topic,
                IngestSettings.BOOTSTRAP_SERVERS.key(), bootstrap, IngestSettings.COMPRESSION.key(), compression,
                // A stuck run fails in 30 s instead of the default 2 minutes, and is repeated.
                IngestSettings.DELIVERY_TIMEOUT_MS.key(), "30000"));
        try (Admin admin = Admin.create(KafkaClientSettings.admin(config))) {
            KafkaTopics.ensure(admin, topic, config.get(IngestSettings.TOPIC_PARTITIONS), -1, Duration.ofSeconds(60));
            long nanos;
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(KafkaClientSettings.producer(config))) {
                producer.partitionsFor(topic);
                AtomicReference<Exception> failure = new AtomicReference<>();
                long t0 = System.nanoTime();
                for (int i = 0; i < count; i++) {
                    producer.send(new ProducerRecord<>(topic, keys.get(i), values.get(i)), (m, e) -> {
                        if (e != null) {
                            failure.compareAndSet(null, e);
                        }
                    });
                }
                producer.flush();
                nanos = System.nanoTime() - t0;
                if (failure.get() != null) {
                    throw new IllegalStateException("a send to " + topic + " failed", failure.get());
                }
            }
            long bytes = logBytes(admin, topic);
            // Several GB over a full run otherwise: each topic is measured, then dropped.
            admin.deleteTopics(List.of(topic)).all().get();
            return new long[] {nanos, bytes};
        }
    }

    /** The size on disk of the topic's partitions, as the broker reports its log segments. */
    private static long logBytes(Admin admin, String topic) throws Exception {
        List<Integer> brokers = admin.describeCluster().nodes().get().stream().map(Node::id).toList();
        long bytes = 0;
        for (Map<String, LogDirDescription> dirs : admin.describeLogDirs(brokers).allDescriptions().get().values()) {
            for (LogDirDescription dir : dirs.values()) {
                bytes += dir.replicaInfos().entrySet().stream().filter(e -> e.getKey().topic().equals(topic))
                        .mapToLong(e -> e.getValue().size()).sum();
            }
        }
        return bytes;
    }
}
