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

        long bytes = GzipInput.inflate(gz, "items.xml.gz", copy, 1L << 20, () -> false);

        assertThat(copy.getFileName().toString()).isEqualTo(".items.xml.gz.0123456789abcdef.inflated");
        assertThat(Files.readAllBytes(copy)).isEqualTo(concat(first, second));
        assertThat(bytes).isEqualTo(first.length + second.length);
        assertThat(listing()).containsExactlyInAnyOrder("items.xml.gz", copy.getFileName().toString());
    }

    @Test
    void inflatedBesideItsCopyIsNamedForTheContentsHashWhichIsReturned() throws Exception {
        byte[] plain = xml(1000);
        Path gz = Files.write(dir.resolve("items.xml.gz"), concat(gzip(Arrays.copyOf(plain, 100)),
                gzip(Arrays.copyOfRange(plain, 100, plain.length))));
        String expected = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(plain));

        String fileId = GzipInput.inflateBeside(gz, "items.xml.gz", 1L << 20, () -> false,
                java.security.MessageDigest.getInstance("SHA-256"));

        assertThat(fileId).isEqualTo(expected);
        assertThat(Files.readAllBytes(GzipInput.copyBeside(gz, fileId))).isEqualTo(plain);
        assertThat(listing()).containsExactlyInAnyOrder("items.xml.gz", GzipInput.copyBeside(gz, fileId).getFileName().toString());
        Files.delete(GzipInput.copyBeside(gz, fileId));
        assertThat(GzipInput.inflateBeside(gz, "items.xml.gz", 1L << 20, () -> true,
                java.security.MessageDigest.getInstance("SHA-256"))).isNull();
        assertThat(listing()).containsExactly("items.xml.gz");
    }

    @Test
    void aFileCutShortFailsNamingWhereAndLeavesNoCopy() throws Exception {
        byte[] whole = gzip(xml(5000));
        Path gz = Files.write(dir.resolve("cut.xml.gz"), Arrays.copyOf(whole, whole.length / 2));
        Path copy = GzipInput.copyBeside(gz, "feedfacefeedface");

        assertThatThrownBy(() -> GzipInput.inflate(gz, "cut.xml.gz", copy, 1L << 30, () -> false))
                .isInstanceOf(FileFailedException.class)
                .hasMessageStartingWith("not a whole gzip file: it ends inside member 1's compressed data (at compressed "
                        + "byte " + whole.length / 2 + " of " + whole.length / 2 + ", after ")
                .hasMessageEndingWith(" inflated bytes) [file cut.xml.gz]");
        assertThat(listing()).containsExactly("cut.xml.gz");
    }

    @Test
    void aDamagedFileFailsWithZlibsReason() throws Exception {
        byte[] whole = gzip(xml(200));
        whole[whole.length - 6] ^= 0x55; // inside the trailer's CRC
        Path gz = Files.write(dir.resolve("damaged.xml.gz"), whole);

        assertThatThrownBy(() -> GzipInput.inflate(gz, "damaged.xml.gz", GzipInput.copyBeside(gz, "ab"), 1L << 30, () -> false))
                .isInstanceOf(FileFailedException.class)
                .hasMessage("not a whole gzip file: member 1 is corrupt: its CRC does not match its data (at compressed "
                        + "byte " + whole.length + " of " + whole.length + ", after " + xml(200).length
                        + " inflated bytes) [file damaged.xml.gz]");
        assertThat(listing()).containsExactly("damaged.xml.gz");
    }

    @Test
    void aFileInflatingBeyondTheLimitFailsNamingTheSettingBeforeItFillsTheDisk() throws Exception {
        // 4 MiB of one byte repeated inflates from about 4 KiB: the shape of a decompression bomb.
        Path gz = Files.write(dir.resolve("bomb.xml.gz"), gzip(new byte[4 << 20]));

        assertThatThrownBy(() -> GzipInput.inflate(gz, "bomb.xml.gz", GzipInput.copyBeside(gz, "cd"), 1L << 20, () -> false))
                .isInstanceOf(FileFailedException.class)
                .hasMessageStartingWith("the gzip-compressed file inflates to more than 1048576 bytes (stopped at "
                        + "compressed byte ")
                .hasMessageEndingWith("[file bomb.xml.gz] (setting: file.gzip.max.bytes)");
        assertThat(listing()).containsExactly("bomb.xml.gz");
    }

    @Test
    void whatFollowsAMemberMustBeAnotherMemberOrNothing() throws Exception {
        // The JDK's GZIPInputStream ends the stream at such bytes without a word: the rest of the file would be lost.
        byte[] first = gzip(xml(100));
        for (byte[] after : java.util.List.of("junk after the member".getBytes(StandardCharsets.UTF_8),
                Arrays.copyOf(gzip(xml(100)), 5))) {
            Path gz = Files.write(dir.resolve("tail.xml.gz"), concat(first, after));
            assertThatThrownBy(() -> GzipInput.inflate(gz, "tail.xml.gz", GzipInput.copyBeside(gz, "ef"), 1L << 30,
                    () -> false))
                    .isInstanceOf(FileFailedException.class)
                    .hasMessageStartingWith("not a whole gzip file: " + (after.length == 5
                            ? "it ends inside member 2's header (at compressed byte " + (first.length + 5)
                            : "what follows member 1 is not another gzip member (at compressed byte " + first.length));
            assertThat(listing()).containsExactly("tail.xml.gz");
            Files.delete(gz);
        }
    }

    @Test
    void aHeaderWithNameCommentExtraFieldAndHeaderCrcIsRead() throws Exception {
        // As gzip(1) writes a name, and other tools the rest: each optional header field is skipped.
        byte[] plain = xml(50);
        ByteArrayOutputStream member = new ByteArrayOutputStream();
        member.write(new byte[] {0x1f, (byte) 0x8b, 8, 2 | 4 | 8 | 16, 0, 0, 0, 0, 0, 3});
        member.write(new byte[] {3, 0, 'a', 'b', 'c'});
        member.write("items.xml\0".getBytes(StandardCharsets.ISO_8859_1));
        member.write("a comment\0".getBytes(StandardCharsets.ISO_8859_1));
        java.util.zip.CRC32 headerCrc = new java.util.zip.CRC32();
        headerCrc.update(member.toByteArray());
        int fhcrc = (int) headerCrc.getValue();
        member.write(new byte[] {(byte) fhcrc, (byte) (fhcrc >>> 8)});
        java.util.zip.Deflater deflater = new java.util.zip.Deflater(6, true);
        deflater.setInput(plain);
        deflater.finish();
        byte[] chunk = new byte[8192];
        while (!deflater.finished()) {
            member.write(chunk, 0, deflater.deflate(chunk));
        }
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(plain);
        member.write(littleEndian((int) crc.getValue()));
        member.write(littleEndian(plain.length));
        Path gz = Files.write(dir.resolve("named.xml.gz"), concat(member.toByteArray(), gzip(plain)));
        Path copy = GzipInput.copyBeside(gz, "12");

        assertThat(GzipInput.inflate(gz, "named.xml.gz", copy, 1L << 20, () -> false)).isEqualTo(2L * plain.length);
        assertThat(Files.readAllBytes(copy)).isEqualTo(concat(plain, plain));

        // As gzip -d does: a header CRC that does not match, and flags RFC 1952 reserves, fail the file.
        byte[] wrongCrc = member.toByteArray();
        int at = 10 + 5 + "items.xml\0".length() + "a comment\0".length();
        wrongCrc[at] ^= 1;
        Files.write(gz, wrongCrc);
        assertThatThrownBy(() -> GzipInput.inflate(gz, "named.xml.gz", copy, 1L << 20, () -> false))
                .hasMessageStartingWith("not a whole gzip file: member 1 is corrupt: its header CRC does not match its header");
        byte[] reserved = gzip(plain);
        reserved[3] = 0x20;
        Files.write(gz, reserved);
        assertThatThrownBy(() -> GzipInput.inflate(gz, "named.xml.gz", copy, 1L << 20, () -> false))
                .hasMessageStartingWith("not a whole gzip file: member 1 has reserved header flags set (0x20)");
    }

    @Test
    void zerosPaddingTheLastMemberToABlockEndAreTakenAsGzipTakesThem() throws Exception {
        byte[] plain = xml(100);
        Path gz = Files.write(dir.resolve("padded.xml.gz"), concat(gzip(plain), new byte[512]));
        Path copy = GzipInput.copyBeside(gz, "56");

        assertThat(GzipInput.inflate(gz, "padded.xml.gz", copy, 1L << 20, () -> false)).isEqualTo(plain.length);
        assertThat(Files.readAllBytes(copy)).isEqualTo(plain);
        if (copy.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            // The input's content, for its owner only, as a temporary file is.
            assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(copy)))
                    .isEqualTo("rw-------");
        }
        byte[] notOnlyZeros = concat(gzip(plain), new byte[] {0, 0, 7});
        Files.write(gz, notOnlyZeros);
        assertThatThrownBy(() -> GzipInput.inflate(gz, "padded.xml.gz", copy, 1L << 20, () -> false))
                .hasMessageStartingWith("not a whole gzip file: what follows member 1 is not another gzip member");
    }

    @Test
    void damagedDataIsPlacedWhereTheInflaterFoundItNotAtTheEndOfWhatItWasGiven() throws Exception {
        byte[] whole = gzip(xml(20_000));
        assertThat(whole.length).as("more than the 64 KiB the inflater is given at once").isGreaterThan(1 << 16);
        whole[12] = (byte) 0xff;
        whole[13] = (byte) 0xff;
        Path gz = Files.write(dir.resolve("early.xml.gz"), whole);

        assertThatThrownBy(() -> GzipInput.inflate(gz, "early.xml.gz", GzipInput.copyBeside(gz, "78"), 1L << 30,
                () -> false))
                .hasMessageStartingWith("not a whole gzip file: member 1 is damaged: ")
                .hasMessageMatching("(?s).*\\(at compressed byte [1-9][0-9]? of " + whole.length + ", after 0 inflated bytes\\).*");
    }

    @Test
    void aStopRequestEndsTheInflationAndLeavesNothing() throws Exception {
        Path gz = Files.write(dir.resolve("long.xml.gz"), gzip(xml(20_000)));
        java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();

        long bytes = GzipInput.inflate(gz, "long.xml.gz", GzipInput.copyBeside(gz, "34"), 1L << 30,
                () -> asked.incrementAndGet() == 3);

        assertThat(bytes).isEqualTo(-1);
        assertThat(asked).hasValue(3);
        assertThat(listing()).containsExactly("long.xml.gz");
    }

    @Test
    void copiesOfAnyContentAndTheirPartsAreDeletedWithTheFileNoneOfAnotherFile() throws Exception {
        Path gz = Files.write(dir.resolve("a.xml.gz"), gzip(xml(3)));
        Files.writeString(GzipInput.copyBeside(gz, "1111111111111111"), "old content's copy");
        Files.writeString(dir.resolve(GzipInput.copyBeside(gz, "2222222222222222").getFileName() + ".part"), "a part");
        Path other = GzipInput.copyBeside(dir.resolve("b.xml.gz"), "3333333333333333");
        Files.writeString(other, "another file's copy");
        Files.writeString(dir.resolve(".a.xml.gz.identity"), "{}");

        GzipInput.deleteCopies(gz);

        assertThat(listing()).containsExactlyInAnyOrder("a.xml.gz", ".a.xml.gz.identity", other.getFileName().toString());
    }

    @Test
    void aLongNameIsCutInTheCopysName() {
        String name = "x".repeat(240) + ".xml.gz";
        assertThat(GzipInput.copyBeside(dir.resolve(name), "a".repeat(64)).getFileName().toString())
                .isEqualTo("." + "x".repeat(100) + "." + "a".repeat(16) + ".inflated");
    }

    private static byte[] littleEndian(int v) {
        return new byte[] {(byte) v, (byte) (v >>> 8), (byte) (v >>> 16), (byte) (v >>> 24)};
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
