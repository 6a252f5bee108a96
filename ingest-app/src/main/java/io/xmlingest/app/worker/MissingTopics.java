package io.xmlingest.app.worker;

import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.publish.KafkaClientSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which of the worker's topics are gone, looked up while Kafka keeps the worker waiting. A topic deleted while the
 * worker runs makes its producer wait for the topic for ever, which looked like Kafka being down (health said so, and
 * the log said nothing): the broker answers, and only the topic is missing. Looked up on a thread of its own, so
 * neither the worker nor a health check waits for it, every {@link #EVERY_NANOS} at most, with one admin client
 * kept for the purpose (made at the first look).
 */
final class MissingTopics implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MissingTopics.class);
    private static final long EVERY_NANOS = TimeUnit.SECONDS.toNanos(30);
    private static final long GLANCE_MILLIS = 5_000;

    private final Properties admin;
    private final List<String> topics;
    private final BooleanSupplier waiting;
    private final Thread thread;
    private volatile boolean closed;
    private volatile List<String> missing = List.of();
    /** Made at the first look, on the check's thread, and closed there. */
    private Admin client;

    /** @param waiting whether Kafka keeps the worker waiting now: only then are the topics looked up */
    MissingTopics(IngestConfig config, List<String> topics, BooleanSupplier waiting) {
        this.admin = KafkaClientSettings.admin(config);
        // A look that cannot reach Kafka says nothing, and must not outlast the wait it explains by much.
        this.admin.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000);
        this.admin.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        // Kept through an outage, it must not add a connection warning a second to the producer's.
        this.admin.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 30_000);
        this.topics = List.copyOf(topics);
        this.waiting = waiting;
        this.thread = new Thread(this::run, "xmlingest-topic-check");
        thread.setDaemon(true);
    }

    MissingTopics start() {
        thread.start();
        return this;
    }

    /** The topics the last look found missing, while the wait lasts; empty otherwise, or when unknown. */
    List<String> missing() {
        return missing;
    }

    private void run() {
        long lookedAt = 0;
        boolean looked = false;
        try {
            while (!closed) {
                try {
                    Thread.sleep(GLANCE_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
                if (!waiting.getAsBoolean()) {
                    missing = List.of();
                    looked = false;
                } else if (!looked || System.nanoTime() - lookedAt >= EVERY_NANOS) {
                    lookedAt = System.nanoTime();
                    looked = true;
                    look();
                }
            }
        } finally {
            if (client != null) {
                client.close(java.time.Duration.ofSeconds(5));
            }
        }
    }

    private void look() {
        try {
            if (client == null) {
                client = Admin.create(admin);
            }
            Map<String, KafkaFuture<TopicDescription>> described = client.describeTopics(topics).topicNameValues();
            List<String> gone = new ArrayList<>();
            for (String topic : topics) {
                try {
                    described.get(topic).get(15, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                        return; // Kafka away, or refusing: the wait's own reason stands
                    }
                    gone.add(topic);
                }
            }
            if (!gone.isEmpty() && !gone.equals(missing)) {
                LOG.warn("{}, though Kafka answers: deleted while the worker ran? The worker waits for {} (it creates "
                        + "missing topics as it connects, and it is connected); records committed to a deleted topic "
                        + "went with it", describe(gone), gone.size() == 1 ? "it" : "them");
            }
            missing = List.copyOf(gone);
        } catch (java.util.concurrent.TimeoutException | RuntimeException e) {
            // unknown: the wait's own reason stands
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closed = true;
        }
    }

    /** "topic t does not exist", for a health check's or log's words. */
    static String describe(List<String> gone) {
        return gone.size() == 1 ? "topic " + gone.get(0) + " does not exist"
                : "topics " + String.join(", ", gone) + " do not exist";
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
