package io.xmlingest.datagen;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Where datagen writes: a file is written beside and renamed; anything else is written as it is, or refused. */
class DatagenCommandTest {

    @TempDir
    Path dir;

    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = DatagenCommand.commandLine();
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void aPipeIsWrittenAsItIsNotReplacedByAFile() throws Exception {
        // --out /dev/stdout renamed its FILE.part over the link, and nothing reached the pipe.
        Path fifo = dir.resolve("pipe");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        CompletableFuture<String> read = CompletableFuture.supplyAsync(() -> {
            try (InputStream in = Files.newInputStream(fifo)) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });

        assertThat(run("--records", "2", "--no-progress", "--out", fifo.toString())).isZero();

        String xml = read.get(60, TimeUnit.SECONDS);
        assertThat(xml).startsWith("<?xml").contains("<person id=\"2\"").endsWith("</persons>\n");
        assertThat(Files.isRegularFile(fifo)).isFalse();
        assertThat(dir.resolve("pipe.part")).doesNotExist();
    }

    @Test
    void aLinkIsWrittenThroughNotReplaced() throws Exception {
        // /dev/stdout is a link to /proc/self/fd/1, which is a regular file when standard output is redirected to one:
        // the .part was renamed over the link.
        Path target = Files.writeString(dir.resolve("target.xml"), "");
        Path link = Files.createSymbolicLink(dir.resolve("link.xml"), target);

        assertThat(run("--records", "2", "--no-progress", "--out", link.toString())).isZero();

        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(Files.readString(target)).startsWith("<?xml").contains("<person id=\"2\"");
    }

    @Test
    void gzipWritesTheSameRecordsCompressed() throws Exception {
        Path plain = DatagenCommand.generate(dir.resolve("plain.xml"), 300, 42, 0.1);
        Path gz = dir.resolve("persons-300.xml.gz");
        assertThat(run("--records", "300", "--invalid-rate", "0.1", "--gzip", "--out", gz.toString())).isZero();
        assertThat(DatagenCommand.generateGzip(dir.resolve("api.xml.gz"), 300, 42, 0.1)).exists();

        for (Path compressed : java.util.List.of(gz, dir.resolve("api.xml.gz"))) {
            try (InputStream in = new java.util.zip.GZIPInputStream(Files.newInputStream(compressed))) {
                assertThat(in.readAllBytes()).isEqualTo(Files.readAllBytes(plain));
            }
        }
        assertThat(Files.size(gz)).isLessThan(Files.size(plain) / 3);
        assertThat(dir.resolve("persons-300.xml.gz.part")).doesNotExist();
    }

    @Test
    void zipWritesTheSameRecordsAsTheOneFileOfAnArchive() throws Exception {
        Path plain = DatagenCommand.generate(dir.resolve("plain.xml"), 300, 42, 0.1);
        Path zip = dir.resolve("persons-300.xml.zip");
        assertThat(run("--records", "300", "--invalid-rate", "0.1", "--zip", "--out", zip.toString())).isZero();

        try (java.util.zip.ZipFile archive = new java.util.zip.ZipFile(zip.toFile())) {
            assertThat(archive.stream().map(java.util.zip.ZipEntry::getName)).containsExactly("persons-300.xml");
            try (InputStream in = archive.getInputStream(archive.getEntry("persons-300.xml"))) {
                assertThat(in.readAllBytes()).isEqualTo(Files.readAllBytes(plain));
            }
        }
        assertThat(dir.resolve("persons-300.xml.zip.part")).doesNotExist();
        Path named = dir.resolve("export.zip");
        assertThat(run("--records", "3", "--zip", "--out", named.toString())).isZero();
        try (java.util.zip.ZipFile archive = new java.util.zip.ZipFile(named.toFile())) {
            assertThat(archive.stream().map(java.util.zip.ZipEntry::getName)).containsExactly("export.xml");
        }
        assertThat(run("--records", "3", "--zip", "--gzip")).isEqualTo(2);
        assertThat(err.toString()).contains("--gzip and --zip: choose one");
    }

