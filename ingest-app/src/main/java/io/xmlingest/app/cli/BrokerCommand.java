package io.xmlingest.app.cli;

import io.xmlingest.app.kafka.EmbeddedKafkaBroker;
import io.xmlingest.core.error.ConfigException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "broker", mixinStandardHelpOptions = true,
        description = "Runs a real single-node Kafka broker (KRaft) in the foreground until stopped (Ctrl-C or SIGTERM), "
                + "and prints its bootstrap address on standard output when it is ready.",
        footer = {"", "Examples:", "  java -Xmx1g -jar ingest-app.jar broker --port 9092 --data /var/lib/xmlingest-kafka",
            "  java -jar ingest-app.jar broker --port 0 --host 0.0.0.0",
            "      (any free port; the address is printed)",
            "", "Exit codes: 0 stopped on request (SIGTERM, SIGINT) and closed, 2 invalid usage."})
final class BrokerCommand implements Callable<Integer> {

    @Option(names = "--port", description = "Client port (default: ${DEFAULT-VALUE}).")
    int port = 9092;

    @Option(names = "--host", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    String host = "127.0.0.1";

    @Option(names = "--data", description = "Data directory (default: ${DEFAULT-VALUE}).")
    Path data = Path.of(".xmlingest/broker");

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
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
        EmbeddedKafkaBroker broker;
        try {
            broker = EmbeddedKafkaBroker.start(data, host, port);
        } catch (ConfigException e) {
            if (!EmbeddedKafkaBroker.refusesDataDirectory(e)) {
                throw e;
            }
            // This command's place for it is --data, not the setting the other commands read.
            throw new CommandLine.ParameterException(spec.commandLine(), "--data " + data + ": " + e.reason());
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                broker.close();
            } finally {
                stopped.countDown();
            }
            // A JVM stopped by a signal exits 128 + the signal (143, 130), which a supervisor or a script's
            // `set -e` reads as a failure. Stopping is this command's one way to end, asked for and done, so it
            // exits 0, as the worker does; a close that failed threw above and keeps the signal's code.
            System.out.flush();
            System.err.flush();
            Runtime.getRuntime().halt(ExitCodes.OK);
        }, "broker-shutdown"));
        System.out.println(broker.bootstrapServers());
        System.out.flush();
        stopped.await();
        return ExitCodes.OK;
    }
}
