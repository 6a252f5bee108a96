package io.xmlingest.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The shaded jar run as a user runs it: a child process in a working directory, stdout and stderr kept apart. */
public final class AppProcess {

    public record Result(int exit, List<String> stdout, String stderr) {
    }

    private AppProcess() {
    }

    public static String appJar() {
        String jar = System.getProperty("xmlingest.app.jar");
        assertThat(jar).as("system property xmlingest.app.jar").isNotNull();
        assertThat(Path.of(jar)).exists();
        return jar;
    }

    public static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Runs {@code java -jar ingest-app.jar args...} in {@code dir} and waits for it. */
    public static Result run(Path dir, Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(javaBin(), "-jar", appJar()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().putAll(env);
        Process p = builder.start();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError(command + " did not finish in 5 minutes; its error stream:\n" + Files.readString(err));
        }
        return new Result(p.exitValue(), Files.readAllLines(out), Files.readString(err));
    }
}
