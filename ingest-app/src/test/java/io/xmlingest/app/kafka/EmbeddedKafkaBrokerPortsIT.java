package io.xmlingest.app.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.app.AppProcess;
import io.xmlingest.core.error.ConfigException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Map;
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
            String refusal = "port " + port + " on 127.0.0.1 is in use by another process; stop it, or choose another "
                    + "port (0 picks a free one) (setting: --port)";
            assertThatThrownBy(() -> EmbeddedKafkaBroker.start(dir.resolve("kafka"), "127.0.0.1", port))
                    .isInstanceOf(ConfigException.class).hasMessage(refusal);

            // The command, as a user runs it: one line, and none of the stack traces Kafka logs when it tries the port.
            // The same directory is refused for the port, not for a lock the refusal above kept.
            AppProcess.Result broker = AppProcess.run(dir, Map.of(), "broker", "--port", String.valueOf(port),
                    "--data", dir.resolve("kafka").toString());
            assertThat(broker.exit()).as(broker.stderr()).isEqualTo(2);
            assertThat(broker.stderr()).isEqualTo("error: " + refusal + System.lineSeparator());
        }
    }
}
