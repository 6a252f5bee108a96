package io.xmlingest.core.publish;

import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ConfigException;
import io.xmlingest.core.error.RetriableIngestException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Creates topics explicitly and waits until every partition has a leader. An idempotent
 * producer that writes to a topic still being created was seen to lose its first batch after
 * retries, reported only through the send callbacks; waiting here avoids that race entirely.
 */
public final class KafkaTopics {
    private KafkaTopics() {
    }

    /**
     * Ensures the topics with an admin client of its own, closed without waiting: a call still
     * pending has outlived {@code timeout} already, and {@code Admin.close()} would wait for it up
     * to the client's own {@code default.api.timeout.ms} (60 s), far past topic.ready.timeout.ms.
     */
    public static void ensure(Properties adminSettings, List<NewTopic> specs, Duration timeout) {
        Admin admin = Admin.create(adminSettings);
        try {
            ensure(admin, specs, timeout);
        } catch (RetriableIngestException e) {
            // A topic that never became ready mostly means a Kafka that never answered: say which one.
            throw new RetriableIngestException("Kafka at " + adminSettings.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG)
                    + ": " + e.reason(), e.location().orElse(null), e.settingKey().orElse(null), e.getCause());
        } finally {
            admin.close(Duration.ZERO);
        }
    }

    public static void ensure(Admin admin, String topic, int partitions, int replicationFactor, Duration timeout) {
        ensure(admin, topic, partitions, replicationFactor, Map.of(), timeout);
    }

    /** @param configs topic configs used only when the topic is created, such as cleanup.policy=compact */
    public static void ensure(Admin admin, String topic, int partitions, int replicationFactor,
                              Map<String, String> configs, Duration timeout) {
        ensure(admin, List.of(spec(topic, partitions, replicationFactor, configs)), timeout);
    }

    /** A topic as {@link #ensure(Admin, List, Duration)} creates it when it is missing. */
    public static NewTopic spec(String topic, int partitions, int replicationFactor, Map<String, String> configs) {
        return new NewTopic(topic, Optional.of(partitions),
                replicationFactor < 0 ? Optional.empty() : Optional.of((short) replicationFactor)).configs(configs);
    }

    /**
     * Ensures several topics with one request of each kind rather than one per topic: on a
     * restart they all exist, and it is round trips that cost.
     */
    public static void ensure(Admin admin, List<NewTopic> specs, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<String, KafkaFuture<Void>> created = admin.createTopics(specs).values();
        for (Map.Entry<String, KafkaFuture<Void>> e : created.entrySet()) {
            String topic = e.getKey();
            try {
                e.getValue().get(Math.max(1, (deadline - System.nanoTime()) / 1_000_000), TimeUnit.MILLISECONDS);
            } catch (ExecutionException ex) {
                if (ex.getCause() instanceof InvalidTopicException invalid) {
                    // Never a passing state: no retry makes the name valid.
                    throw new ConfigException(IngestSettings.TOPIC.key(), "Kafka refuses the topic name " + topic + ": "
                            + invalid.getMessage());
                }
                if (ex.getCause() instanceof InvalidReplicationFactorException refused) {
                    // Retried: a cluster with brokers away (a rolling restart) refuses a factor it takes once they are
                    // back. But it is the factor that is named, not the timeout.
                    short factor = specs.stream().filter(t -> t.name().equals(topic)).findFirst()
                            .map(NewTopic::replicationFactor).orElse((short) -1);
                    throw new RetriableIngestException("cannot create topic " + topic + " with replication factor "
                            + (factor < 0 ? "its default" : factor) + ": " + refused.getMessage() + " (lower the factor "
                            + "on a small cluster, or create the topic beforehand)", null,
                            IngestSettings.TOPIC_REPLICATION_FACTOR.key(), refused);
                }
                if (!(ex.getCause() instanceof TopicExistsException)) {
                    throw notReady(topic, timeout, ex.getCause());
                }
            } catch (TimeoutException ex) {
                // No answer at all, as when nothing listens at the address: said so, rather than that the topic did
                // not become ready, which reads as if Kafka had answered.
                throw new RetriableIngestException("Kafka did not answer the request to create or find topic " + topic
                        + " within " + timeout.toMillis() + " ms: is a broker running, and reachable, at "
                        + IngestSettings.BOOTSTRAP_SERVERS.key() + "?", null,
                        IngestSettings.TOPIC_READY_TIMEOUT_MS.key(), ex);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw notReady(topic, timeout, ex);
            }
        }
        List<TopicPartition> partitions = awaitLeaders(admin, specs.stream().map(NewTopic::name).toList(), deadline, timeout);
        awaitServing(admin, partitions, deadline, timeout);
    }

    /** The topics' partitions, once every one has a leader in the cluster's metadata. */
    private static List<TopicPartition> awaitLeaders(Admin admin, List<String> topics, long deadline, Duration timeout) {
        Throwable last = null;
        List<String> waiting = topics;
        List<TopicPartition> partitions = new ArrayList<>();
        while (System.nanoTime() < deadline) {
            try {
                Map<String, TopicDescription> described = admin.describeTopics(waiting)
                        .allTopicNames().get(Math.max(1, (deadline - System.nanoTime()) / 1_000_000), TimeUnit.MILLISECONDS);
                List<String> still = new ArrayList<>();
                for (String t : waiting) {
                    if (ready(described.get(t))) {
                        described.get(t).partitions().forEach(p -> partitions.add(new TopicPartition(t, p.partition())));
                    } else {
                        still.add(t);
                    }
                }
                waiting = still;
                if (waiting.isEmpty()) {
                    return partitions;
                }
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    last = e.getCause();
                }
            } catch (TimeoutException e) {
                last = e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw notReady(waiting.get(0), timeout, e);
            }
            sleep(100);
        }
        throw notReady(String.join(", ", waiting), timeout, last);
    }

    /**
     * Waits until each partition's leader answers for it. The metadata names a leader before that
     * broker has taken the partition up; an idempotent producer's first batch, refused then with
     * NOT_LEADER_OR_FOLLOWER while the next ones were taken, was retried for ever as out of order
     * (seen in EndToEndIT on a loaded machine: the file failed after kafka.delivery.timeout.ms).
     * Listing the partitions' end offsets asks each leader itself, as a produce request does.
     */
    private static void awaitServing(Admin admin, List<TopicPartition> partitions, long deadline, Duration timeout) {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        partitions.forEach(p -> latest.put(p, OffsetSpec.latest()));
        Throwable last = null;
        while (System.nanoTime() < deadline) {
            try {
                admin.listOffsets(latest).all().get(Math.max(1, (deadline - System.nanoTime()) / 1_000_000),
                        TimeUnit.MILLISECONDS);
                return;
            } catch (ExecutionException e) {
                last = e.getCause();
            } catch (TimeoutException e) {
                last = e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw notReady(partitions.get(0).topic(), timeout, e);
            }
            sleep(100);
        }
        throw notReady(partitions.isEmpty() ? "?" : partitions.get(0).topic(), timeout, last);
    }

    private static boolean ready(TopicDescription d) {
        return d != null && !d.partitions().isEmpty() && d.partitions().stream().allMatch(KafkaTopics::hasLeader);
    }

    /**
     * True when every topic exists with a leader on each partition, as a client's metadata shows
     * them: one request, and no Admin client to start, for what a restart nearly always finds.
     */
    public static boolean allReady(Consumer<?, ?> consumer, List<String> topics, Duration timeout) {
        Map<String, List<PartitionInfo>> listed = consumer.listTopics(timeout);
        for (String topic : topics) {
            List<PartitionInfo> partitions = listed.get(topic);
            if (partitions == null || partitions.isEmpty()
                    || !partitions.stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty())) {
                return false;
            }
        }
        return true;
    }

    private static boolean hasLeader(TopicPartitionInfo p) {
        return p.leader() != null && !p.leader().isEmpty();
    }

    private static RetriableIngestException notReady(String topic, Duration timeout, Throwable cause) {
        return new RetriableIngestException("topic " + topic + " did not become ready (created, with a leader on every "
                + "partition) within " + timeout.toMillis() + " ms" + (cause == null ? "" : ": " + cause),
                null, IngestSettings.TOPIC_READY_TIMEOUT_MS.key(), cause);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