    @Test
    void aDirectoryOrAMissingOneIsRefused() {
        assertThat(run("--records", "2", "--out", dir.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--out " + dir + " is a directory").doesNotContain("\tat ");
        Path missing = dir.resolve("no").resolve("x.xml");
        assertThat(run("--records", "2", "--out", missing.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--out " + missing + ": " + missing.getParent() + " does not exist");
    }

    /** The README and --help promise the same bytes for the same seed: a zip entry's time was the clock's. */
    @Test
    void aZipArchiveIsTheSameBytesForTheSameSeed() throws Exception {
        Path a = dir.resolve("a.xml.zip");
        assertThat(run("--records", "50", "--zip", "--out", a.toString())).isZero();
        Files.setLastModifiedTime(a, java.nio.file.attribute.FileTime.fromMillis(0));
        Path b = dir.resolve("b.xml.zip");
        assertThat(run("--records", "50", "--zip", "--out", b.toString())).isZero();
        // Named alike inside, as each takes its entry's name from its own.
        assertThat(Files.mismatch(a, b)).isPositive();
        Path again = dir.resolve("again").resolve("a.xml.zip");
        Files.createDirectories(again.getParent());
        Thread.sleep(2100); // a zip time has two-second steps
        assertThat(run("--records", "50", "--zip", "--out", again.toString())).isZero();
        assertThat(Files.mismatch(a, again)).isEqualTo(-1L);
    }

    /**
     * A write that fails mid-way (the file size limit of the shell that runs it stands for a full disk) deletes
     * its FILE.part: it was left behind, up to gigabytes, and still says what it could not write and why.
     */
    @Test
    void aWriteThatFailsMidWayLeavesNoPart() throws Exception {
        String javaCommand = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        for (String packing : java.util.List.of("", "--gzip", "--zip")) {
            Path out = dir.resolve("full" + packing + ".xml");
            // 16 blocks of 512 bytes, far less than a million records even compressed; no perf data file, which is larger.
            java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of("sh", "-c",
                    "ulimit -f 16 && exec \"$0\" \"$@\"", javaCommand, "-XX:-UsePerfData", "-cp",
                    System.getProperty("java.class.path"), DatagenCommand.class.getName(),
                    "--records", "1000000", "--no-progress", "--out", out.toString()));
            if (!packing.isEmpty()) {
                command.add(packing);
            }
            Process p = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("datagen.log").toFile()).start();
            assertThat(p.waitFor(2, TimeUnit.MINUTES)).as("datagen ended").isTrue();
            String log = Files.readString(dir.resolve("datagen.log"));
            assertThat(p.exitValue()).as(log).isEqualTo(1);
            assertThat(log).contains("error: cannot write " + out + " (written first as " + out.getFileName()
                    + ".part): File too large").doesNotContain("\tat ");
            assertThat(dir.resolve(out.getFileName() + ".part")).as(packing).doesNotExist();
            assertThat(out).doesNotExist();
        }
    }

    /** A run stopped with SIGTERM (as Ctrl-C stops it too) deletes its FILE.part on the way out. */
    @Test
    void aStoppedRunLeavesNoPart() throws Exception {
        String javaCommand = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path out = dir.resolve("stopped.xml");
        Path part = dir.resolve("stopped.xml.part");
        Process p = new ProcessBuilder(javaCommand, "-cp", System.getProperty("java.class.path"),
                DatagenCommand.class.getName(), "--records", "50000000", "--no-progress", "--out", out.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("stopped.log").toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (!(Files.exists(part) && Files.size(part) > 1_000_000) && p.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(part).as("datagen is writing " + part).exists();
        } finally {
            p.destroy();
        }
        assertThat(p.waitFor(1, TimeUnit.MINUTES)).as("datagen stopped").isTrue();
        assertThat(part).doesNotExist();
        assertThat(out).doesNotExist();
    }

    /** A write that fails names what was being written, not only Java's reason. */
    @Test
    void aFailedWriteNamesTheOutput() throws Exception {
        Path blocked = dir.resolve("e.xml");
        Files.createDirectory(dir.resolve("e.xml.part"));
        assertThat(run("--records", "5", "--out", blocked.toString())).isEqualTo(1);
        assertThat(err.toString()).contains("error: cannot write " + blocked + " (written first as e.xml.part): ")
                .doesNotContain("\tat ");
        Path full = Path.of("/dev/full");
        if (Files.exists(full)) {
            assertThat(run("--records", "5000", "--out", full.toString())).isEqualTo(1);
            assertThat(err.toString()).contains("error: cannot write /dev/full: No space left on device");
        }
    }
}
