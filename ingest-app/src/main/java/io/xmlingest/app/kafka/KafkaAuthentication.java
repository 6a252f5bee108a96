package io.xmlingest.app.kafka;

import io.xmlingest.core.config.IngestSettings;
import java.util.Optional;
import org.apache.kafka.common.errors.AuthenticationException;

/**
 * Tells a refused login (SASL, or the TLS handshake) apart from Kafka being away: retrying the
 * same credentials cannot help, so the message points at the settings that hold them.
 */
public final class KafkaAuthentication {
    private KafkaAuthentication() {
    }

    /** The authentication failure behind an error, wherever in its causes Kafka's client raised it. */
    public static Optional<AuthenticationException> refusal(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof AuthenticationException a) {
                return Optional.of(a);
            }
        }
        return Optional.empty();
    }

    /** One line saying that Kafka refused the credentials, why, and which settings hold them. */
    public static String describe(AuthenticationException refusal) {
        String family = IngestSettings.KAFKA_CLIENT.key();
        return "Kafka did not accept xmlingest's credentials: " + refusal.getMessage() + " (check the " + family
                + "* settings: " + family + "security.protocol, " + family + "sasl.mechanism, " + family
                + "sasl.jaas.config, " + family + "ssl.*)";
    }
}
