package io.xmlingest.app.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.util.List;
import javax.net.ssl.SSLHandshakeException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.junit.jupiter.api.Test;

/** Which of Kafka's client failures are settings errors, and what each one tells the user to check. */
class KafkaClientRefusalsTest {

    @Test
    void settingsThatDoNotGoTogetherAreASettingsErrorButWhatTheClusterMayChangeIsNot() {
        KafkaException wrapped = new KafkaException("Failed to create new KafkaAdminClient", new KafkaException(
                "Failed to create new NetworkClient", new InvalidConfigurationException(
                        "SSL key store is not specified, but key store password is specified.")));
        assertThat(KafkaClientMisconfiguration.find(wrapped)).hasValueSatisfying(e -> assertThat(e.getMessage())
                .isEqualTo("Kafka's client refused its settings: SSL key store is not specified, but key store "
                        + "password is specified (setting: kafka.client.*)"));
        assertThat(KafkaClientMisconfiguration.find(new RuntimeException(new KafkaException("Failed to construct kafka "
                + "producer", new org.apache.kafka.common.config.ConfigException("ssl.keystore.type", "JKX", "not a type")))))
                .isPresent();

        // What no retry mends either, which the worker retried for ever blaming kafka.bootstrap.servers: SASL without a
        // JAAS entry, a trust store that is not there.
        assertThat(KafkaClientMisconfiguration.find(new KafkaException("Failed to construct kafka producer",
                new KafkaException("Failed to create new NetworkClient", new IllegalArgumentException("Could not find a "
                        + "'KafkaClient' entry in the JAAS configuration. System property 'java.security.auth.login.config' "
                        + "is not set"))))).hasValueSatisfying(e -> assertThat(e.getMessage()).isEqualTo("Kafka's client "
                + "refused its settings: Could not find a 'KafkaClient' entry in the JAAS configuration. System property "
                + "'java.security.auth.login.config' is not set (setting: kafka.client.*)"));
        assertThat(KafkaClientMisconfiguration.find(new KafkaException("Failed to create new KafkaAdminClient",
                new KafkaException("Failed to create new NetworkClient", new KafkaException("Failed to load SSL keystore "
                        + "/nonexistent.p12 of type JKS", new java.nio.file.NoSuchFileException("/nonexistent.p12"))))))
                .hasValueSatisfying(e -> assertThat(e.getMessage()).isEqualTo("Kafka's client refused its settings: "
                        + "Failed to load SSL keystore /nonexistent.p12 of type JKS (NoSuchFileException) (setting: "
                        + "kafka.client.*)"));

        assertThat(KafkaClientMisconfiguration.find(new KafkaException("Failed to create new KafkaAdminClient",
                new KafkaException("Failed to load SSL keystore ts.jks of type JKS", new java.io.IOException("Keystore "
                        + "was tampered with, or password was incorrect", new java.security.UnrecoverableKeyException(
                        "Password verification failed")))))).hasValueSatisfying(e -> assertThat(e.getMessage())
                .startsWith("Kafka's client refused its settings: Failed to load SSL keystore ts.jks of type JKS: Keystore "
                        + "was tampered with, or password was incorrect"));
        // What may pass is retried: a store file being rotated, a login server away, no file handles left.
        for (Throwable passing : List.of(new KafkaException("Failed to load SSL keystore /etc/ks.p12 of type PKCS12",
                        new java.io.EOFException()), new KafkaException("javax.security.auth.login.LoginException: "
                        + "Cannot contact any KDC"), new java.io.IOException("Too many open files"))) {
            assertThat(KafkaClientMisconfiguration.find(new KafkaException("Failed to construct kafka producer",
                    new KafkaException("Failed to create new NetworkClient", passing)))).as("%s", passing).isEmpty();
        }

        // Kafka's errors from a running cluster are InvalidConfigurationExceptions too; the cluster may change.
        for (Throwable fromCluster : List.of(
                new SaslAuthenticationException("Authentication failed: Invalid username or password"),
                new TopicAuthorizationException("Not authorized to access topics: [persons]"),
                new TransactionalIdAuthorizationException("Transactional Id authorization failed."),
                new UnsupportedVersionException("The broker does not support INIT_PRODUCER_ID"),
                new InvalidReplicationFactorException("Replication factor: 3 larger than available brokers: 1."))) {
            assertThat(KafkaClientMisconfiguration.find(new KafkaException("x", fromCluster))).as("%s", fromCluster).isEmpty();
            assertThat(KafkaClientMisconfiguration.find(new KafkaException("Failed to construct kafka producer",
                    fromCluster))).as("%s", fromCluster).isEmpty();
        }
        // A bootstrap host name that does not resolve yet (a service starting alongside): Kafka may yet be there.
        assertThat(KafkaClientMisconfiguration.find(new KafkaException("Failed to construct kafka consumer",
                new org.apache.kafka.common.config.ConfigException("No resolvable bootstrap urls given in bootstrap.servers"))))
                .isEmpty();
        // A plain InvalidConfigurationException from the broker, not from making a client.
        assertThat(KafkaClientMisconfiguration.find(new KafkaException("x",
                new InvalidConfigurationException("Unknown topic config name")))).isEmpty();
        assertThat(KafkaClientMisconfiguration.find(new KafkaException("Kafka is away"))).isEmpty();
    }

    @Test
    void anUntrustedCertificateIsNotCalledARefusedLogin() {
        SslAuthenticationException untrusted = new SslAuthenticationException("SSL handshake failed",
                new SSLHandshakeException("PKIX path building failed"));
        untrusted.getCause().initCause(new CertificateException("unable to find valid certification path to requested target"));
        assertThat(KafkaAuthentication.describe(untrusted))
                .startsWith("xmlingest does not trust the Kafka broker's certificate: unable to find valid certification "
                        + "path to requested target (check kafka.client.ssl.truststore.location")
                .doesNotContain("did not accept");

        SslAuthenticationException otherName = new SslAuthenticationException("SSL handshake failed",
                new SSLHandshakeException("No subject alternative names matching IP address 10.0.0.7 found"));
        otherName.getCause().initCause(new CertificateException("No subject alternative names matching IP address 10.0.0.7 found"));
        assertThat(KafkaAuthentication.describe(otherName)).startsWith("a Kafka broker's certificate does not name the "
                + "address xmlingest connected to: No subject alternative names matching IP address 10.0.0.7 found (name the "
                + "brokers in kafka.bootstrap.servers");

        SslAuthenticationException expired = new SslAuthenticationException("SSL handshake failed",
                new SSLHandshakeException("PKIX path validation failed"));
        expired.getCause().initCause(new CertificateException("validity check failed",
                new CertificateExpiredException("NotAfter: Sat Nov 21 10:00:00 UTC 2026")));
        assertThat(KafkaAuthentication.describe(expired)).startsWith("a Kafka broker's certificate is not valid now: "
                + "NotAfter: Sat Nov 21 10:00:00 UTC 2026 (the brokers' certificates must be renewed");

        SslAuthenticationException alert = new SslAuthenticationException("SSL handshake failed",
                new SSLHandshakeException("Received fatal alert: certificate_required"));
        assertThat(KafkaAuthentication.describe(alert))
                .startsWith("the TLS handshake with Kafka failed: Received fatal alert: certificate_required (check "
                        + "kafka.client.security.protocol and the kafka.client.ssl.* settings, the key store among them");

        assertThat(KafkaAuthentication.describe(new SaslAuthenticationException("Authentication failed")))
                .startsWith("Kafka did not accept xmlingest's credentials: Authentication failed (check the kafka.client.*");
    }
}
