package io.xmlingest.app;

import io.xmlingest.app.kafka.EmbeddedKafkaBroker;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Three real Kafka nodes in this JVM, each a combined KRaft broker and controller, with a
 * three-voter controller quorum: a cluster that keeps working, transactions included, with any one
 * node down. Topics get three replicas and need two in sync, as production clusters are set up.
 *
 * <p>Nodes are numbered 1 to 3 (their {@code node.id}). Each keeps its ports and data directory
 * for the life of the cluster, so {@link #stop(int)} and {@link #restart(int)} bring back the same
 * node with the same log, as a rolling restart does.
 */
public final class EmbeddedKafkaCluster implements AutoCloseable {

    public static final int NODES = 3;

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaCluster.class);

    private static final Duration READY_TIMEOUT = Duration.ofMinutes(2);

    private final Path dir;
    private final int[] clientPorts = new int[NODES + 1];
    private final int[] controllerPorts = new int[NODES + 1];
    private final KafkaRaftServer[] servers = new KafkaRaftServer[NODES + 1];
    private final String bootstrapServers;

    private EmbeddedKafkaCluster(Path dir) throws IOException {
        this.dir = dir;
        int[] free = EmbeddedKafkaBroker.freePorts(2 * NODES, 0);
        for (int node = 1; node <= NODES; node++) {
            clientPorts[node] = free[2 * node - 2];
            controllerPorts[node] = free[2 * node - 1];
        }
        this.bootstrapServers = IntStream.rangeClosed(1, NODES).mapToObj(n -> "127.0.0.1:" + clientPorts[n])
                .collect(Collectors.joining(","));
    }

    /**
     * Formats a data directory per node under {@code dir}, with one cluster id, starts the three
     * nodes and waits until every broker is registered and unfenced.
     */
    public static EmbeddedKafkaCluster start(Path dir) {
        EmbeddedKafkaCluster cluster;
        try {
            cluster = new EmbeddedKafkaCluster(Files.createDirectories(dir));
            String clusterId = Uuid.randomUuid().toString();
            for (int node = 1; node <= NODES; node++) {
                cluster.format(node, clusterId);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the cluster's data directories under " + dir, e);
        }
        try {
            // In parallel: a node's startup waits for its broker to catch up with the metadata log, which takes a
            // controller quorum (two of three), so started one after another the first would wait on the others.
            List<CompletableFuture<Void>> started = IntStream.rangeClosed(1, NODES)
                    .mapToObj(node -> CompletableFuture.runAsync(() -> cluster.startNode(node), daemon("start-" + node)))
                    .toList();
            CompletableFuture.allOf(started.toArray(CompletableFuture[]::new))
                    .get(READY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            cluster.awaitBrokers(NODES, READY_TIMEOUT);
            LOG.info("three-node cluster up at {}", cluster.bootstrapServers);
            return cluster;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cluster.close();
            throw new IllegalStateException("interrupted while starting the cluster in " + dir, e);
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            cluster.close();
            throw new IllegalStateException("the three-node cluster in " + dir + " did not start within "
                    + READY_TIMEOUT.toSeconds() + " s", e instanceof ExecutionException ? e.getCause() : e);
        }
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** The client address of one node, 1 to 3. */
    public String bootstrapServers(int node) {
        return "127.0.0.1:" + clientPorts[check(node)];
    }

    /** Stops a node (broker and controller) and waits until the others no longer count it as a live broker. */
    public void stop(int node) {
        KafkaRaftServer server = servers[check(node)];
        if (server == null) {
            throw new IllegalStateException("node " + node + " is not running");
        }
        long start = System.nanoTime();
        servers[node] = null;
        server.shutdown();
        server.awaitShutdown();
        awaitBrokers(running().size(), READY_TIMEOUT);
        LOG.info("node {} stopped in {} ms", node, (System.nanoTime() - start) / 1_000_000);
    }

    /** Starts a stopped node again over its data directory and ports, and waits until its broker is unfenced. */
    public void restart(int node) {
        if (servers[check(node)] != null) {
            throw new IllegalStateException("node " + node + " is running");
        }
        long start = System.nanoTime();
        startNode(node);
        awaitBrokers(running().size(), READY_TIMEOUT);
        LOG.info("node {} restarted in {} ms", node, (System.nanoTime() - start) / 1_000_000);
    }

    /** The node ids running now. */
    public Set<Integer> running() {
        return IntStream.rangeClosed(1, NODES).filter(n -> servers[n] != null).boxed().collect(Collectors.toSet());
    }

    /** The node leading a partition, as the cluster's metadata says now; -1 while it has none. */
    public int leader(String topic, int partition) {
        try (Admin admin = admin()) {
            TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(READY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).get(topic);
            Node leader = d.partitions().get(partition).leader();
            return leader == null || leader.isEmpty() ? -1 : leader.id();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot describe " + topic + " on " + bootstrapServers, e);
        }
    }

    /**
     * Waits until every replica of every partition, internal topics included, is in sync again:
     * after a {@link #restart(int)}, the restarted node has caught up with what it missed.
     */
    public void awaitFullyReplicated(Duration timeout) {
        try (Admin admin = admin()) {
            awaitTrue("every replica of every partition in sync on " + bootstrapServers, timeout, () -> {
                try {
                    Collection<String> topics = admin.listTopics(new ListTopicsOptions().listInternal(true)).names()
                            .get(30, TimeUnit.SECONDS);
                    return admin.describeTopics(topics).allTopicNames().get(30, TimeUnit.SECONDS).values().stream()
                            .flatMap(d -> d.partitions().stream())
                            .allMatch(EmbeddedKafkaCluster::fullyInSync);
                } catch (ExecutionException | TimeoutException e) {
                    return false;
                }
            });
        }
    }

    private static boolean fullyInSync(TopicPartitionInfo p) {
        return p.isr().size() == p.replicas().size();
    }

    private void format(int node, String clusterId) throws IOException {
        Path nodeDir = Files.createDirectories(dir.resolve("node-" + node));
        Path propsFile = nodeDir.resolve("server.properties");
        try (OutputStream out = Files.newOutputStream(propsFile)) {
            properties(node).store(out, "node " + node + " of a test cluster; written for the storage format step");
        }
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        int rc;
        try (PrintStream print = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
            rc = StorageTool.execute(new String[] {"format", "--config", propsFile.toString(),
                "--cluster-id", clusterId}, print);
        }
        if (rc != 0) {
            throw new IllegalStateException("formatting node " + node + " in " + nodeDir + " failed: "
                    + captured.toString(StandardCharsets.UTF_8));
        }
    }

    private Properties properties(int node) {
        Properties props = new Properties();
        props.put("process.roles", "broker,controller");
        props.put("node.id", Integer.toString(node));
        props.put("controller.quorum.voters", IntStream.rangeClosed(1, NODES)
                .mapToObj(n -> n + "@127.0.0.1:" + controllerPorts[n]).collect(Collectors.joining(",")));
        props.put("listeners", "PLAINTEXT://127.0.0.1:" + clientPorts[node] + ",CONTROLLER://127.0.0.1:" + controllerPorts[node]);
        props.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + clientPorts[node]);
        props.put("controller.listener.names", "CONTROLLER");
        props.put("inter.broker.listener.name", "PLAINTEXT");
        props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        props.put("log.dirs", dir.resolve("node-" + node).resolve("logs").toAbsolutePath().toString());
        // What a production cluster would set: any one node may go away without losing a write acked by all.
        props.put("default.replication.factor", "3");
        props.put("min.insync.replicas", "2");
        props.put("offsets.topic.replication.factor", "3");
        props.put("transaction.state.log.replication.factor", "3");
        props.put("transaction.state.log.min.isr", "2");
        props.put("share.coordinator.state.topic.replication.factor", "3");
        props.put("share.coordinator.state.topic.min.isr", "2");
        // Few partitions and threads: three nodes share a test machine that may have two cores.
        props.put("offsets.topic.num.partitions", "5");
        props.put("transaction.state.log.num.partitions", "5");
        props.put("num.partitions", "1");
        props.put("num.network.threads", "2");
        props.put("num.io.threads", "2");
        props.put("background.threads", "2");
        props.put("group.initial.rebalance.delay.ms", "0");
        props.put("auto.create.topics.enable", "false");
        return props;
    }

    private void startNode(int node) {
        KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(properties(node), false), Time.SYSTEM);
        try {
            server.startup();
        } catch (RuntimeException e) {
            server.shutdown();
            server.awaitShutdown();
            throw new IllegalStateException("node " + node + " did not start", e);
        }
        synchronized (servers) {
            servers[node] = server;
        }
    }

    private Admin admin() {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        return Admin.create(p);
    }

    /** Waits until exactly {@code count} brokers are registered and unfenced. */
    private void awaitBrokers(int count, Duration timeout) {
        try (Admin admin = admin()) {
            awaitTrue(count + " live brokers on " + bootstrapServers, timeout, () -> {
                try {
                    return admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).size() == count;
                } catch (ExecutionException | TimeoutException e) {
                    return false;
                }
            });
        }
    }

    private static void awaitTrue(String what, Duration timeout, InterruptibleCondition condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (!condition.met()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("timed out after " + timeout.toSeconds() + " s waiting for " + what);
                }
                Thread.sleep(100);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + what, e);
        }
    }

    @FunctionalInterface
    private interface InterruptibleCondition {
        boolean met() throws InterruptedException;
    }

    private static java.util.concurrent.Executor daemon(String name) {
        return task -> {
            Thread t = new Thread(task, "kafka-cluster-" + name);
            t.setDaemon(true);
            t.start();
        };
    }

    private int check(int node) {
        if (node < 1 || node > NODES) {
            throw new IllegalArgumentException("nodes are numbered 1 to " + NODES + ": " + node);
        }
        return node;
    }

    /** Shuts down every running node and waits until each has. Data directories are the caller's to delete. */
    @Override
    public void close() {
        List<KafkaRaftServer> running = new ArrayList<>();
        synchronized (servers) {
            for (int node = 1; node <= NODES; node++) {
                if (servers[node] != null) {
                    running.add(servers[node]);
                    servers[node] = null;
                }
            }
        }
        // Together rather than one after another: each node stops its broker before its controller, so every
        // broker's controlled shutdown still finds a quorum, and the last node does not wait for one that has gone.
        List<CompletableFuture<Void>> stopped = running.stream().map(s -> CompletableFuture.runAsync(() -> {
            s.shutdown();
            s.awaitShutdown();
        }, daemon("stop"))).toList();
        stopped.forEach(CompletableFuture::join);
    }
}
