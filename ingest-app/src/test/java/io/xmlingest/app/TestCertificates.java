package io.xmlingest.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Self-signed certificates made with the JDK's own keytool, as a cluster's operator would hand
 * them out: the broker's PKCS12 key store; a trust store holding only the broker's certificate,
 * for clients; and for mutual TLS a client's key store and the broker's trust store of it. The
 * broker's two stores have the broker's password, the client's two the client's (a PKCS12 store's
 * key has the store's password).
 */
record TestCertificates(Path keystore, Path truststore, Path clientKeystore, Path clientTruststore) {

    static TestCertificates forLoopback(Path dir, String brokerPassword, String clientPassword) throws Exception {
        Files.createDirectories(dir);
        Path keystore = dir.resolve("broker.p12");
        Path truststore = dir.resolve("truststore.p12");
        Path clientKeystore = dir.resolve("client.p12");
        Path clientTruststore = dir.resolve("broker-truststore.p12");
        // The name clients check (Kafka verifies the host by default) is the address they connect to.
        keyPair(keystore, "broker", "CN=localhost", brokerPassword, "SAN=ip:127.0.0.1,dns:localhost");
        trust(keystore, brokerPassword, "broker", truststore, clientPassword, dir.resolve("broker.pem"));
        keyPair(clientKeystore, "client", "CN=xmlingest", clientPassword, null);
        trust(clientKeystore, clientPassword, "client", clientTruststore, brokerPassword, dir.resolve("client.pem"));
        return new TestCertificates(keystore, truststore, clientKeystore, clientTruststore);
    }

    private static void keyPair(Path store, String alias, String name, String password, String extension)
            throws Exception {
        List<String> args = new ArrayList<>(List.of("-genkeypair", "-alias", alias, "-keyalg", "EC",
                "-groupname", "secp256r1", "-dname", name, "-validity", "2", "-storetype", "PKCS12",
                "-keystore", store.toString(), "-storepass", password, "-keypass", password));
        if (extension != null) {
            args.addAll(List.of("-ext", extension));
        }
        keytool(args.toArray(String[]::new));
    }

    /** Puts the certificate of {@code alias} in {@code from} into the trust store {@code into}. */
    private static void trust(Path from, String fromPassword, String alias, Path into, String intoPassword, Path pem)
            throws Exception {
        keytool("-exportcert", "-rfc", "-alias", alias, "-keystore", from.toString(), "-storepass", fromPassword,
                "-file", pem.toString());
        keytool("-importcert", "-noprompt", "-alias", alias, "-file", pem.toString(),
                "-storetype", "PKCS12", "-keystore", into.toString(), "-storepass", intoPassword);
    }

    private static void keytool(String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("keytool finished").isTrue();
        assertThat(p.exitValue()).as("keytool %s: %s", args[0], output).isZero();
    }
}
