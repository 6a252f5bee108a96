package io.xmlingest.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

    private static Process start(Path dir, Path log, List<String> command, Map<String, String> env) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        // The archive holds for the JDK that wrote it: the script's java is this test's unless JAVA says another.
        builder.environment().put("PATH", Path.of(AppProcess.javaBin()).getParent() + ":" + System.getenv("PATH"));
        builder.environment().remove("JAVA");
        builder.environment().remove("JAVA_OPTS");
        builder.environment().putAll(env);
        return builder.start();
    }

    private static int await(Process p, Path log) throws Exception {
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("did not finish in 5 minutes:\n" + Files.readString(log));
        }
        return p.exitValue();
    }

    /** With this test's own JDK: a dynamic AppCDS archive on 17, an AOT cache should the suite run on 25. */
    @Test
    void theTrainingRunWritesAnArchiveFromWhichALaterJvmLoadsTheWorkersClasses() throws Exception {
        Path archive = dir.resolve("xmlingest.jsa");
        String use = train(archive, Map.of());
        if (use.contains("-XX:AOTCache=")) {
            assertThat(Runtime.version().feature()).isGreaterThanOrEqualTo(25);
            ingestLoadingFromAotCache(AppProcess.javaBin(), archive);
            return;
        }
        assertThat(use).contains("-XX:SharedArchiveFile=" + archive);
        ingestLoadingFrom(AppProcess.javaBin(), List.of("-Xshare:on", "-XX:+UnlockDiagnosticVMOptions",
                "-XX:ArchiveRelocationMode=0", "-XX:SharedArchiveFile=" + archive), " source: shared objects file (top)");
    }

    /**
     * On JDK 25 the script writes an AOT cache, which a restarted worker starts sooner with than with
     * JDK 17's archive (README, Operations). The JDK is the one at xmlingest.jdk25.home, which the
     * pom sets to where this project's machines have Temurin 25. -XX:AOTMode=on makes a JVM that cannot
     * use the cache fail rather than run without it.
     */
    @Test
    void onJdk25TheTrainingRunWritesAnAotCacheFromWhichALaterJvmLoadsTheWorkersClasses() throws Exception {
        Path java = Path.of(System.getProperty("xmlingest.jdk25.home", "")).resolve("bin/java");
        assertThat(Files.isExecutable(java)).as("a JDK 25 at " + java + " (set -Dxmlingest.jdk25.home=DIR)").isTrue();
        Path archive = dir.resolve("xmlingest.aot");
        String use = train(archive, Map.of("JAVA", java.toString()));
        assertThat(use).contains(java + " -XX:AOTCache=" + archive);
        ingestLoadingFromAotCache(java.toString(), archive);
    }

    /** -XX:AOTMode=on: a JVM that cannot use the cache fails rather than run without it. */
    private void ingestLoadingFromAotCache(String java, Path cache) throws Exception {
        ingestLoadingFrom(java, List.of("-XX:AOTMode=on", "-XX:AOTCache=" + cache), " source: shared objects file");
    }

    /** Runs the script; returns what it says to start the worker with. */
    private String train(Path archive, Map<String, String> env) throws Exception {
        Path scriptLog = dir.resolve("script.log");
        int exit = await(start(dir, scriptLog, List.of("bash", REPO.resolve("scripts/class-data-archive.sh").toString(),
                archive.toString(), AppProcess.appJar(), REPO.resolve("datagen/target/datagen.jar").toString()), env),
                scriptLog);
        String said = Files.readString(scriptLog);
        assertThat(exit).as(said).isZero();
        assertThat(said).contains("wrote " + archive);
        assertThat(Files.size(archive)).isGreaterThan(1 << 20);
        return said.substring(said.lastIndexOf("wrote "));
    }

    /** Ingests ten records with {@code java} and {@code archiveOptions}, checking where the worker's classes came from. */
    private void ingestLoadingFrom(String java, List<String> archiveOptions, String fromArchive) throws Exception {
        StringBuilder persons = new StringBuilder("<persons xmlns=\"urn:xmlingest:sample:persons\">\n");
        for (int i = 0; i < 10; i++) {
            persons.append(BadInputIT.person(i, "1.00"));
        }
        Path file = Files.writeString(dir.resolve("p.xml"), persons.append("</persons>\n"));
        String topic = TestBroker.uniqueTopic("cds");
        Path log = dir.resolve("ingest.log");
        List<String> command = new ArrayList<>(List.of(java));
        command.addAll(archiveOptions);
        command.addAll(List.of("-Xlog:class+load=info", "-jar", AppProcess.appJar(), "ingest",
                file.toString(), "--topic", topic, "--bootstrap-servers", TestBroker.bootstrapServers()));
        assertThat(await(start(dir, log, command, Map.of()), log)).as(Files.readString(log)).isZero();
        String loaded = Files.readString(log);
        for (String cls : new String[] {"org.apache.kafka.clients.producer.KafkaProducer",
            "org.glassfish.jaxb.runtime.v2.runtime.JAXBContextImpl", "com.ctc.wstx.stax.WstxInputFactory",
            "io.xmlingest.core.split.StaxRecordSplitter"}) {
            assertThat(loaded).as(cls).contains(cls + fromArchive);
        }
        assertThat(TestBroker.readCommitted(TestBroker.bootstrapServers(), topic)).hasSize(10);
    }
}
