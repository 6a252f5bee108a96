package io.xmlingest.app.cli;

import io.xmlingest.app.AppSettings;
import io.xmlingest.app.kafka.EmbeddedKafkaBroker;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ConfigException;
import java.nio.file.Path;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka a command talks to: the brokers the settings name, or, when they name none, an
 * embedded broker started for the command's lifetime over {@code embedded.data.dir}.
 */
final class KafkaTarget implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaTarget.class);

    private final IngestConfig config;
    private final EmbeddedKafkaBroker embedded;

    private KafkaTarget(IngestConfig config, EmbeddedKafkaBroker embedded) {
        this.config = config;
        this.embedded = embedded;
    }

    static KafkaTarget open(IngestConfig config) {
        if (!config.get(IngestSettings.BOOTSTRAP_SERVERS).isBlank()) {
            return new KafkaTarget(config, null);
        }
        Path dir = Path.of(config.get(AppSettings.EMBEDDED_DATA_DIR));
        long started = System.nanoTime();
        EmbeddedKafkaBroker broker;
        try {
            broker = EmbeddedKafkaBroker.start(dir, "127.0.0.1", 0);
        } catch (ConfigException e) {
            if (!EmbeddedKafkaBroker.refusesDataDirectory(e)) {
                throw e;
            }
            ConfigException told = new ConfigException(AppSettings.EMBEDDED_DATA_DIR.key(), e.reason()
                    + " (or name a running broker with --bootstrap-servers)");
            told.addSuppressed(e);
            throw told;
        }
        LOG.info("started the embedded Kafka broker at {} over {} in {} ms", broker.bootstrapServers(),
                dir.toAbsolutePath(), (System.nanoTime() - started) / 1_000_000);
        return new KafkaTarget(config.with(Map.of(IngestSettings.BOOTSTRAP_SERVERS.key(), broker.bootstrapServers())),
                broker);
    }

    /** The settings with the brokers actually used. */
    IngestConfig config() {
        return config;
    }

    @Override
    public void close() {
        if (embedded != null) {
            embedded.close();
        }
    }
}
