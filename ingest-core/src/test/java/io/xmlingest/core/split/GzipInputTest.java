package io.xmlingest.core.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.core.error.FileFailedException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GzipInputTest {

    @TempDir
    Path dir;

    static byte[] gzip(byte[] plain) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(plain);
        }
        return out.toByteArray();
    }

    private static byte[] xml(int records) {
        StringBuilder s = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<items>\n");
        for (int i = 0; i < records; i++) {
            s.append("<item id=\"").append(i).append("\">caf\u00e9 ").append(i).append("</item>\n");
        }
        return s.append("</items>\n").toString().getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void isToldByItsFirstTwoBytesNotItsName() throws Exception {
        Path compressed = Files.write(dir.resolve("plain-looking.xml"), gzip(xml(3)));
        Path plain = Files.write(dir.resolve("looks-compressed.xml.gz"), xml(3));
        Path empty = Files.write(dir.resolve("empty"), new byte[0]);

        assertThat(GzipInput.isGzip(compressed, "plain-looking.xml")).isTrue();
        assertThat(GzipInput.isGzip(plain, "looks-compressed.xml.gz")).isFalse();
        assertThat(GzipInput.isGzip(empty, "empty")).isFalse();
        assertThatThrownBy(() -> GzipInput.isGzip(dir.resolve("gone.gz"), "gone.gz"))
                .isInstanceOf(FileFailedException.class).hasMessageContaining("gone.gz");
    }

    @Test
    void inflatesEveryMemberIntoAWholeCopyAndLeavesNoPartFile() throws Exception {
        byte[] first = xml(1000);
        byte[] second = "<!-- a second member, as pigz or cat a.gz b.gz write -->\n".getBytes(StandardCharsets.UTF_8);
        byte[] both = concat(gzip(first), gzip(second));
        Path gz = Files.write(dir.resolve("items.xml.gz"), both);
        Path copy = GzipInput.copyBeside(gz, "0123456789abcdef0123");

        long bytes = GzipInput.inflate(gz, "items.xml.gz", copy, 1L << 20);

        assertThat(copy.getFileName().toString()).isEqualTo(".items.xml.gz.0123456789abcdef.inflated");
        assertThat(Files.readAllBytes(copy)).isEqualTo(concat(first, second));
        assertThat(bytes).isEqualTo(first.length + second.length);
        assertThat(listing()).containsExactlyInAnyOrder("items.xml.gz", copy.getFileName().toString());
    }

    @Test
    void aFileCutShortFailsNamingWhereAndLeavesNoCopy() throws Exception {
        byte[] whole = gzip(xml(5000));
        Path gz = Files.write(dir.resolve("cut.xml.gz"), Arrays.copyOf(whole, whole.length / 2));
        Path copy = GzipInput.copyBeside(gz, "feedfacefeedface");

        assertThatThrownBy(() -> GzipInput.inflate(gz, "cut.xml.gz", copy, 1L << 30))
                .isInstanceOf(FileFailedException.class)
                .hasMessageStartingWith("not a whole gzip file: it ends inside a compressed block (at compressed byte "
                        + whole.length / 2 + ", after ")
                .hasMessageEndingWith(" inflated bytes) [file cut.xml.gz]");
        assertThat(listing()).containsExactly("cut.xml.gz");
    }

    @Test
    void aDamagedFileFailsWithZlibsReason() throws Exception {
        byte[] whole = gzip(xml(200));
        whole[whole.length - 6] ^= 0x55; // inside the trailer's CRC
        Path gz = Files.write(dir.resolve("damaged.xml.gz"), whole);

        assertThatThrownBy(() -> GzipInput.inflate(gz, "damaged.xml.gz", GzipInput.copyBeside(gz, "ab"), 1L << 30))
                .isInstanceOf(FileFailedException.class)
                .hasMessageStartingWith("not a whole gzip file: Corrupt GZIP trailer (at compressed byte ")
                .hasMessageEndingWith("[file damaged.xml.gz]");
        assertThat(listing()).containsExactly("damaged.xml.gz");
    }

    @Test
    void aFileInflatingBeyondTheLimitFailsNamingTheSettingBeforeItFillsTheDisk() throws Exception {
        // 4 MiB of one byte repeated inflates from about 4 KiB: the shape of a decompression bomb.
        Path gz = Files.write(dir.resolve("bomb.xml.gz"), gzip(new byte[4 << 20]));

        assertThatThrownBy(() -> GzipInput.inflate(gz, "bomb.xml.gz", GzipInput.copyBeside(gz, "cd"), 1L << 20))
                .isInstanceOf(FileFailedException.class)
                .hasMessageStartingWith("the gzip-compressed file inflates to more than 1048576 bytes (stopped at "
                        + "compressed byte ")
                .hasMessageEndingWith("[file bomb.xml.gz] (setting: file.gzip.max.bytes)");
        assertThat(listing()).containsExactly("bomb.xml.gz");
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    private java.util.List<String> listing() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).toList();
        }
    }
}
