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

class CompressedInputTest {

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

        assertThat(CompressedInput.isCompressed(compressed, "plain-looking.xml")).isTrue();
        assertThat(CompressedInput.isCompressed(plain, "looks-compressed.xml.gz")).isFalse();
        assertThat(CompressedInput.isCompressed(empty, "empty")).isFalse();
        assertThatThrownBy(() -> CompressedInput.isCompressed(dir.resolve("gone.gz"), "gone.gz"))
                .isInstanceOf(FileFailedException.class).hasMessageContaining("gone.gz");
    }

    @Test
    void anotherCompressionIsNamedNotReadAsXml() throws Exception {
        // The marks bzip2, xz, zstd and 7z files begin with: read as XML, each failed at byte 0 with a parse error.
        byte[][] heads = {{'B', 'Z', 'h', '9', '1', 'A'}, {(byte) 0xfd, '7', 'z', 'X', 'Z', 0},
                {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, 0, 0}, {'7', 'z', (byte) 0xbc, (byte) 0xaf, 0x27, 0x1c}};
        String[] names = {"bzip2", "xz", "zstd", "7z"};
        for (int i = 0; i < heads.length; i++) {
            Path file = Files.write(dir.resolve("export-" + i + ".xml"), concat(heads[i], new byte[100]));
            assertThatThrownBy(() -> CompressedInput.isCompressed(file, file.getFileName().toString()))
                    .isInstanceOf(FileFailedException.class)
                    .hasMessageContaining("the file is " + names[i] + "-compressed, which is not read: only gzip and zip "
                            + "are").hasMessageContaining(file.getFileName().toString());
        }
    }

    @Test
    void inflatesEveryMemberIntoAWholeCopyAndLeavesNoPartFile() throws Exception {
        byte[] first = xml(1000);
        byte[] second = "<!-- a second member, as pigz or cat a.gz b.gz write -->\n".getBytes(StandardCharsets.UTF_8);
        byte[] both = concat(gzip(first), gzip(second));
        Path gz = Files.write(dir.resolve("items.xml.gz"), both);
        Path copy = CompressedInput.copyBeside(gz, "0123456789abcdef0123");

        long bytes = CompressedInput.inflate(gz, "items.xml.gz", copy, 1L << 20, () -> false);

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

        String fileId = CompressedInput.inflateBeside(gz, "items.xml.gz", 1L << 20, () -> false,
                java.security.MessageDigest.getInstance("SHA-256"));

        assertThat(fileId).isEqualTo(expected);
        assertThat(Files.readAllBytes(CompressedInput.copyBeside(gz, fileId))).isEqualTo(plain);
        assertThat(listing()).containsExactlyInAnyOrder("items.xml.gz", CompressedInput.copyBeside(gz, fileId).getFileName().toString());
        Files.delete(CompressedInput.copyBeside(gz, fileId));
        assertThat(CompressedInput.inflateBeside(gz, "items.xml.gz", 1L << 20, () -> true,
                java.security.MessageDigest.getInstance("SHA-256"))).isNull();
        assertThat(listing()).containsExactly("items.xml.gz");
    }

    @Test
    void aFileCutShortFailsNamingWhereAndLeavesNoCopy() throws Exception {
        byte[] whole = gzip(xml(5000));
        Path gz = Files.write(dir.resolve("cut.xml.gz"), Arrays.copyOf(whole, whole.length / 2));
        Path copy = CompressedInput.copyBeside(gz, "feedfacefeedface");

        assertThatThrownBy(() -> CompressedInput.inflate(gz, "cut.xml.gz", copy, 1L << 30, () -> false))
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

        assertThatThrownBy(() -> CompressedInput.inflate(gz, "damaged.xml.gz", CompressedInput.copyBeside(gz, "ab"), 1L << 30, () -> false))
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

        assertThatThrownBy(() -> CompressedInput.inflate(gz, "bomb.xml.gz", CompressedInput.copyBeside(gz, "cd"), 1L << 20, () -> false))
                .isInstanceOf(FileFailedException.class)
                .hasMessageStartingWith("the gzip-compressed file inflates to more than 1048576 bytes (stopped at "
                        + "compressed byte ")
                .hasMessageEndingWith("[file bomb.xml.gz] (setting: file.decompressed.max.bytes)");
        assertThat(listing()).containsExactly("bomb.xml.gz");
    }

    @Test
    void whatFollowsAMemberMustBeAnotherMemberOrNothing() throws Exception {
        // The JDK's GZIPInputStream ends the stream at such bytes without a word: the rest of the file would be lost.
        byte[] first = gzip(xml(100));
        for (byte[] after : java.util.List.of("junk after the member".getBytes(StandardCharsets.UTF_8),
                Arrays.copyOf(gzip(xml(100)), 5))) {
            Path gz = Files.write(dir.resolve("tail.xml.gz"), concat(first, after));
            assertThatThrownBy(() -> CompressedInput.inflate(gz, "tail.xml.gz", CompressedInput.copyBeside(gz, "ef"), 1L << 30,
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
        Path copy = CompressedInput.copyBeside(gz, "12");

        assertThat(CompressedInput.inflate(gz, "named.xml.gz", copy, 1L << 20, () -> false)).isEqualTo(2L * plain.length);
        assertThat(Files.readAllBytes(copy)).isEqualTo(concat(plain, plain));

        // As gzip -d does: a header CRC that does not match, and flags RFC 1952 reserves, fail the file.
        byte[] wrongCrc = member.toByteArray();
        int at = 10 + 5 + "items.xml\0".length() + "a comment\0".length();
        wrongCrc[at] ^= 1;
        Files.write(gz, wrongCrc);
        assertThatThrownBy(() -> CompressedInput.inflate(gz, "named.xml.gz", copy, 1L << 20, () -> false))
                .hasMessageStartingWith("not a whole gzip file: member 1 is corrupt: its header CRC does not match its header");
        byte[] reserved = gzip(plain);
        reserved[3] = 0x20;
        Files.write(gz, reserved);
        assertThatThrownBy(() -> CompressedInput.inflate(gz, "named.xml.gz", copy, 1L << 20, () -> false))
                .hasMessageStartingWith("not a whole gzip file: member 1 has reserved header flags set (0x20)");
    }

    @Test
    void zerosPaddingTheLastMemberToABlockEndAreTakenAsGzipTakesThem() throws Exception {
        byte[] plain = xml(100);
        Path gz = Files.write(dir.resolve("padded.xml.gz"), concat(gzip(plain), new byte[512]));
        Path copy = CompressedInput.copyBeside(gz, "56");

        assertThat(CompressedInput.inflate(gz, "padded.xml.gz", copy, 1L << 20, () -> false)).isEqualTo(plain.length);
        assertThat(Files.readAllBytes(copy)).isEqualTo(plain);
        if (copy.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            // The input's content, for its owner only, as a temporary file is.
            assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(copy)))
                    .isEqualTo("rw-------");
        }
        byte[] notOnlyZeros = concat(gzip(plain), new byte[] {0, 0, 7});
        Files.write(gz, notOnlyZeros);
        assertThatThrownBy(() -> CompressedInput.inflate(gz, "padded.xml.gz", copy, 1L << 20, () -> false))
                .hasMessageStartingWith("not a whole gzip file: what follows member 1 is not another gzip member");
    }

    @Test
    void damagedDataIsPlacedWhereTheInflaterFoundItNotAtTheEndOfWhatItWasGiven() throws Exception {
        byte[] whole = gzip(xml(20_000));
        assertThat(whole.length).as("more than the 64 KiB the inflater is given at once").isGreaterThan(1 << 16);
        whole[12] = (byte) 0xff;
        whole[13] = (byte) 0xff;
        Path gz = Files.write(dir.resolve("early.xml.gz"), whole);

        assertThatThrownBy(() -> CompressedInput.inflate(gz, "early.xml.gz", CompressedInput.copyBeside(gz, "78"), 1L << 30,
                () -> false))
                .hasMessageStartingWith("not a whole gzip file: member 1 is damaged: ")
                .hasMessageMatching("(?s).*\\(at compressed byte [1-9][0-9]? of " + whole.length + ", after 0 inflated bytes\\).*");
    }

    @Test
    void aStopRequestEndsTheInflationAndLeavesNothing() throws Exception {
        Path gz = Files.write(dir.resolve("long.xml.gz"), gzip(xml(20_000)));
        java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();

        long bytes = CompressedInput.inflate(gz, "long.xml.gz", CompressedInput.copyBeside(gz, "34"), 1L << 30,
                () -> asked.incrementAndGet() == 3);

        assertThat(bytes).isEqualTo(-1);
        assertThat(asked).hasValue(3);
        assertThat(listing()).containsExactly("long.xml.gz");
    }

    @Test
    void copiesOfAnyContentAndTheirPartsAreDeletedWithTheFileNoneOfAnotherFile() throws Exception {
        Path gz = Files.write(dir.resolve("a.xml.gz"), gzip(xml(3)));
        Files.writeString(CompressedInput.copyBeside(gz, "1111111111111111"), "old content's copy");
        Files.writeString(dir.resolve(CompressedInput.copyBeside(gz, "2222222222222222").getFileName() + ".part"), "a part");
        Path other = CompressedInput.copyBeside(dir.resolve("b.xml.gz"), "3333333333333333");
        Files.writeString(other, "another file's copy");
        Files.writeString(dir.resolve(".a.xml.gz.identity"), "{}");

        CompressedInput.deleteCopies(gz);

        assertThat(listing()).containsExactlyInAnyOrder("a.xml.gz", ".a.xml.gz.identity", other.getFileName().toString());
    }

    @Test
    void aLongNameIsCutInTheCopysNameByBytesAndOnACharacterBoundary() throws Exception {
        String name = "x".repeat(240) + ".xml.gz";
        assertThat(CompressedInput.copyBeside(dir.resolve(name), "a".repeat(64)).getFileName().toString())
                .isEqualTo("." + FileNames.fit(name, "", 100) + "." + "a".repeat(16) + ".inflated")
                .startsWith("." + "x".repeat(87) + "~");
        // An emoji at the 100th character (two UTF-16 units, cut in half it was no name and stopped the worker), and
        // 84 Chinese characters (252 bytes: a cut at 100 characters was 300 bytes, too long for the copy's name).
        for (String n : new String[] {"a".repeat(99) + "\uD83D\uDE00.gz", "\u5b57".repeat(84) + ".gz"}) {
            Path gz = Files.write(dir.resolve(n), gzip(xml(3)));
            String fileId = CompressedInput.inflateBeside(gz, n, 1L << 20, () -> false,
                    java.security.MessageDigest.getInstance("SHA-256"));
            assertThat(Files.readAllBytes(CompressedInput.copyBeside(gz, fileId))).isEqualTo(xml(3));
            CompressedInput.deleteCopies(gz);
        }
        assertThat(listing()).hasSize(2);
    }

    /** A zip archive of {@code entries}, name then content, each deflated unless its name ends in ".stored". */
    static byte[] zip(Object... entries) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (java.util.zip.ZipOutputStream zip = new java.util.zip.ZipOutputStream(out)) {
            for (int i = 0; i < entries.length; i += 2) {
                String name = (String) entries[i];
                byte[] content = (byte[]) entries[i + 1];
                java.util.zip.ZipEntry entry = new java.util.zip.ZipEntry(name);
                if (name.endsWith(".stored")) {
                    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
                    crc.update(content);
                    entry.setMethod(java.util.zip.ZipEntry.STORED);
                    entry.setSize(content.length);
                    entry.setCrc(crc.getValue());
                }
                zip.putNextEntry(entry);
                zip.write(content);
                zip.closeEntry();
            }
        }
        return out.toByteArray();
    }

    @Test
    void aZipArchiveIsToldByItsFirstBytesAsAnEmptyOneIs() throws Exception {
        Path archive = Files.write(dir.resolve("export.xml"), zip("export.xml", xml(3)));
        Path empty = Files.write(dir.resolve("empty.zip"), zip());
        Path plain = Files.write(dir.resolve("plain.zip"), xml(3));

        assertThat(CompressedInput.format(archive, "export.xml")).contains(CompressedInput.Format.ZIP);
        assertThat(CompressedInput.format(empty, "empty.zip")).contains(CompressedInput.Format.ZIP);
        assertThat(CompressedInput.format(plain, "plain.zip")).isEmpty();
        assertThat(CompressedInput.format(Files.write(dir.resolve("a.gz"), gzip(xml(1))), "a.gz"))
                .contains(CompressedInput.Format.GZIP);
    }

    @Test
    void theOneFileOfAZipArchiveIsItsContentBesideDirectoriesAndWhatSystemsAdd() throws Exception {
        byte[] plain = xml(2000);
        // As macOS's Finder zips a folder: the folder, its file, .DS_Store, resource forks under __MACOSX/; and
        // what Windows leaves, with a folder named as old Windows tools write it.
        Path archive = Files.write(dir.resolve("export.zip"), zip("export/", new byte[0], "export/.DS_Store", new byte[9],
                "export/persons.xml", plain, "__MACOSX/", new byte[0], "__MACOSX/export/._persons.xml",
                new byte[] {0, 5, 22, 7}, "export\\old\\", new byte[0], "export/Thumbs.db", new byte[3],
                "desktop.ini", new byte[2]));
        String expected = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(plain));

        String fileId = CompressedInput.inflateBeside(archive, "export.zip", 1L << 20, () -> false,
                java.security.MessageDigest.getInstance("SHA-256"));

        assertThat(fileId).isEqualTo(expected);
        assertThat(Files.readAllBytes(CompressedInput.copyBeside(archive, fileId))).isEqualTo(plain);
        assertThat(listing()).containsExactlyInAnyOrder("export.zip",
                CompressedInput.copyBeside(archive, fileId).getFileName().toString());

        Path stored = Files.write(dir.resolve("stored.zip"), zip("persons.xml.stored", plain));
        Path copy = CompressedInput.copyBeside(stored, "ab");
        assertThat(CompressedInput.inflate(stored, "stored.zip", copy, 1L << 20, () -> false)).isEqualTo(plain.length);
        assertThat(Files.readAllBytes(copy)).isEqualTo(plain);
    }

    @Test
    void aNameWrittenInTheZipFormatsOwnCodePageIsReadNotRefused() throws Exception {
        byte[] plain = xml(10);
        // As Windows' zip tool writes "M\u00fcller.xml": in IBM437 (\u00fc is byte 0x81), not flagged as UTF-8.
        ByteArrayOutputStream archive = new ByteArrayOutputStream();
        try (java.util.zip.ZipOutputStream zip = new java.util.zip.ZipOutputStream(archive,
                java.nio.charset.Charset.forName("IBM437"))) {
            zip.putNextEntry(new java.util.zip.ZipEntry("M\u00fcller.xml"));
            zip.write(plain);
        }
        assertThat(indexOf(archive.toByteArray(), new byte[] {'M', (byte) 0x81, 'l'})).isPositive();
        Path windows = Files.write(dir.resolve("windows.zip"), archive.toByteArray());
        Path copy = CompressedInput.copyBeside(windows, "ab");

        assertThat(CompressedInput.inflate(windows, "windows.zip", copy, 1L << 20, () -> false)).isEqualTo(plain.length);
        assertThat(Files.readAllBytes(copy)).isEqualTo(plain);
        Path two = Files.write(dir.resolve("two.zip"), zip("M\u00fcller.xml", plain, "b.xml", plain));
        assertThatThrownBy(() -> CompressedInput.inflate(two, "two.zip", copy, 1L << 20, () -> false))
                .hasMessageContaining("it holds 2 files (M\u00fcller.xml, b.xml)");
    }

    @Test
    void aZipArchiveOfSeveralFilesOrNoneFailsNamingThem() throws Exception {
        Path several = Files.write(dir.resolve("several.zip"), zip("a.xml", xml(1), "b.xml", xml(2), "c.xml", xml(3),
                "d.xml", xml(4)));
        Path none = Files.write(dir.resolve("none.zip"), zip("only-a-folder/", new byte[0], "only-a-folder/.DS_Store",
                new byte[1]));

        assertThatThrownBy(() -> CompressedInput.inflate(several, "several.zip", CompressedInput.copyBeside(several, "ab"),
                1L << 20, () -> false))
                .isInstanceOf(FileFailedException.class)
                .hasMessage("not a readable zip archive: it holds 4 files (a.xml, b.xml, c.xml, ...), and an archive of one "
                        + "file is read: extract them and drop each file [file several.zip]");
        assertThatThrownBy(() -> CompressedInput.inflate(none, "none.zip", CompressedInput.copyBeside(none, "ab"),
                1L << 20, () -> false))
                .hasMessage("not a readable zip archive: it holds no file (only what operating systems add beside files, "
                        + "such as only-a-folder/.DS_Store) [file none.zip]");
        assertThat(listing()).containsExactlyInAnyOrder("several.zip", "none.zip");
    }

    @Test
    void aZipArchiveCutShortOrDamagedFailsAndLeavesNoCopy() throws Exception {
        byte[] whole = zip("persons.xml.stored", xml(2000));
        Path cut = Files.write(dir.resolve("cut.zip"), Arrays.copyOf(whole, whole.length / 2));
        // A stored file's data is its content: one byte changed inside it is found by the CRC alone.
        byte[] damaged = whole.clone();
        damaged[whole.length / 2] ^= 0x01;
        Path bad = Files.write(dir.resolve("damaged.zip"), damaged);
        byte[] deflated = zip("persons.xml", xml(2000));
        int central = indexOf(deflated, new byte[] {'P', 'K', 1, 2});
        Path shortData = Files.write(dir.resolve("short.zip"), shrink(deflated, central, 20, 100));

        assertThatThrownBy(() -> CompressedInput.inflate(cut, "cut.zip", CompressedInput.copyBeside(cut, "ab"),
                1L << 30, () -> false))
                .isInstanceOf(FileFailedException.class)
                .hasMessage("not a readable zip archive: it has no end of central directory record: it is cut short, or "
                        + "not a zip archive [file cut.zip]");
        int size = xml(2000).length;
        assertThatThrownBy(() -> CompressedInput.inflate(bad, "damaged.zip", CompressedInput.copyBeside(bad, "ab"),
                1L << 30, () -> false))
                .hasMessage("not a readable zip archive: its file persons.xml.stored is corrupt: its CRC does not match "
                        + "its data (in its file persons.xml.stored, at compressed byte " + size + " of " + size
                        + ", after " + size + " inflated bytes) [file damaged.zip]");
        assertThatThrownBy(() -> CompressedInput.inflate(shortData, "short.zip", CompressedInput.copyBeside(shortData, "ab"),
                1L << 30, () -> false))
                .hasMessageStartingWith("not a readable zip archive: its file persons.xml's compressed data ends before "
                        + "its end (in its file persons.xml, at compressed byte ");
        assertThat(listing()).containsExactlyInAnyOrder("cut.zip", "damaged.zip", "short.zip");
    }

    /** The archive with the 32-bit field at {@code field} of the directory entry at {@code central} made smaller. */
    private static byte[] shrink(byte[] archive, int central, int field, int by) {
        byte[] changed = archive.clone();
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(changed).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.putInt(central + field, b.getInt(central + field) - by);
        return changed;
    }

    @Test
    void aZipArchiveOverTheLimitFailsBeforeInflatingOrWhenItLiesAndAStopLeavesNothing() throws Exception {
        byte[] zeros = zip("bomb.xml", new byte[4 << 20]);
        Path bomb = Files.write(dir.resolve("bomb.zip"), zeros);
        // The same archive saying it holds 1 KiB: the limit is kept while inflating all the same.
        int central = indexOf(zeros, new byte[] {'P', 'K', 1, 2});
        Path liar = Files.write(dir.resolve("liar.zip"), shrink(zeros, central, 24, (4 << 20) - 1024));

        assertThatThrownBy(() -> CompressedInput.inflate(bomb, "bomb.zip", CompressedInput.copyBeside(bomb, "cd"),
                1L << 20, () -> false))
                .isInstanceOf(FileFailedException.class)
                .hasMessage("the zip archive says it inflates to 4194304 bytes, more than 1048576 [file bomb.zip] "
                        + "(setting: file.decompressed.max.bytes)");
        assertThatThrownBy(() -> CompressedInput.inflate(liar, "liar.zip", CompressedInput.copyBeside(liar, "cd"),
                1L << 20, () -> false))
                .hasMessageStartingWith("the zip archive inflates to more than 1048576 bytes (stopped in its file "
                        + "bomb.xml, at compressed byte ")
                .hasMessageEndingWith("[file liar.zip] (setting: file.decompressed.max.bytes)");
        java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();
        assertThat(CompressedInput.inflate(bomb, "bomb.zip", CompressedInput.copyBeside(bomb, "cd"), 1L << 30,
                () -> asked.incrementAndGet() == 2)).isEqualTo(-1);
        assertThat(listing()).containsExactlyInAnyOrder("bomb.zip", "liar.zip");
    }

    @Test
    void aZipArchiveOfManyEntriesIsReadAnEntryAtATime() throws Exception {
        // 70,000 folders and one file: more entries than the end record counts, so the zip64 end record gives them.
        Object[] entries = new Object[140_002];
        for (int i = 0; i < 70_000; i++) {
            entries[2 * i] = "d" + i + "/";
            entries[2 * i + 1] = new byte[0];
        }
        entries[140_000] = "persons.xml";
        entries[140_001] = xml(10);
        Path many = Files.write(dir.resolve("many.zip"), zip(entries));
        Path copy = CompressedInput.copyBeside(many, "ab");

        assertThat(CompressedInput.inflate(many, "many.zip", copy, 1L << 30, () -> false)).isEqualTo(xml(10).length);
        assertThat(Files.readAllBytes(copy)).isEqualTo(xml(10));
    }

    @Test
    void zip64EndRecordsWrittenBesideFull32BitFieldsAreRead() throws Exception {
        // As zip - - writes a stream: zip64 end records before the end record whatever the sizes.
        byte[] plain = xml(10);
        byte[] archive = zip("persons.xml", plain);
        int central = indexOf(archive, new byte[] {'P', 'K', 1, 2});
        int end = indexOf(archive, new byte[] {'P', 'K', 5, 6});
        java.nio.ByteBuffer records = java.nio.ByteBuffer.allocate(76).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        records.putInt(0x06064b50).putLong(44).putShort((short) 45).putShort((short) 45).putInt(0).putInt(0)
                .putLong(1).putLong(1).putLong(end - central).putLong(central);
        records.putInt(0x07064b50).putInt(0).putLong(end).putInt(1);
        byte[] streamed = new byte[archive.length + 76];
        System.arraycopy(archive, 0, streamed, 0, end);
        System.arraycopy(records.array(), 0, streamed, end, 76);
        System.arraycopy(archive, end, streamed, end + 76, archive.length - end);
        Path z = Files.write(dir.resolve("streamed.zip"), streamed);
        Path copy = CompressedInput.copyBeside(z, "ab");

        assertThat(CompressedInput.inflate(z, "streamed.zip", copy, 1L << 30, () -> false)).isEqualTo(plain.length);
        assertThat(Files.readAllBytes(copy)).isEqualTo(plain);
    }

    @Test
    void anEndRecordCountingFewerEntriesThanItsDirectoryHoldsFails() throws Exception {
        byte[] archive = zip("a.xml", xml(1), "b.xml", xml(2));
        int end = indexOf(archive, new byte[] {'P', 'K', 5, 6});
        java.nio.ByteBuffer.wrap(archive).order(java.nio.ByteOrder.LITTLE_ENDIAN).putShort(end + 8, (short) 1)
                .putShort(end + 10, (short) 1);
        Path under = Files.write(dir.resolve("under.zip"), archive);

        // Read by the count alone, b.xml would be passed over without a word.
        assertThatThrownBy(() -> CompressedInput.inflate(under, "under.zip", CompressedInput.copyBeside(under, "ab"),
                1L << 30, () -> false))
                .isInstanceOf(FileFailedException.class)
                .hasMessageMatching("not a readable zip archive: its central directory is damaged: its end record counts 1 "
                        + "entries in [0-9]+ bytes, and they take [0-9]+ \\[file under.zip\\]");
    }

    @Test
    void aDirectoryEntryThatLiesAboutItsFileFailsNamingWhat() throws Exception {
        byte[] archive = zip("a.xml", xml(3));
        int central = indexOf(archive, new byte[] {'P', 'K', 1, 2});
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(archive).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        byte[] far = archive.clone();
        java.nio.ByteBuffer.wrap(far).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(central + 42, 0x7ffffff0);
        byte[] marker = archive.clone(); // "in the zip64 extra field", which is not there
        java.nio.ByteBuffer.wrap(marker).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(central + 24, -1);
        assertThat(b.getInt(central + 42)).isZero();
        Path f = Files.write(dir.resolve("far.zip"), far);
        Path m = Files.write(dir.resolve("marker.zip"), marker);

        assertThatThrownBy(() -> CompressedInput.inflate(f, "far.zip", CompressedInput.copyBeside(f, "ab"), 1L << 30,
                () -> false))
                .hasMessage("not a readable zip archive: its file a.xml is not where the directory says (byte 2147483632 "
                        + "is past the archive's end) [file far.zip]");
        assertThatThrownBy(() -> CompressedInput.inflate(m, "marker.zip", CompressedInput.copyBeside(m, "ab"), 1L << 30,
                () -> false))
                .hasMessage("not a readable zip archive: its central directory is damaged at entry 1 (a.xml) [file marker.zip]");
    }

    @Test
    void aNameEndingInABackslashIsAFolderOnlyWhenItHoldsNothing() throws Exception {
        Path folder = Files.write(dir.resolve("folder.zip"), zip("a.xml", xml(3), "old\\", new byte[0]));
        Path file = Files.write(dir.resolve("file.zip"), zip("a.xml", xml(3), "b.xml\\", xml(3)));

        assertThat(CompressedInput.inflate(folder, "folder.zip", CompressedInput.copyBeside(folder, "ab"), 1L << 30,
                () -> false)).isEqualTo(xml(3).length);
        assertThatThrownBy(() -> CompressedInput.inflate(file, "file.zip", CompressedInput.copyBeside(file, "ab"), 1L << 30,
                () -> false))
                .hasMessageContaining("it holds 2 files (a.xml, b.xml\\)");
    }

    @Test
    void aFakeEndRecordInTheArchivesCommentIsPassedOver() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (java.util.zip.ZipOutputStream zip = new java.util.zip.ZipOutputStream(out)) {
            zip.putNextEntry(new java.util.zip.ZipEntry("persons.xml"));
            zip.write(xml(10));
            // An end record of its own in the comment, saying the directory is 100 bytes at byte 0.
            zip.setComment("PK\u0005\u0006\u0000\u0000\u0000\u0000\u0001\u0000\u0001\u0000d\u0000\u0000\u0000"
                    + "\u0000\u0000\u0000\u0000\u0000\u0000xx");
        }
        Path faked = Files.write(dir.resolve("faked.zip"), out.toByteArray());
        Path copy = CompressedInput.copyBeside(faked, "ab");

        assertThat(CompressedInput.inflate(faked, "faked.zip", copy, 1L << 30, () -> false)).isEqualTo(xml(10).length);
    }

    @Test
    void aZipFileEncryptedOrCompressedWithAnotherMethodFailsNamingWhy() throws Exception {
        byte[] archive = zip("persons.xml", xml(10));
        int central = indexOf(archive, new byte[] {'P', 'K', 1, 2});
        byte[] bzip2 = archive.clone();
        bzip2[8] = 12; // the method, in the local header (offset 8) and in the directory's entry (offset 10)
        bzip2[central + 10] = 12;
        byte[] encrypted = archive.clone();
        encrypted[central + 8] |= 1;
        Path b = Files.write(dir.resolve("bzip2.zip"), bzip2);
        Path e = Files.write(dir.resolve("encrypted.zip"), encrypted);

        assertThatThrownBy(() -> CompressedInput.inflate(b, "bzip2.zip", CompressedInput.copyBeside(b, "ab"),
                1L << 30, () -> false))
                .isInstanceOf(FileFailedException.class)
                .hasMessage("not a readable zip archive: its file persons.xml is compressed with method 12 (bzip2), which is "
                        + "not read: only stored and deflated (zip's default) files are; extract it and drop the file "
                        + "itself, or zip it again with deflate [file bzip2.zip]");
        assertThatThrownBy(() -> CompressedInput.inflate(e, "encrypted.zip", CompressedInput.copyBeside(e, "ab"),
                1L << 30, () -> false))
                .hasMessage("not a readable zip archive: its file persons.xml is encrypted, which is not read: extract it "
                        + "and drop the file itself [file encrypted.zip]");
    }

    @Test
    void aCompressedFileOfNothingFailsSayingSo() throws Exception {
        Path gz = Files.write(dir.resolve("empty.xml.gz"), gzip(new byte[0]));
        Path zip = Files.write(dir.resolve("empty.zip"), zip("empty.xml", new byte[0]));

        assertThatThrownBy(() -> CompressedInput.inflate(gz, "empty.xml.gz", CompressedInput.copyBeside(gz, "ab"),
                1L << 30, () -> false))
                .isInstanceOf(FileFailedException.class)
                .hasMessage("the gzip-compressed file inflates to nothing: it holds no XML document [file empty.xml.gz]");
        assertThatThrownBy(() -> CompressedInput.inflate(zip, "empty.zip", CompressedInput.copyBeside(zip, "ab"),
                1L << 30, () -> false))
                .hasMessage("the zip archive inflates to nothing: it holds no XML document [file empty.zip]");
        assertThat(listing()).containsExactlyInAnyOrder("empty.xml.gz", "empty.zip");
    }

    @Test
    void aCompressedFileHoldingAnotherFailsSayingSo() throws Exception {
        Path zipOfGzip = Files.write(dir.resolve("twice.zip"), zip("persons.xml.gz", gzip(xml(10))));

        assertThatThrownBy(() -> CompressedInput.inflate(zipOfGzip, "twice.zip", CompressedInput.copyBeside(zipOfGzip, "ab"),
                1L << 30, () -> false))
                .isInstanceOf(FileFailedException.class)
                .hasMessage("the zip archive holds a gzip-compressed file, compressed twice, which is not read: decompress "
                        + "it once and drop what that gives [file twice.zip]");
        assertThat(listing()).containsExactly("twice.zip");
    }

    private static int indexOf(byte[] in, byte[] what) {
        for (int i = 0; i + what.length <= in.length; i++) {
            if (Arrays.equals(in, i, i + what.length, what, 0, what.length)) {
                return i;
            }
        }
        throw new AssertionError("not found");
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
