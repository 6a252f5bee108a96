package io.xmlingest.app.cli;

import io.xmlingest.app.kafka.EmbeddedKafkaBroker;
import io.xmlingest.core.error.ConfigException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "broker", mixinStandardHelpOptions = true,
        description = "Runs a real single-node Kafka broker (KRaft) in the foreground until stopped (Ctrl-C or SIGTERM), "
                + "and prints its bootstrap address on standard output when it is ready.",
        footer = {"", "Examples:", "  java -Xmx1g -jar ingest-app.jar broker --port 9092 \\",
            "      --data /var/lib/xmlingest-kafka",
            "  java -jar ingest-app.jar broker --port 0",
            "      (any free port; the address is printed)",
            "  java -jar ingest-app.jar broker --host 0.0.0.0 \\",
            "      --advertised-host kafka.example.com",
            "      (reachable from other machines by that name)",
            "", "Exit codes: 0 stopped on request (SIGTERM, SIGINT) and closed, 1 it failed or",
            "closing it did, 2 invalid usage."})
final class BrokerCommand implements Callable<Integer> {

    @Option(names = "--port", description = "Client port (default: ${DEFAULT-VALUE}).")
    int port = 9092;

    @Option(names = "--host", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    String host = "127.0.0.1";

    @Option(names = "--advertised-host", paramLabel = "HOST", description = "Host name or address clients are told "
            + "to connect to, after their first contact (default: --host; with 0.0.0.0, 127.0.0.1, which only clients "
            + "on this machine reach).")
    String advertisedHost;

    @Option(names = "--data", description = "Data directory (default: ${DEFAULT-VALUE}).")
    Path data = Path.of(".xmlingest/broker");

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException, java.net.UnknownHostException {
        // Checked here: the broker refused them only on starting, with its own stack trace and no option named.
        if (port < 0 || port > 65535) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--port " + port + ": a port is 0 (any free "
                    + "one) to 65535");
        }
        try (java.net.ServerSocket probe = new java.net.ServerSocket()) {
            probe.bind(new java.net.InetSocketAddress(java.net.InetAddress.getByName(host), 0));
        } catch (java.io.IOException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--host " + host + ": cannot listen there ("
                    + (e instanceof java.net.UnknownHostException ? "no such host" : e.getMessage())
                    + "); use an address of this machine, such as 127.0.0.1 or 0.0.0.0");
        }
        if (advertisedHost != null && (advertisedHost.isBlank() || advertisedHost.strip().contains(" ")
                || (advertisedHost.contains(":") && !advertisedHost.startsWith("[")))) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--advertised-host " + advertisedHost
                    + ": a host name or address without a port (an IPv6 address in brackets, [::1])");
        }
        if (advertisedHost == null && java.net.InetAddress.getByName(host).isAnyLocalAddress()) {
            // Clients go on to the address the broker tells them: one on another machine would go to its own loopback.
            System.err.println("warning: --host " + host + " listens on every address, but clients are told to connect "
                    + "to 127.0.0.1, which only clients on this machine reach; set --advertised-host to a name or "
                    + "address the others reach this machine by");
        }
        EmbeddedKafkaBroker broker;
        try {
            broker = EmbeddedKafkaBroker.start(data, host, advertisedHost, port,
                    io.xmlingest.app.kafka.ClientListener.PLAINTEXT);
        } catch (ConfigException e) {
            if (!EmbeddedKafkaBroker.refusesDataDirectory(e)) {
                throw e;
            }
            // This command's place for it is --data, not the setting the other commands read.
            throw new CommandLine.ParameterException(spec.commandLine(), "--data " + data + ": " + e.reason());
        }
        CountDownLatch stopped = new CountDownLatch(1);
        AtomicInteger exit = new AtomicInteger(ExitCodes.OK);
        // Any other way out (System.exit anywhere, Kafka's own on a fatal fault) still closes the broker, and keeps
        // its own exit code.
        Thread closer = new Thread(broker::close, "broker-shutdown");
        Runtime.getRuntime().addShutdownHook(closer);
        // SIGTERM and SIGINT are this command's way to end, asked for: handled here, the broker is closed and the
        // command exits 0. Left to the JVM, it exited 128 + the signal (143, 130), which a supervisor or a script's
        // `set -e` reads as a failure; a close that fails exits 1.
        for (String name : new String[] {"TERM", "INT"}) {
            sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> {
                try {
                    broker.close();
                } catch (RuntimeException e) {
                    System.err.println("error: closing the broker failed: " + e);
                    exit.set(ExitCodes.FILE_FAILED);
                } finally {
                    stopped.countDown();
                }
            });
        }
        System.out.println(broker.bootstrapServers());
        System.out.flush();
        stopped.await();
        Runtime.getRuntime().removeShutdownHook(closer);
        return exit.get();
    }
}
