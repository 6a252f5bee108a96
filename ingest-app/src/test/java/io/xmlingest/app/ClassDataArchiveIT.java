package io.xmlingest.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/class-data-archive.sh, as the README's Operations section has a user run it: its training
 * run writes an archive that a later JVM maps, and from which that JVM takes the classes a worker's
 * start-up spends its time loading (Kafka's clients, JAXB's runtime, Woodstox). -Xshare:on makes a JVM
 * that cannot map the archive fail rather than run without it.
 */
class ClassDataArchiveIT {

    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    private static Process start(Path dir, Path log, List<String> command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        // The archive holds for the JDK that wrote it: the script's java is this test's.
        builder.environment().put("PATH", Path.of(AppProcess.javaBin()).getParent() + ":" + System.getenv("PATH"));
        return builder.start();
    }

    private static int await(Process p, Path log) throws Exception {
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("did not finish in 5 minutes:\n" + Files.readString(log));
        }
        return p.exitValue();
    }

    @Test
    void theTrainingRunWritesAnArchiveFromWhichALaterJvmLoadsTheWorkersClasses() throws Exception {
        Path archive = dir.resolve("xmlingest.jsa");
        Path scriptLog = dir.resolve("script.log");
        int exit = await(start(dir, scriptLog, List.of("bash", REPO.resolve("scripts/class-data-archive.sh").toString(),
                archive.toString(), AppProcess.appJar(), REPO.resolve("datagen/target/datagen.jar").toString())), scriptLog);
        assertThat(exit).as(Files.readString(scriptLog)).isZero();
        assertThat(Files.readString(scriptLog)).contains("wrote " + archive);
        assertThat(Files.size(archive)).isGreaterThan(1 << 20);

        StringBuilder persons = new StringBuilder("<persons xmlns=\"urn:xmlingest:sample:persons\">\n");
        for (int i = 0; i < 10; i++) {
            persons.append(BadInputIT.person(i, "1.00"));
        }
        Path file = Files.writeString(dir.resolve("p.xml"), persons.append("</persons>\n"));
        String topic = TestBroker.uniqueTopic("cds");
        Path log = dir.resolve("ingest.log");
        List<String> command = new ArrayList<>(List.of(AppProcess.javaBin(), "-Xshare:on",
                "-XX:+UnlockDiagnosticVMOptions", "-XX:ArchiveRelocationMode=0", "-XX:SharedArchiveFile=" + archive, "-Xlog:class+load=info", "-jar", AppProcess.appJar(), "ingest",
                file.toString(), "--topic", topic, "--bootstrap-servers", TestBroker.bootstrapServers()));
        assertThat(await(start(dir, log, command), log)).as(Files.readString(log)).isZero();
        String loaded = Files.readString(log);
        for (String cls : new String[] {"org.apache.kafka.clients.producer.KafkaProducer",
            "org.glassfish.jaxb.runtime.v2.runtime.JAXBContextImpl", "com.ctc.wstx.stax.WstxInputFactory",
            "io.xmlingest.core.split.StaxRecordSplitter"}) {
            assertThat(loaded).as(cls).contains(cls + " source: shared objects file (top)");
        }
        assertThat(TestBroker.readCommitted(TestBroker.bootstrapServers(), topic)).hasSize(10);
    }
}
