package io.xmlingest.datagen;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Generates a million records in a JVM limited to a 64 MB heap: datagen streams, so the heap it
 * needs does not depend on the number of records.
 */
class DatagenConstantMemoryIT {

    @TempDir
    Path dir;

    @Test
    void writesAMillionRecordsWithA64MegabyteHeap() throws Exception {
        Path out = dir.resolve("persons-1m.xml");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(List.of(java, "-Xmx64m", "-XX:+ExitOnOutOfMemoryError",
                "-cp", System.getProperty("java.class.path"), DatagenCommand.class.getName(),
                "--records", "1000000", "--out", out.toString()))
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("datagen.log").toFile())
                .start();
        assertThat(p.waitFor(15, TimeUnit.MINUTES)).as("datagen finished").isTrue();
        String log = Files.readString(dir.resolve("datagen.log"));
        assertThat(p.exitValue()).as(log).isZero();
        assertThat(log).contains("wrote 1000000 records");

        long records = 0;
        String last = null;
        try (BufferedReader r = Files.newBufferedReader(out, StandardCharsets.UTF_8)) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.startsWith("  <person ")) {
                    records++;
                }
                last = line;
            }
        }
        assertThat(records).isEqualTo(1_000_000);
        assertThat(last).isEqualTo("</persons>");
    }
}
