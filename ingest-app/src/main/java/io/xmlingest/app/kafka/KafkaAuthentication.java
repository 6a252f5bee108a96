package io.xmlingest.app.kafka;

import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.Causes;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.util.Optional;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;

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

    /**
     * One line saying why the connection was refused and which settings to check: Kafka refusing
     * the credentials, xmlingest not trusting a broker's certificate, or another TLS failure.
     */
    public static String describe(AuthenticationException refusal) {
        String family = IngestSettings.KAFKA_CLIENT.key();
        if (refusal instanceof SslAuthenticationException) {
            Throwable untrusted = Causes.find(refusal, t -> t instanceof CertificateException
                    || t instanceof CertPathBuilderException || t instanceof CertPathValidatorException);
            Throwable expired = Causes.find(refusal, t -> t instanceof CertificateExpiredException
                    || t instanceof CertificateNotYetValidException);
            if (expired != null) {
                return "a Kafka broker's certificate is not valid now: " + deepest(expired) + " (the brokers' "
                        + "certificates must be renewed, or this machine's clock is wrong)";
            }
            if (untrusted != null && String.valueOf(untrusted.getMessage()).matches("(?s).*(No subject alternative|No name matching).*")) {
                return "a Kafka broker's certificate does not name the address xmlingest connected to: " + deepest(untrusted)
                        + " (name the brokers in " + IngestSettings.BOOTSTRAP_SERVERS.key() + " as their certificates do; "
                        + "brokers advertise their own addresses too)";
            }
            if (untrusted != null) {
                return "xmlingest does not trust the Kafka broker's certificate: " + deepest(untrusted) + " (check "
                        + family + "ssl.truststore.location, " + family + "ssl.truststore.type and " + family
                        + "ssl.truststore.password: a trust store is needed when no authority the JVM trusts signed "
                        + "the brokers' certificates)";
            }
            return "the TLS handshake with Kafka failed: " + deepest(refusal) + " (check " + family
                    + "security.protocol and the " + family + "ssl.* settings, the key store among them when the "
                    + "brokers ask for a client certificate)";
        }
        return "Kafka did not accept xmlingest's credentials: " + refusal.getMessage() + " (check the " + family
                + "* settings: " + family + "security.protocol, " + family + "sasl.mechanism, " + family
                + "sasl.jaas.config, " + family + "ssl.*)";
    }

    /** The innermost message: TLS wraps the reason in layers that each repeat it with a class name. */
    private static String deepest(Throwable e) {
        String message = e.getMessage();
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                message = t.getMessage();
            }
        }
        return message;
    }
}
