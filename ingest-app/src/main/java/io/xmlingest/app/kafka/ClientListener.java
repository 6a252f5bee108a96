package io.xmlingest.app.kafka;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * How clients reach the embedded broker's client port: in plain text, as the embedded default
 * does, or only as named users, as production clusters are reached. The secured forms let the
 * tests run the jar exactly as a user of such a cluster would; they are no secured broker to serve
 * from, since the broker also listens in plain text on loopback, for itself.
 *
 * @param protocol         Kafka's security protocol of the client port
 * @param mechanism        the SASL mechanism, or null
 * @param users            user name to password, for SASL
 * @param keystore         the broker's PKCS12 key store (its key and certificate), for TLS, or null
 * @param keystorePassword the key store's password, which is also its key's (as in any PKCS12 store), or null
 * @param truststore       for mutual TLS, the PKCS12 trust store of the client certificates taken, or null
 * @param truststorePassword the trust store's password, or null
 */
public record ClientListener(String protocol, String mechanism, Map<String, String> users, Path keystore,
                             String keystorePassword, Path truststore, String truststorePassword) {

    /** Plain text, no authentication: the embedded default and the {@code broker} command. */
    public static final ClientListener PLAINTEXT = new ClientListener("PLAINTEXT", null, Map.of(), null, null, null, null);

    private static final String PLAIN_LOGIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule";
    private static final String SCRAM_LOGIN_MODULE = "org.apache.kafka.common.security.scram.ScramLoginModule";

    public ClientListener {
        Objects.requireNonNull(protocol, "protocol");
        users = Map.copyOf(users);
        users.forEach((name, password) -> {
            // Both end up inside a JAAS line or a storage-format argument, which have no escapes worth trusting.
            if (!name.matches("[A-Za-z0-9._-]+") || !password.matches("[A-Za-z0-9._-]+")) {
                throw new IllegalArgumentException("user names and passwords are letters, digits, '.', '_' and '-': "
                        + name);
            }
        });
    }

    /** SASL_PLAINTEXT with the PLAIN mechanism, taking only {@code users} (name to password). */
    public static ClientListener saslPlain(Map<String, String> users) {
        return new ClientListener("SASL_PLAINTEXT", "PLAIN", users, null, null, null, null);
    }

    /**
     * SASL_SSL with SCRAM-SHA-512, taking only {@code users}: the credentials are checked by a
     * salted challenge and never cross the wire, which itself is TLS with the certificate in
     * {@code keystore}.
     */
    public static ClientListener scramOverTls(Map<String, String> users, Path keystore, String keystorePassword) {
        return new ClientListener("SASL_SSL", "SCRAM-SHA-512", users, Objects.requireNonNull(keystore, "keystore"),
                Objects.requireNonNull(keystorePassword, "keystorePassword"), null, null);
    }

    /**
     * SSL with client certificates required: a client is who its certificate says, and only
     * certificates in {@code truststore} are taken.
     */
    public static ClientListener mutualTls(Path keystore, String keystorePassword, Path truststore,
                                           String truststorePassword) {
        return new ClientListener("SSL", null, Map.of(), Objects.requireNonNull(keystore, "keystore"),
                Objects.requireNonNull(keystorePassword, "keystorePassword"), Objects.requireNonNull(truststore, "truststore"),
                Objects.requireNonNull(truststorePassword, "truststorePassword"));
    }

    boolean secured() {
        return !"PLAINTEXT".equals(protocol);
    }

    /** The broker's settings for this listener, which is named after its protocol. */
    void configure(Properties props) {
        String prefix = "listener.name." + protocol.toLowerCase(Locale.ROOT) + ".";
        if (mechanism != null) {
            props.put("sasl.enabled.mechanisms", mechanism);
            String mech = prefix + mechanism.toLowerCase(Locale.ROOT) + ".";
            if ("PLAIN".equals(mechanism)) {
                StringBuilder jaas = new StringBuilder(PLAIN_LOGIN_MODULE).append(" required");
                users.forEach((name, password) -> jaas.append(" user_").append(name).append("=\"").append(password).append('"'));
                props.put(mech + "sasl.jaas.config", jaas.append(';').toString());
            } else {
                // SCRAM's verifiers live in the cluster's metadata (see formatArguments), not in the JAAS line.
                props.put(mech + "sasl.jaas.config", SCRAM_LOGIN_MODULE + " required;");
            }
        }
        if (keystore != null) {
            props.put(prefix + "ssl.keystore.location", keystore.toAbsolutePath().toString());
            props.put(prefix + "ssl.keystore.type", "PKCS12");
            props.put(prefix + "ssl.keystore.password", keystorePassword);
            props.put(prefix + "ssl.key.password", keystorePassword);
        }
        if (truststore != null) {
            props.put(prefix + "ssl.client.auth", "required");
            props.put(prefix + "ssl.truststore.location", truststore.toAbsolutePath().toString());
            props.put(prefix + "ssl.truststore.type", "PKCS12");
            props.put(prefix + "ssl.truststore.password", truststorePassword);
        }
    }

    /** Arguments for the storage format step: SCRAM users are written into the new cluster's metadata. */
    List<String> formatArguments() {
        List<String> args = new ArrayList<>();
        if (mechanism != null && mechanism.startsWith("SCRAM-")) {
            users.forEach((name, password) -> {
                args.add("--add-scram");
                args.add(mechanism + "=[name=" + name + ",password=" + password + "]");
            });
        }
        return args;
    }
}
