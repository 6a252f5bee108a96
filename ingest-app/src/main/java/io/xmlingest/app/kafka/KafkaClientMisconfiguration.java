package io.xmlingest.app.kafka;

import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.Causes;
import io.xmlingest.core.error.ConfigException;
import io.xmlingest.core.error.RetriableIngestException;
import io.xmlingest.core.publish.KafkaClientFailures;
import java.util.Optional;
import org.apache.kafka.common.errors.InvalidConfigurationException;

/**
 * A Kafka client that would not start on the settings it was given: settings that are each valid
 * but do not go together, such as a key store password with no key store. Retrying cannot help,
 * so it is a settings error.
 *
 * <p>Only a client that failed while it was being made counts. Many of Kafka's errors from a
 * running cluster are kinds of InvalidConfigurationException too (a refused login, a missing ACL,
 * a broker too old or too few), and those can change on the cluster's side while the worker waits;
 * so can a bootstrap host name that does not resolve yet.
 */
public final class KafkaClientMisconfiguration {
    private KafkaClientMisconfiguration() {
    }

    /** The settings error behind {@code error}, if Kafka's client refused its own settings as it was made. */
    public static Optional<ConfigException> find(Throwable error) {
        Throwable made = Causes.find(error, KafkaClientFailures::failedToConstruct);
        if (made == null) {
            return Optional.empty();
        }
        Throwable refused = Causes.find(made, t -> t.getClass() == InvalidConfigurationException.class
                || (t instanceof org.apache.kafka.common.config.ConfigException && !unresolvableBootstrap(t)));
        String why;
        if (refused != null) {
            why = String.valueOf(refused.getMessage()).strip();
        } else if (Causes.find(made, KafkaClientMisconfiguration::namesWhatIsNotThere) != null) {
            // Settings that name what is not there: no JAAS entry for SASL, a trust or key store file that does not
            // exist. The worker retried them for ever, blaming kafka.bootstrap.servers. Anything else that stops a client
            // being made may pass (a KDC or token endpoint away, a store file half-written while it is rotated, no file
            // handles left) and is retried.
            why = KafkaClientFailures.reasons(made);
        } else {
            return Optional.empty();
        }
        String family = IngestSettings.KAFKA_CLIENT.key();
        why = why.endsWith(".") ? why.substring(0, why.length() - 1) : why; // the setting follows it in our message
        return Optional.of(new ConfigException(family + "*", "Kafka's client refused its settings: " + why));
    }

    /**
     * The failure behind {@code error} if a client could not be made because no host of
     * kafka.bootstrap.servers resolved: Kafka's own words are a generic wrapper and a stack trace.
     */
    public static Optional<RetriableIngestException> unresolvable(Throwable error) {
        Throwable made = Causes.find(error, KafkaClientFailures::failedToConstruct);
        Throwable dns = made == null ? null : Causes.find(made, KafkaClientMisconfiguration::unresolvableBootstrap);
        return dns == null ? Optional.empty() : Optional.of(new RetriableIngestException("no host of "
                + IngestSettings.BOOTSTRAP_SERVERS.key() + " resolves to an address (Kafka's client: " + dns.getMessage()
                + ")", null, IngestSettings.BOOTSTRAP_SERVERS.key(), dns));
    }

    private static boolean namesWhatIsNotThere(Throwable t) {
        return t instanceof java.nio.file.NoSuchFileException
                || (t instanceof IllegalArgumentException && String.valueOf(t.getMessage()).contains("JAAS configuration"))
                // A store's password that does not open it (the JDK says "tampered with, or password was incorrect").
                || t instanceof java.security.UnrecoverableKeyException
                || String.valueOf(t.getMessage()).contains("password was incorrect");
    }

    /** No host of bootstrap.servers resolved: the cluster's side, which may change while the worker waits. */
    private static boolean unresolvableBootstrap(Throwable t) {
        return t instanceof org.apache.kafka.common.config.ConfigException
                && String.valueOf(t.getMessage()).contains("resolvable bootstrap");
    }
}
