package io.xmlingest.app.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.cert.CertificateException;
import javax.net.ssl.SSLHandshakeException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.junit.jupiter.api.Test;

/** Which of Kafka's client failures are settings errors, and what each one tells the user to check. */
class KafkaClientRefusalsTest {

    @Test
    void settingsThatDoNotGoTogetherAreASettingsErrorButARefusedLoginIsNot() {
        KafkaException wrapped = new KafkaException("Failed to create new KafkaAdminClient", new KafkaException(
                "Failed to create new NetworkClient", new InvalidConfigurationException(
                        "SSL key store is not specified, but key store password is specified.")));
        assertThat(KafkaClientMisconfiguration.find(wrapped)).hasValueSatisfying(e -> assertThat(e.getMessage())
                .isEqualTo("Kafka's client refused its settings: SSL key store is not specified, but key store "
                        + "password is specified (setting: kafka.client.*)"));
        assertThat(KafkaClientMisconfiguration.find(new KafkaException("x", new org.apache.kafka.common.config.ConfigException(
                "ssl.keystore.type", "JKX", "not a type")))).isPresent();

        // Kafka's login failures are InvalidConfigurationExceptions too; the cluster's side may change, so they are not.
        assertThat(KafkaClientMisconfiguration.find(new KafkaException("x",
                new SaslAuthenticationException("Authentication failed: Invalid username or password")))).isEmpty();
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

        SslAuthenticationException alert = new SslAuthenticationException("SSL handshake failed",
                new SSLHandshakeException("Received fatal alert: certificate_required"));
        assertThat(KafkaAuthentication.describe(alert))
                .startsWith("the TLS handshake with Kafka failed: Received fatal alert: certificate_required (check "
                        + "kafka.client.security.protocol and the kafka.client.ssl.* settings, the key store among them");

        assertThat(KafkaAuthentication.describe(new SaslAuthenticationException("Authentication failed")))
                .startsWith("Kafka did not accept xmlingest's credentials: Authentication failed (check the kafka.client.*");
    }
}
