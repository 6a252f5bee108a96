package io.xmlingest.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * docker-compose.yml and the Dockerfile, checked without a Docker engine: Debian's docker-compose
 * validates and resolves the file, and what it resolves must agree with the worker's settings
 * declaration, the Kafka version we build against, and the jars the build makes.
 */
class ComposeFileIT {

    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static JsonNode compose;

    private static String run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).directory(REPO.toFile()).redirectErrorStream(true).start();
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("%s finished", command).isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as("%s: %s", command, out).isZero();
        return out;
    }

    @BeforeAll
    static void resolve() throws Exception {
        // The project installs the tool itself when it is missing (Debian's package; root and apt needed).
        run(List.of("bash", REPO.resolve("scripts/ensure-docker-compose.sh").toString()));
        String resolved = run(List.of("docker-compose", "-f", REPO.resolve("docker-compose.yml").toString(), "config"));
        compose = new ObjectMapper(new YAMLFactory()).readTree(resolved);
    }

    private static Map<String, String> environment(String service) {
        Map<String, String> env = new LinkedHashMap<>();
        compose.path("services").path(service).path("environment").fields()
                .forEachRemaining(e -> env.put(e.getKey(), e.getValue().asText()));
        return env;
    }

    @Test
    void theWorkersVariablesAreRealSettingsWithValidValues() {
        Map<String, String> env = environment("worker");
        assertThat(env).isNotEmpty().allSatisfy((k, v) -> assertThat(k).startsWith("XMLINGEST_"));
        Map<String, String> settings = new LinkedHashMap<>(env);
        // The one variable that is not a setting: the logging configuration reads it.
        assertThat(settings.remove("XMLINGEST_LOG_LEVEL")).isIn("TRACE", "DEBUG", "INFO", "WARN", "ERROR");
        // Resolving refuses an unknown XMLINGEST_ variable and validates every value, naming it.
        IngestConfig config = IngestConfig.resolve(AppSettings.ALL, Map.of(), settings, Map.of());
        assertThat(config.get(IngestSettings.TOPIC)).isNotEmpty();

        JsonNode ports = compose.path("services").path("worker").path("ports");
        List<Integer> targets = new ArrayList<>();
        List<String> published = new ArrayList<>();
        ports.forEach(p -> {
            targets.add(p.path("target").asInt());
            published.add(p.path("published").asText());
        });
        // The same number on both sides (the first of a range, for --scale), so the README's
        // curl localhost:PORT/metrics reaches the first worker.
        assertThat(targets).containsExactly(config.get(AppSettings.HTTP_PORT));
        assertThat(published).hasSize(1);
        assertThat(published.get(0).split("-")[0]).isEqualTo(Integer.toString(config.get(AppSettings.HTTP_PORT)));

        String inbox = config.get(AppSettings.INBOX_DIR);
        assertThat(volumeTargets("worker")).contains(inbox);
        assertThat(volumeTargets("datagen")).contains(inbox);
        List<String> datagen = new ArrayList<>();
        compose.path("services").path("datagen").path("command").forEach(c -> datagen.add(c.asText()));
        assertThat(datagen.get(datagen.indexOf("--out") + 1)).startsWith(inbox + "/");
    }

    @Test
    void theWorkerReachesTheBrokersInternalListener() {
        String bootstrap = environment("worker").get("XMLINGEST_KAFKA_BOOTSTRAP_SERVERS");
        Map<String, String> kafka = environment("kafka");
        assertThat(kafka.get("KAFKA_ADVERTISED_LISTENERS")).contains("PLAINTEXT://" + bootstrap);
        String port = bootstrap.substring(bootstrap.indexOf(':') + 1);
        assertThat(kafka.get("KAFKA_LISTENERS")).contains("PLAINTEXT://:" + port);
        assertThat(bootstrap).startsWith("kafka:");
        assertThat(compose.path("services").path("worker").path("depends_on").path("kafka").path("condition").asText())
                .isEqualTo("service_healthy");
        // A single node: the transaction log the worker relies on must accept one replica.
        assertThat(kafka.get("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR")).isEqualTo("1");
        assertThat(kafka.get("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR")).isEqualTo("1");
    }

    @Test
    void theWorkersHealthcheckAsksItsOwnHealthEndpointWithAToolTheImageInstalls() throws Exception {
        JsonNode check = compose.path("services").path("worker").path("healthcheck");
        List<String> test = new ArrayList<>();
        check.path("test").forEach(t -> test.add(t.asText()));
        int port = Integer.parseInt(environment("worker").get("XMLINGEST_HTTP_PORT"));
        assertThat(test).first().isEqualTo("CMD");
        assertThat(test.get(1)).isEqualTo("curl");
        assertThat(test).last().isEqualTo("http://localhost:" + port + "/health");
        assertThat(Files.readString(REPO.resolve("Dockerfile"))).containsPattern("apt-get install [^\\n]*\\bcurl\\b");
    }

    @Test
    void theWorkerIsStartedAgainWhenItStopsOnAnErrorSoAFileThatStopsItIsSetAside() {
        // Without a restart, a worker stopped by a file stays down, and worker.file.max.crashes never counts further.
        assertThat(compose.path("services").path("worker").path("restart").asText()).isEqualTo("unless-stopped");
    }

    @Test
    void theBrokerImageIsTheKafkaVersionWeBuildAgainst() throws Exception {
        Matcher m = Pattern.compile("<kafka.version>([^<]+)</kafka.version>").matcher(Files.readString(REPO.resolve("pom.xml")));
        assertThat(m.find()).isTrue();
        assertThat(compose.path("services").path("kafka").path("image").asText()).isEqualTo("apache/kafka:" + m.group(1));
    }

    @Test
    void theDockerfileCopiesTheJarsTheBuildMakesAndRunsACommandThatExists() throws Exception {
        assertThat(Path.of(compose.path("services").path("worker").path("build").path("context").asText())
                .resolve("Dockerfile")).isEqualTo(REPO.resolve("Dockerfile"));
        String dockerfile = Files.readString(REPO.resolve("Dockerfile"));
        Matcher copy = Pattern.compile("COPY --from=build /src/(\\S+) (\\S+)").matcher(dockerfile);
        Map<String, String> copied = new LinkedHashMap<>();
        while (copy.find()) {
            copied.put(copy.group(1), copy.group(2));
        }
        assertThat(copied).containsOnlyKeys("ingest-app/target/ingest-app.jar", "datagen/target/datagen.jar");
        // This test runs after the package phase: the build made exactly these jars.
        copied.keySet().forEach(jar -> assertThat(REPO.resolve(jar)).exists());
        assertThat(dockerfile).contains("\"-jar\", \"" + copied.get("ingest-app/target/ingest-app.jar") + "\"");
        List<String> entry = new ArrayList<>();
        compose.path("services").path("datagen").path("entrypoint").forEach(e -> entry.add(e.asText()));
        assertThat(entry).contains(copied.get("datagen/target/datagen.jar"));
        // Every module the parent builds is copied into the build stage.
        Matcher module = Pattern.compile("<module>([^<]+)</module>").matcher(Files.readString(REPO.resolve("pom.xml")));
        while (module.find()) {
            assertThat(dockerfile).contains("COPY " + module.group(1) + " " + module.group(1));
        }
        assertThat(compose.path("services").path("worker").path("command").get(0).asText()).isEqualTo("worker");
        assertThat(dockerfile).contains("USER xmlingest");
    }

    /**
     * The image's class-data archive: the training script it copies is the repository's, it is run with the
     * jars the image holds, and it writes the archive the entrypoint's JVM is told to map, with the same collector.
     */
    @Test
    void theDockerfileTrainsTheClassDataArchiveItsEntrypointMaps() throws Exception {
        String dockerfile = Files.readString(REPO.resolve("Dockerfile"));
        Matcher script = Pattern.compile("COPY (scripts/class-data-archive\\.sh) (\\S+)").matcher(dockerfile);
        assertThat(script.find()).as("the Dockerfile copies scripts/class-data-archive.sh").isTrue();
        assertThat(REPO.resolve(script.group(1))).exists();
        Matcher run = Pattern.compile("RUN JAVA_OPTS=(\\S+) " + Pattern.quote(script.group(2)) + " (\\S+) (\\S+) (\\S+)")
                .matcher(dockerfile);
        assertThat(run.find()).as("the Dockerfile runs the training script").isTrue();
        assertThat(run.group(3)).isEqualTo("/app/ingest-app.jar");
        assertThat(dockerfile).contains("COPY --from=build /src/ingest-app/target/ingest-app.jar " + run.group(3))
                .contains("COPY --from=build /src/datagen/target/datagen.jar " + run.group(4))
                .contains("ENTRYPOINT [\"java\", \"" + run.group(1) + "\", \"-XX:+UnlockDiagnosticVMOptions\", "
                        + "\"-XX:ArchiveRelocationMode=0\", \"-XX:SharedArchiveFile=" + run.group(2) + "\", \"-jar\", \""
                        + run.group(3) + "\"]");
    }

    private static List<String> volumeTargets(String service) {
        List<String> targets = new ArrayList<>();
        compose.path("services").path(service).path("volumes").forEach(v -> {
            String text = v.isTextual() ? v.asText() : v.path("target").asText();
            String[] parts = text.split(":");
            targets.add(v.isTextual() ? parts[1] : text);
        });
        return targets;
    }
}
