package io.xmlingest.app.kafka;

import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.Causes;
import io.xmlingest.core.error.ConfigException;
import java.util.Optional;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.InvalidConfigurationException;

/**
 * A Kafka client that would not start on the settings it was given: settings that are each valid
 * but do not go together, such as a key store password with no key store. Kafka reports it as a
 * failure to create the client, with the reason two causes down; retrying cannot help, so it is a
 * settings error.
 */
public final class KafkaClientMisconfiguration {
    private KafkaClientMisconfiguration() {
    }

    /** The settings error behind {@code error}, if Kafka's client refused its own settings. */
    public static Optional<ConfigException> find(Throwable error) {
        // A refused login is an InvalidConfigurationException too, but the cluster may yet accept it: not this.
        Throwable refused = Causes.find(error, t -> (t instanceof InvalidConfigurationException
                && !(t instanceof AuthenticationException)) || t instanceof org.apache.kafka.common.config.ConfigException);
        if (refused == null) {
            return Optional.empty();
        }
        String family = IngestSettings.KAFKA_CLIENT.key();
        String why = String.valueOf(refused.getMessage()).strip();
        why = why.endsWith(".") ? why.substring(0, why.length() - 1) : why; // the setting follows it in our message
        return Optional.of(new ConfigException(family + "*", "Kafka's client refused its settings: " + why));
    }
}
