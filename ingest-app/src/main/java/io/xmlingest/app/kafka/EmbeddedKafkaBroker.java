package io.xmlingest.app.kafka;

import io.xmlingest.app.AppSettings;
import io.xmlingest.core.error.Causes;
import io.xmlingest.core.error.ConfigException;
import io.xmlingest.core.error.IoProblems;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;

/**
 * A real single-node Kafka broker (KRaft, combined broker and controller) running in this JVM
 * from Kafka's own server artifacts, over a data directory that survives restarts. It is what
 * {@code broker} runs and what {@code ingest} and {@code read} start when no brokers are named.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

    private final KafkaRaftServer server;
    private final String bootstrapServers;
    private final Path dataDir;
    private final FileChannel lock;

    private EmbeddedKafkaBroker(KafkaRaftServer server, String bootstrapServers, Path dataDir, FileChannel lock) {
        this.server = server;
        this.bootstrapServers = bootstrapServers;
        this.dataDir = dataDir;
        this.lock = lock;
    }

    /**
     * Formats the data directory if it is new, starts the broker and waits until it answers.
     *
     * @param port the client port; 0 picks a free one
     */
    public static EmbeddedKafkaBroker start(Path dataDir, String host, int port) {
        return start(dataDir, host, port, ClientListener.PLAINTEXT);
    }

    /**
     * As {@link #start(Path, String, int)}, with the client port reached as {@code listener} says.
     * A secured broker also listens in plain text on a loopback port of its own, which it talks to
     * itself over; clients are only ever told of the port they connected to.
     */
    public static EmbeddedKafkaBroker start(Path dataDir, String host, int port, ClientListener listener) {
        return start(dataDir, host, null, port, listener);
    }

    /**
     * As {@link #start(Path, String, int, ClientListener)}, telling clients to connect to {@code advertisedHost}
     * (null: the host it listens on, or the loopback address when that is every address, 0.0.0.0).
     */
    public static EmbeddedKafkaBroker start(Path dataDir, String host, String advertisedHost, int port,
                                            ClientListener listener) {
        String told = advertisedHost == null ? advertisedHost(host) : advertisedHost;
        FileChannel lock = null;
        try {
            lock = take(dataDir);
            if (port != 0) {
                requireFree(host, port);
            }
            Path logs = dataDir.toAbsolutePath().resolve("logs");
            int[] free = freePorts(3, port);
            int clientPort = port == 0 ? free[0] : port;
            int controllerPort = free[1];
            Properties props = new Properties();
            props.put("process.roles", "broker,controller");
            props.put("node.id", "1");
            props.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
            String name = listener.protocol();
            String listeners = name + "://" + host + ":" + clientPort;
            String advertised = name + "://" + told + ":" + clientPort;
            String protocols = name + ":" + name + ",CONTROLLER:PLAINTEXT";
            String bootstrap = told + ":" + clientPort;
            String own = bootstrap;
            // The broker talks to itself (its readiness check, transaction markers) over a loopback port of its own when
            // clients are secured, or told a name this machine may not reach itself by (a NAT's public address).
            boolean internalListener = listener.secured() || advertisedHost != null;
            if (internalListener) {
                String internal = "127.0.0.1:" + free[2];
                listeners += ",INTERNAL://" + internal;
                advertised += ",INTERNAL://" + internal;
                protocols += ",INTERNAL:PLAINTEXT";
                own = internal;
            }
            if (listener.secured()) {
                listener.configure(props);
            }
            props.put("listeners", listeners + ",CONTROLLER://127.0.0.1:" + controllerPort);
            props.put("advertised.listeners", advertised);
            props.put("controller.listener.names", "CONTROLLER");
            props.put("inter.broker.listener.name", internalListener ? "INTERNAL" : name);
            props.put("listener.security.protocol.map", protocols);
            props.put("log.dirs", logs.toString());
            // One node: internal topics cannot have more than one replica.
            props.put("offsets.topic.replication.factor", "1");
            props.put("offsets.topic.num.partitions", "5");
            props.put("transaction.state.log.replication.factor", "1");
            props.put("transaction.state.log.min.isr", "1");
            props.put("transaction.state.log.num.partitions", "5");
            props.put("share.coordinator.state.topic.replication.factor", "1");
            props.put("share.coordinator.state.topic.min.isr", "1");
            props.put("default.replication.factor", "1");
            props.put("min.insync.replicas", "1");
            props.put("group.initial.rebalance.delay.ms", "0");
            props.put("auto.create.topics.enable", "false");
            props.put("num.partitions", "1");
            if (!Files.exists(logs.resolve("meta.properties"))) {
                format(dataDir, props, listener.formatArguments());
            }
            KafkaConfig config = KafkaConfig.fromProps(props, false);
            KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
            try {
                server.startup();
            } catch (RuntimeException e) {
                // Stopped before the lock goes, so no other process takes the directory while its threads still run.
                try {
                    server.shutdown();
                    server.awaitShutdown();
                } catch (RuntimeException stopping) {
                    e.addSuppressed(stopping);
                }
                throw explain(dataDir, e);
            }
            EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(server, bootstrap, dataDir, lock);
            lock = null; // the broker's now, released when it closes
            broker.awaitReady(Duration.ofSeconds(60), own);
            return broker;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the broker's data directory " + dataDir + ": "
                    + IoProblems.why(e), e);
        } finally {
            release(lock, dataDir);
        }
    }

    /**
     * Makes the data directory if need be and locks it. A directory that cannot be made or locked is the
     * setting's to mend (an unwritable or mistyped path), not Kafka's, so it is a settings error.
     */
    private static FileChannel take(Path dataDir) {
        try {
            if (Files.exists(dataDir) && !Files.isDirectory(dataDir)) {
                throw new IOException("it is a file, not a directory");
            }
            Files.createDirectories(dataDir);
            return lock(dataDir);
        } catch (IOException e) {
            ConfigException unusable = new ConfigException(AppSettings.EMBEDDED_DATA_DIR.key(), "the broker data directory "
                    + dataDir.toAbsolutePath() + " cannot be used: " + IoProblems.why(e));
            unusable.addSuppressed(e);
            throw unusable;
        }
    }

    /**
     * True when {@code e} is this class's refusal of its data directory, unusable or in use by another
     * broker: the only refusals it makes under embedded.data.dir.
     */
    public static boolean refusesDataDirectory(ConfigException e) {
        return e.settingKey().filter(AppSettings.EMBEDDED_DATA_DIR.key()::equals).isPresent();
    }

    /**
     * Takes the data directory for this process before anything in it is read or written. Kafka
     * locks its log directories only part-way through start-up: a second command on the same
     * directory had by then rewritten the running broker's metadata log, which crashed it and lost
     * a topic it had just made.
     */
    private static FileChannel lock(Path dataDir) throws IOException {
        Path file = lockFile(dataDir);
        // A process's locks on a file are one: closing any channel on it in this JVM would release a broker's
        // lock, so a second broker here is refused before it opens one.
        if (!LOCKED_HERE.add(file)) {
            throw inUse(dataDir);
        }
        FileChannel channel;
        try {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (IOException | RuntimeException e) {
            LOCKED_HERE.remove(file);
            throw e;
        }
        try {
            if (channel.tryLock() != null) {
                return channel;
            }
        } catch (IOException | RuntimeException e) {
            release(channel, dataDir);
            throw e;
        }
        release(channel, dataDir);
        throw inUse(dataDir);
    }

    private static final Set<Path> LOCKED_HERE = ConcurrentHashMap.newKeySet();

    private static Path lockFile(Path dataDir) {
        return dataDir.resolve(".xmlingest.lock").toAbsolutePath().normalize();
    }

    private static ConfigException inUse(Path dataDir) {
        return new ConfigException(AppSettings.EMBEDDED_DATA_DIR.key(), "the broker data directory "
                + dataDir.toAbsolutePath() + " is in use by another broker (another command using the embedded broker, "
                + "or a running 'broker' command); wait for it or choose another directory");
    }

    /** Gives up the directory; null (a lock handed on, or never taken) is nothing to release. */
    private static void release(FileChannel lock, Path dataDir) {
        if (lock == null) {
            return;
        }
        try {
            lock.close(); // closing the channel releases its lock
        } catch (IOException e) {
            // nothing more to release
        } finally {
            LOCKED_HERE.remove(lockFile(dataDir));
        }
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    public Path dataDir() {
        return dataDir;
    }

    private static void format(Path dataDir, Properties props, List<String> extra) throws IOException {
        Path propsFile = dataDir.resolve("server.properties");
        Properties stored = new Properties();
        // Key store passwords stay out of the file this step needs; the broker is configured in code.
        props.forEach((k, v) -> {
            if (!String.valueOf(k).contains("password") && !String.valueOf(k).contains("jaas")) {
                stored.put(k, v);
            }
        });
        try (OutputStream out = Files.newOutputStream(propsFile)) {
            stored.store(out, "written by xmlingest for the storage format step; the broker is configured in code");
        }
        List<String> args = new ArrayList<>(List.of("format", "--config", propsFile.toString(),
                "--cluster-id", Uuid.randomUuid().toString()));
        args.addAll(extra);
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        int rc;
        try (PrintStream print = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
            rc = StorageTool.execute(args.toArray(String[]::new), print);
        }
        if (rc != 0) {
            throw new IllegalStateException("formatting the broker's data directory " + dataDir + " failed: "
                    + captured.toString(StandardCharsets.UTF_8));
        }
    }

    private void awaitReady(Duration timeout, String address) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, address);
        try (Admin admin = Admin.create(p)) {
            admin.describeCluster().nodes().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            close();
            throw new IllegalStateException("the embedded broker did not answer at " + address + " within "
                    + timeout.toSeconds() + " s", e);
        }
    }

    private static RuntimeException explain(Path dataDir, RuntimeException e) {
        if (Causes.find(e, t -> String.valueOf(t.getMessage()).contains("lock")) != null) {
            // Kafka's own lock, taken by a broker that is not ours (ours is refused before it starts).
            ConfigException inUse = inUse(dataDir);
            inUse.addSuppressed(e);
            return inUse;
        }
        return e;
    }

    /**
     * Refuses a named client port that is in use before Kafka tries it: Kafka logs three stack
     * traces, and the command then failed with a fourth. The ports the broker picks for itself are
     * free when picked, and Linux hands outgoing connections even ports where it hands a bind to
     * port 0 odd ones, so a client's connection does not take them before the broker binds them.
     */
    private static void requireFree(String host, int port) {
        try (ServerSocket probe = new ServerSocket()) {
            // As Kafka binds: a port its last run left connections of in TIME_WAIT is free.
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress(host, port));
        } catch (IOException e) {
            ConfigException inUse = new ConfigException("--port", "port " + port + " on " + host
                    + " is in use by another process; stop it, or choose another port (0 picks a free one)");
            inUse.addSuppressed(e);
            throw inUse;
        }
    }

    private static String advertisedHost(String host) {
        return "0.0.0.0".equals(host) || "::".equals(host) || "[::]".equals(host)
                ? InetAddress.getLoopbackAddress().getHostAddress() : host;
    }

    /** A loopback port nobody listens on now (another process may still take it before it is bound). */
    public static int freePort() throws IOException {
        return freePorts(1, 0)[0];
    }

    /**
     * {@code n} different loopback ports nobody listens on now, none of them {@code except}. Asked
     * for one at a time, the system may hand out a port it has just handed out and seen released:
     * a broker once got the same port for its clients and its controller, and did not start.
     */
    public static int[] freePorts(int n, int except) throws IOException {
        List<ServerSocket> held = new ArrayList<>();
        try {
            int[] ports = new int[n];
            int found = 0;
            while (found < n) {
                ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                held.add(socket);
                if (socket.getLocalPort() != except) {
                    ports[found++] = socket.getLocalPort();
                }
            }
            return ports;
        } finally {
            for (ServerSocket socket : held) {
                try {
                    socket.close();
                } catch (IOException e) {
                    // the others are still to be released
                }
            }
        }
    }

    @Override
    public void close() {
        try {
            server.shutdown();
            server.awaitShutdown();
        } finally {
            release(lock, dataDir);
        }
    }
}
