package io.xmlingest.app.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.app.cli.Main;
import io.xmlingest.core.error.ConfigException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A client port named for the embedded broker and already in use is refused with the port and the option. */
class EmbeddedKafkaBrokerPortsIT {

    @TempDir
    Path dir;

    @Test
    void aNamedClientPortInUseIsRefusedWithThePortAndTheOption() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            assertThatThrownBy(() -> EmbeddedKafkaBroker.start(dir.resolve("kafka"), "127.0.0.1", port))
                    .isInstanceOf(ConfigException.class)
                    .hasMessage("port " + port + " on 127.0.0.1 is in use by another process; stop it, or choose "
                            + "another port (0 picks a free one) (setting: --port)");

            // Refused before the data directory's lock is kept: the command on the same directory is refused for the port.
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            PrintStream before = System.err;
            int exit;
            try {
                System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
                exit = Main.run("broker", "--port", String.valueOf(port), "--data", dir.resolve("kafka").toString());
            } finally {
                System.setErr(before);
            }
            assertThat(exit).isEqualTo(2);
            // One line, and no stack trace of Kafka's before it: the port is looked at before Kafka tries it.
            // (The test class path's two SLF4J providers may be reported first; the jar has one.)
            String printed = err.toString(StandardCharsets.UTF_8);
            assertThat(printed.lines().filter(line -> !line.startsWith("SLF4J"))).containsExactly("error: port " + port
                    + " on 127.0.0.1 is in use by another process; stop it, or choose another port (0 picks a free one) "
                    + "(setting: --port)");
        }
    }
}
