package io.xmlingest.core.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.ctc.wstx.api.WstxInputProperties;
import com.ctc.wstx.stax.WstxInputFactory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.Channels;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import org.codehaus.stax2.XMLStreamReader2;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ByteTrackingReaderTest {

    /** ASCII, then 2-, 3- and 4-byte UTF-8, then what other charsets have: Latin-1, kana, kanji. */
    private static final int[] CANDIDATES = IntStream.concat(
            IntStream.rangeClosed(0x20, 0x7E),
            IntStream.of('\n', '\t', 0xE9, 0xDF, 0x3A9, 0x416, 0x7FF, 0x20AC, 0x4E2D, 0x65E5, 0x672C, 0x8A9E,
                    0x800, 0xFFFD, 0x1F600, 0x1D11E, 0x10000, 0x10FFFF, 0x3042, 0x3093, 0x30A2, 0xFF71, 0xFF9F,
                    0xA0, 0xB5, 0xFF, 0x80, 0x2014, 0x9FA5)).toArray();

    // --- offsets against an independent encoding --------------------------------------------------

    @ParameterizedTest
    @ValueSource(strings = {"UTF-8", "UTF-16LE", "UTF-16BE", "ISO-8859-1", "Shift_JIS", "GB18030"})
    void everyCharMapsToTheByteOffsetOfItsEncodedPrefix(String charsetName) throws IOException {
        // Every full JDK has these (jdk.charsets); a JDK without them should fail here, not skip.
        assertThat(Charset.isSupported(charsetName)).as(charsetName + " is in this JDK").isTrue();
        Charset cs = Charset.forName(charsetName);
        Random random = new Random(charsetName.hashCode());
        for (int doc = 0; doc < 12; doc++) {
            String text = randomText(random, cs, 1 + random.nextInt(doc < 6 ? 300 : 150_000));
            byte[] bytes = text.getBytes(cs);
            long[] expected = offsets(text, cs, 0);
            assertThat(expected[text.length()]).isEqualTo(bytes.length);
            int maxRead = new int[] {1, 3, 100, 100_000}[doc % 4];
            try (ByteTrackingReader reader = new ByteTrackingReader(
                    new ShortReadChannel(bytes, 0, random, maxRead), 0, cs, "t.xml")) {
                assertThat(readChecking(reader, text, expected, random, Integer.MAX_VALUE)).isEqualTo(text);
            }
        }
    }

    @Test
    void aResumeReportsAbsoluteOffsets() throws IOException {
        Random random = new Random(7);
        String text = randomText(random, StandardCharsets.UTF_8, 20_000);
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        long[] all = offsets(text, StandardCharsets.UTF_8, 0);
        int fromChar = 12_345;
        while (Character.isLowSurrogate(text.charAt(fromChar))) {
            fromChar++;
        }
        String rest = text.substring(fromChar);
        long startByte = all[fromChar];
        try (ByteTrackingReader reader = new ByteTrackingReader(
                new ShortReadChannel(bytes, (int) startByte, random, 5000), startByte, StandardCharsets.UTF_8, "t.xml")) {
            assertThat(reader.nextByteOffset()).isEqualTo(startByte);
            assertThat(readChecking(reader, rest, offsets(rest, StandardCharsets.UTF_8, startByte), random, Integer.MAX_VALUE))
                    .isEqualTo(rest);
            assertThat(reader.nextByteOffset()).isEqualTo(bytes.length);
        }
    }

    @Test
    void aPairGoesOutHalfAtATimeWhenTheCallerHasRoomForOneChar() throws IOException {
        byte[] bytes = "a\uD83D\uDE00b".getBytes(StandardCharsets.UTF_8); // a, U+1F600 (4 bytes), b
        try (ByteTrackingReader reader = reader(bytes, StandardCharsets.UTF_8)) {
            StringBuilder got = new StringBuilder();
            for (int c = reader.read(); c >= 0; c = reader.read()) {
                got.append((char) c);
            }
            assertThat(got.toString()).isEqualTo("a\uD83D\uDE00b");
            assertThat(reader.byteOffsetOf(0)).isZero();
            assertThat(reader.byteOffsetOf(1)).isEqualTo(1);
            assertThat(reader.byteOffsetOf(2)).isBetween(2L, 5L);
            assertThat(reader.byteOffsetOf(3)).isEqualTo(5);
            assertThat(reader.nextByteOffset()).isEqualTo(6);
        }
    }

    // --- bad bytes ----------------------------------------------------------------------------

    @Test
    void invalidUtf8IsReportedAtItsByteAfterEveryGoodCharIsDelivered() throws IOException {
        byte[] good = "<a>h\u00E9llo \u20AC and more text</a>".getBytes(StandardCharsets.UTF_8);
        byte[] bytes = concat(good, new byte[] {(byte) 0xC3, 0x28}, "<b/>".getBytes(StandardCharsets.UTF_8));
        String goodText = new String(good, StandardCharsets.UTF_8);
        for (int readLength : new int[] {1, 5, 1000}) {
            try (ByteTrackingReader reader = reader(bytes, StandardCharsets.UTF_8)) {
                StringBuilder got = new StringBuilder();
                char[] buf = new char[readLength];
                Throwable thrown = catchThrowable(() -> {
                    for (int n = reader.read(buf, 0, readLength); n >= 0; n = reader.read(buf, 0, readLength)) {
                        got.append(buf, 0, n);
                    }
                });
                assertThat(got.toString()).isEqualTo(goodText);
                assertThat(thrown).isInstanceOf(InvalidEncodingException.class)
                        .hasMessage("invalid UTF-8 byte sequence C3 at byte offset " + good.length
                                + " of file t.xml (followed by 28)");
                assertThat(((InvalidEncodingException) thrown).byteOffset()).isEqualTo(good.length);
                assertThat(reader.nextByteOffset()).isEqualTo(good.length);
                // It stays failed: a retry does not skip the bad bytes.
                assertThatThrownBy(() -> reader.read(buf, 0, readLength)).isInstanceOf(InvalidEncodingException.class);
            }
        }
    }

    @Test
    void utf8DecodesAsTheJdksDecoderDoesGoodBytesAndBadAlike() throws Exception {
        // The reader decodes common UTF-8 itself and hands the rest to the JDK's decoder: every text, every
        // bad byte and every offset must come out as the JDK's decoder alone gives them, wherever reads split.
        byte[][] pieces = {"a".getBytes(StandardCharsets.US_ASCII), "plain ascii text ".getBytes(StandardCharsets.US_ASCII),
            "\u00E9".getBytes(StandardCharsets.UTF_8), "\u07FF".getBytes(StandardCharsets.UTF_8),
            "\u0800".getBytes(StandardCharsets.UTF_8), "\u20AC".getBytes(StandardCharsets.UTF_8),
            "\uFFFD".getBytes(StandardCharsets.UTF_8), "\uD83D\uDE00".getBytes(StandardCharsets.UTF_8),
            "\uDBFF\uDFFF".getBytes(StandardCharsets.UTF_8),
            {(byte) 0xC0, (byte) 0xAF}, {(byte) 0xC1, (byte) 0xBF}, {(byte) 0xE0, (byte) 0x80, (byte) 0xAF},
            {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xF0, (byte) 0x80, (byte) 0x80, (byte) 0xAF},
            {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, {(byte) 0xF5}, {(byte) 0xFF}, {(byte) 0x80},
            {(byte) 0xC3}, {(byte) 0xE2, (byte) 0x82}, {(byte) 0xF0, (byte) 0x9F, (byte) 0x98},
            {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80}, {(byte) 0xFC}, {(byte) 0xE2, 0x41},
            {(byte) 0xF0, (byte) 0x9F, 0x41}, {(byte) 0xE0, (byte) 0xA0},
            {(byte) 0xED, (byte) 0x9F, (byte) 0xBF, (byte) 0xEE, (byte) 0x80, (byte) 0x80, (byte) 0xEF, (byte) 0xBF, (byte) 0xBD}};
        Random random = new Random(2026);
        for (int doc = 0; doc < 3000; doc++) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            boolean bad = doc % 3 != 0;
            // Some beyond the reader's 64 KiB buffer, so that bad bytes also meet a refill.
            int n = 1 + random.nextInt(doc % 10 == 0 ? 3000 : doc % 10 == 1 ? 12_000 : 40);
            for (int i = 0; i < n; i++) {
                // Mostly good pieces, and the last one valid too; a bad one (index 9 on) only in documents meant to fail.
                int pick = random.nextInt(bad && random.nextInt(n) == 0 ? pieces.length : 9);
                out.write(pieces[pick == pieces.length - 1 ? 2 : pick]);
            }
            if (random.nextInt(5) == 0) {
                out.write(pieces[pieces.length - 1]);
            }
            byte[] bytes = out.toByteArray();
            CharsetDecoder jdk = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT);
            ByteBuffer in = ByteBuffer.wrap(bytes);
            CharBuffer expected = CharBuffer.allocate(bytes.length + 1);
            CoderResult r = jdk.decode(in, expected, true);
            String expectedText = expected.flip().toString();
            long[] offsets = offsets(expectedText, StandardCharsets.UTF_8, 0);
            int maxRead = new int[] {1, 2, 3, 5, 7, 64, 100_000}[doc % 7];
            try (ByteTrackingReader reader = new ByteTrackingReader(new ShortReadChannel(bytes, 0, random, maxRead), 0,
                    StandardCharsets.UTF_8, "t.xml")) {
                StringBuilder got = new StringBuilder();
                char[] buf = new char[5000];
                Throwable thrown = catchThrowable(() -> {
                    // Reads of 1 to 3 chars too, where a pair goes out half at a time.
                    for (int len = 1 + random.nextInt(3); ; len = random.nextBoolean() ? 1 + random.nextInt(3) : 1 + random.nextInt(5000)) {
                        int got1 = reader.read(buf, 0, len);
                        if (got1 < 0) {
                            break;
                        }
                        got.append(buf, 0, got1);
                    }
                });
                assertThat(got.toString()).as("document %d", doc).isEqualTo(expectedText);
                for (int i = 0; i < expectedText.length(); i += 1 + random.nextInt(50)) {
                    if (i >= reader.charsRead() - ByteTrackingReader.DEFAULT_RETAIN_CHARS) {
                        assertOffset(reader, expectedText, offsets, i);
                    }
                }
                if (r.isError()) {
                    StringBuilder hex = new StringBuilder();
                    for (int i = 0; i < r.length(); i++) {
                        hex.append(i == 0 ? "" : " ").append(String.format("%02X", bytes[in.position() + i] & 0xff));
                    }
                    int next = in.position() + r.length();
                    String after = next < bytes.length ? " (followed by " + String.format("%02X", bytes[next] & 0xff) + ")" : "";
                    assertThat(thrown).as("document %d", doc).isInstanceOf(InvalidEncodingException.class)
                            .hasMessageStartingWith("invalid UTF-8 byte sequence " + hex + " at byte offset " + in.position()
                                    + " of file t.xml");
                    if (maxRead == 100_000 && next < bytes.length) {
                        // With the whole file in the buffer the byte after is known (short reads may not have it yet);
                        // that the file ends there is known only once a read has said so.
                        assertThat(thrown.getMessage()).as("document %d", doc).endsWith(after);
                    } else if (next == bytes.length) {
                        assertThat(thrown.getMessage()).as("document %d", doc).doesNotContain("followed by");
                    }
                    assertThat(((InvalidEncodingException) thrown).byteOffset()).isEqualTo(in.position());
                } else {
                    assertThat(thrown).as("document %d", doc).isNull();
                    assertThat(reader.nextByteOffset()).isEqualTo(bytes.length);
                }
            }
        }
    }

    // --- XML's rules for raw characters, which Woodstox leaves to its decoder -----------------------

    @ParameterizedTest
    @ValueSource(strings = {"UTF-8", "UTF-16LE", "UTF-16BE"})
    void theNoncharactersFffeAndFfffAreRefusedAtTheirByteAfterEveryCharBefore(String charsetName) throws IOException {
        Charset cs = Charset.forName(charsetName);
        for (char bad : new char[] {'\uFFFE', '\uFFFF'}) {
            String good = "<a>h\u00E9llo \uD83D\uDE00 ";
            byte[] bytes = (good + bad + "</a>").getBytes(cs);
            long at = good.getBytes(cs).length;
            for (boolean xml11 : new boolean[] {false, true}) {
                try (ByteTrackingReader reader = new ByteTrackingReader(new ShortReadChannel(bytes, 0, new Random(1), 3), 0,
                        cs, "t.xml", ByteTrackingReader.DEFAULT_RETAIN_CHARS, xml11)) {
                    StringBuilder got = new StringBuilder();
                    Throwable thrown = readUntilFailure(reader, got);
                    assertThat(got.toString()).isEqualTo(good);
                    assertThat(thrown).isInstanceOf(InvalidEncodingException.class).hasMessage(String.format(
                            "character U+%04X at byte offset %d of file t.xml is a noncharacter, which XML does not allow",
                            (int) bad, at));
                    assertThat(((InvalidEncodingException) thrown).byteOffset()).isEqualTo(at);
                }
            }
        }
    }

    @Test
    void xml11LineEndsBecomeLineFeedsAndItsRawControlCharactersAreRefused() throws IOException {
        // NEL and LSEP end lines in 1.1; CR NEL is one line end, CR LSEP two, CR CR LSEP three (a CR alone is
        // one). Compared as the parser reads line ends (CR LF and CR alone are LF), since a CR LSEP that reads
        // split comes out as CR CR, not LF LF.
        String text = "a\u0085b\r\u0085c\u2028d\r\u2028e\u00E9\u00A0f\r\r\u2028g";
        for (Charset cs : new Charset[] {StandardCharsets.UTF_8, StandardCharsets.UTF_16LE}) {
            for (int maxRead : new int[] {1, 2, 3, 1000}) {
                assertThat(readAll(text, cs, true, maxRead).replace("\r\n", "\n").replace('\r', '\n'))
                        .as("%s, reads of %d bytes", cs, maxRead).isEqualTo("a\nb\nc\nd\n\ne\u00E9\u00A0f\n\n\ng");
            }
        }
        assertThat(readAll(text, StandardCharsets.UTF_8, false)).as("1.0 keeps them as they are").isEqualTo(text);
        for (char c : new char[] {'\u007F', '\u0080', '\u0084', '\u0086', '\u009F'}) {
            byte[] bytes = ("<a>x" + c + "</a>").getBytes(StandardCharsets.UTF_8);
            try (ByteTrackingReader reader = new ByteTrackingReader(Channels.newChannel(new java.io.ByteArrayInputStream(bytes)),
                    0, StandardCharsets.UTF_8, "t.xml", ByteTrackingReader.DEFAULT_RETAIN_CHARS, true)) {
                StringBuilder got = new StringBuilder();
                Throwable thrown = readUntilFailure(reader, got);
                assertThat(got.toString()).isEqualTo("<a>x");
                assertThat(thrown).isInstanceOf(InvalidEncodingException.class).hasMessage(String.format(
                        "character U+%04X at byte offset 4 of file t.xml is a control character, which XML 1.1 allows only "
                                + "as a character reference (&#x%X;)", (int) c, (int) c));
            }
            assertThat(readAll("x" + c, StandardCharsets.UTF_8, false)).as("1.0 allows it").isEqualTo("x" + c);
        }
    }

    @Test
    void theSplitterReadsAnXml11FilesLineEndsAsItsParserWouldAndRefusesANoncharacter(@org.junit.jupiter.api.io.TempDir
                                                                                     java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path file = dir.resolve("v11.xml");
        java.nio.file.Files.writeString(file, "<?xml version='1.1' encoding='UTF-8'?>\n<r><p><n>A\u2028B</n></p>"
                + "<p><n>C\r\u0085D</n></p>\u0085<p><n>E</n></p></r>", StandardCharsets.UTF_8);
        List<String> texts = new ArrayList<>();
        try (StaxRecordSplitter s = StaxRecordSplitter.open(file, new javax.xml.namespace.QName("p"), XmlLimits.DEFAULTS)) {
            while (s.next()) {
                javax.xml.stream.XMLStreamReader r = s.record();
                StringBuilder t = new StringBuilder("line " + s.position().line() + ": ");
                for (int e = r.getEventType(); e != XMLStreamConstants.END_DOCUMENT; e = r.next()) {
                    if (e == XMLStreamConstants.CHARACTERS) {
                        t.append(r.getText());
                    }
                }
                texts.add(t.toString());
            }
        }
        assertThat(texts).containsExactly("line 2: A\nB", "line 3: C\nD", "line 5: E");

        java.nio.file.Path bad = dir.resolve("bad.xml");
        java.nio.file.Files.writeString(bad, "<r><p>ok</p><p>x\uFFFEy</p></r>", StandardCharsets.UTF_8);
        try (StaxRecordSplitter s = StaxRecordSplitter.open(bad, new javax.xml.namespace.QName("p"), XmlLimits.DEFAULTS)) {
            assertThat(s.next()).isTrue();
            assertThat(s.next()).isTrue();
            assertThatThrownBy(s::next).isInstanceOf(io.xmlingest.core.error.FileFailedException.class)
                    .hasMessageContaining("character U+FFFE at byte offset 16 of file")
                    .hasMessageContaining("record index 1, line 1, column 17, byte offset 16");
        }
    }

    /**
     * Where the splitter works a position out again itself (a resume's prolog, a bad byte the parser never
     * saw, an event of a copied record), an XML 1.1 file's NEL and LSEP are line ends as they are to the parser.
     */
    @Test
    void anXml11FileResumesAndIsPositionedWithItsOwnLineEnds(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        javax.xml.namespace.QName p = new javax.xml.namespace.QName("p");
        java.nio.file.Path file = dir.resolve("nel.xml");
        java.nio.file.Files.writeString(file, "<?xml version=\"1.1\" encoding=\"UTF-8\"?>\u0085<!-- c -->\u0085<r>\u0085"
                + "<p><n>A</n></p>\u0085<p>\u0085\u2028<n>B</n></p>\u0085</r>", StandardCharsets.UTF_8);
        ResumePoint second;
        try (StaxRecordSplitter s = StaxRecordSplitter.open(file, p, XmlLimits.DEFAULTS)) {
            assertThat(s.next()).isTrue();
            assertThat(s.next()).isTrue();
            second = s.resumePoint();
            CapturedRecord copy = s.capture();
            // Events: <p>, its text (NEL LSEP), <n>: which starts line 7.
            assertThat(copy.lineAndColumn(2)).containsExactly(7, 1);
        }
        assertThat(second.line()).isEqualTo(5);
        try (StaxRecordSplitter s = StaxRecordSplitter.resume(file, "nel.xml", p, XmlLimits.DEFAULTS, second, 1)) {
            assertThat(s.next()).isTrue();
            assertThat(s.position().line()).isEqualTo(5);
            assertThat(s.capture().lineAndColumn(2)).containsExactly(7, 1);
            assertThat(s.next()).isFalse();
        }

        java.nio.file.Path bad = dir.resolve("bad11.xml");
        java.nio.file.Files.writeString(bad, "<?xml version='1.1' encoding='UTF-8'?>\n<r><p>a\u0085b\u2028c\uFFFF</p></r>",
                StandardCharsets.UTF_8);
        try (StaxRecordSplitter s = StaxRecordSplitter.open(bad, p, XmlLimits.DEFAULTS)) {
            assertThatThrownBy(() -> {
                while (s.next()) {
                    s.capture();
                }
            }).isInstanceOf(io.xmlingest.core.error.FileFailedException.class)
                    .hasMessageContaining("character U+FFFF").hasMessageContaining("line 4, column 2");
        }
    }

    private static String readAll(String text, Charset cs, boolean xml11) throws IOException {
        return readAll(text, cs, xml11, 2);
    }

    private static String readAll(String text, Charset cs, boolean xml11, int maxRead) throws IOException {
        byte[] bytes = text.getBytes(cs);
        try (ByteTrackingReader reader = new ByteTrackingReader(new ShortReadChannel(bytes, 0, new Random(3), maxRead), 0, cs,
                "t.xml", ByteTrackingReader.DEFAULT_RETAIN_CHARS, xml11)) {
            StringBuilder got = new StringBuilder();
            assertThat(readUntilFailure(reader, got)).isNull();
            return got.toString();
        }
    }

    @Test
    void aSequenceCutShortByTheEndOfTheFileIsMalformed() throws IOException {
        byte[] euro = "\u20AC".getBytes(StandardCharsets.UTF_8);
        byte[] bytes = concat("abc".getBytes(StandardCharsets.UTF_8), new byte[] {euro[0], euro[1]});
        try (ByteTrackingReader reader = reader(bytes, StandardCharsets.UTF_8)) {
            StringBuilder got = new StringBuilder();
            assertThat(readUntilFailure(reader, got))
                    .isInstanceOf(InvalidEncodingException.class)
                    .hasMessage("invalid UTF-8 byte sequence E2 82 at byte offset 3 of file t.xml (the file ends there)");
            assertThat(got.toString()).isEqualTo("abc");
        }
    }

    @Test
    void aByteWithNoCharacterInTheCharsetIsUnmappable() throws IOException {
        byte[] bytes = {'a', 'b', (byte) 0x81, 'c'}; // 0x81 is unassigned in windows-1252
        try (ByteTrackingReader reader = reader(bytes, Charset.forName("windows-1252"))) {
            StringBuilder got = new StringBuilder();
            Throwable thrown = readUntilFailure(reader, got);
            assertThat(got.toString()).isEqualTo("ab");
            assertThat(thrown).isInstanceOf(InvalidEncodingException.class)
                    .hasMessage("byte sequence 81 has no character in windows-1252 at byte offset 2 of file t.xml (followed by 63)");
            assertThat(((InvalidEncodingException) thrown).byteOffset()).isEqualTo(2);
        }
    }

    @Test
    void charsetsThatHideBytesAreRefused() {
        for (String name : new String[] {"UTF-16", "UTF-32", "ISO-2022-JP"}) {
            assertThatThrownBy(() -> reader(new byte[0], Charset.forName(name)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(name);
        }
    }

    // --- bounded memory -----------------------------------------------------------------------

    @Test
    void charsOlderThanTheWindowAreForgotten() throws IOException {
        Random random = new Random(3);
        String text = randomText(random, StandardCharsets.UTF_8, 10_000);
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        long[] expected = offsets(text, StandardCharsets.UTF_8, 0);
        try (ByteTrackingReader reader = new ByteTrackingReader(
                new ShortReadChannel(bytes, 0, random, 50), 0, StandardCharsets.UTF_8, "t.xml", 1000)) {
            readChecking(reader, text, expected, random, 1000);
            long read = reader.charsRead();
            assertThat(reader.byteOffsetOf(0)).isEqualTo(-1);
            assertThat(reader.byteOffsetOf(read - 1001)).isEqualTo(-1);
            assertThat(reader.byteOffsetOf(read)).isEqualTo(-1);
            int oldest = (int) (read - 1000);
            while (Character.isLowSurrogate(text.charAt(oldest))) {
                oldest++;
            }
            assertThat(reader.byteOffsetOf(oldest)).isEqualTo(expected[oldest]);
        }
    }

    @Test
    void memoryStaysBoundedOverFiftyMegabytes() throws IOException {
        // One block of mixed text, repeated: its odd length puts pairs across every refill boundary.
        String block = randomText(new Random(11), StandardCharsets.UTF_8, 70_001);
        byte[] blockBytes = block.getBytes(StandardCharsets.UTF_8);
        long[] blockOffsets = offsets(block, StandardCharsets.UTF_8, 0);
        long total = (50L << 20) / blockBytes.length * blockBytes.length; // whole blocks: no sequence cut at the end
        try (ByteTrackingReader reader = new ByteTrackingReader(
                Channels.newChannel(repeating(blockBytes, total)), 0, StandardCharsets.UTF_8, "big.xml")) {
            char[] buf = new char[4000];
            int maxChunks = 0;
            while (reader.read(buf, 0, buf.length) >= 0) {
                maxChunks = Math.max(maxChunks, reader.chunkCount());
                long last = reader.charsRead() - 1;
                if (!Character.isLowSurrogate(block.charAt((int) (last % block.length())))) {
                    long expected = last / block.length() * blockBytes.length + blockOffsets[(int) (last % block.length())];
                    assertThat(reader.byteOffsetOf(last)).isEqualTo(expected);
                }
            }
            assertThat(reader.nextByteOffset()).isEqualTo(total);
            // A window of 256 Ki chars in reads of at most 4000, cut short at every 8 KiB the channel
            // gives: some 120 chunks, however long the file.
            assertThat(maxChunks).isLessThan(200);
        }
    }

    @Test
    void asciiNeedsOneChunkWhateverItsSize() throws IOException {
        byte[] line = "<record id=\"1\">plain ASCII text</record>\n".getBytes(StandardCharsets.US_ASCII);
        try (ByteTrackingReader reader = new ByteTrackingReader(
                Channels.newChannel(repeating(line, 20L << 20)), 0, StandardCharsets.UTF_8, "ascii.xml")) {
            char[] buf = new char[4000];
            while (reader.read(buf, 0, buf.length) >= 0) {
                assertThat(reader.chunkCount()).isEqualTo(1);
            }
            assertThat(reader.byteOffsetOf(reader.charsRead() - 5)).isEqualTo((20L << 20) - 5);
        }
    }

    @Test
    void closeClosesTheChannel() throws IOException {
        ShortReadChannel channel = new ShortReadChannel(new byte[10], 0, new Random(), 10);
        new ByteTrackingReader(channel, 0, StandardCharsets.UTF_8, "t.xml").close();
        assertThat(channel.isOpen()).isFalse();
    }

    // --- what the splitter relies on: Woodstox's char offsets map to the '<' of each start tag -----

    @ParameterizedTest
    @ValueSource(ints = {0, 64})
    void everyStartTagMapsToTheByteOffsetOfItsLessThanSign(int woodstoxBuffer) throws Exception {
        Random random = new Random(42 + woodstoxBuffer);
        List<Integer> starts = new ArrayList<>();
        String xml = document(random, 400, "UTF-8", starts);
        byte[] bytes = xml.getBytes(StandardCharsets.UTF_8);
        long[] offsets = offsets(xml, StandardCharsets.UTF_8, 0);
        try (ByteTrackingReader reader = new ByteTrackingReader(
                new ShortReadChannel(bytes, 0, random, 20_000), 0, StandardCharsets.UTF_8, "doc.xml")) {
            XMLStreamReader2 xr = woodstox(reader, woodstoxBuffer);
            int k = 0;
            while (xr.hasNext()) {
                if (xr.next() == XMLStreamConstants.START_ELEMENT) {
                    long charOffset = xr.getLocationInfo().getStartingCharOffset();
                    assertThat(charOffset).as("char offset of start tag %d", k).isEqualTo((long) starts.get(k));
                    assertThat(reader.byteOffsetOf(charOffset)).as("byte offset of start tag %d", k)
                            .isEqualTo(offsets[starts.get(k)]);
                    k++;
                }
            }
            assertThat(k).isEqualTo(starts.size());
        }
    }

    @Test
    void aUtf16FileWithAByteOrderMarkMapsToo() throws Exception {
        Random random = new Random(5);
        List<Integer> starts = new ArrayList<>();
        String xml = document(random, 100, "UTF-16", starts);
        byte[] bytes = concat(new byte[] {(byte) 0xFF, (byte) 0xFE}, xml.getBytes(StandardCharsets.UTF_16LE));
        XmlEncoding encoding = XmlEncodingSniffer.sniff(bytes, 1024, "doc16.xml");
        assertThat(encoding).isEqualTo(new XmlEncoding(StandardCharsets.UTF_16LE, 2));
        try (ByteTrackingReader reader = new ByteTrackingReader(new ShortReadChannel(bytes, 2, random, 20_000),
                encoding.bomLength(), encoding.charset(), "doc16.xml")) {
            XMLStreamReader2 xr = woodstox(reader, 0);
            int k = 0;
            while (xr.hasNext()) {
                if (xr.next() == XMLStreamConstants.START_ELEMENT) {
                    assertThat(reader.byteOffsetOf(xr.getLocationInfo().getStartingCharOffset()))
                            .isEqualTo(2 + 2L * starts.get(k++));
                }
            }
            assertThat(k).isEqualTo(starts.size());
        }
    }

    @Test
    void aStartTagLongerThanTheWindowHasNoByteOffset() throws Exception {
        // Woodstox reports the tag's offset after reading all of it: the '<' is 5,000 chars back by then.
        String xml = "<root><big a='" + "\u00E9".repeat(5000) + "'/><small/></root>";
        try (ByteTrackingReader reader = new ByteTrackingReader(new ShortReadChannel(xml.getBytes(StandardCharsets.UTF_8), 0,
                new Random(2), 100_000), 0, StandardCharsets.UTF_8, "t.xml", 1000)) {
            XMLStreamReader2 xr = woodstox(reader, 0);
            List<Long> offsets = new ArrayList<>();
            while (xr.hasNext()) {
                if (xr.next() == XMLStreamConstants.START_ELEMENT) {
                    offsets.add(reader.byteOffsetOf(xr.getLocationInfo().getStartingCharOffset()));
                }
            }
            assertThat(offsets).containsExactly(0L, -1L, 6L + 8 + 10_000 + 3);
        }
    }

    @Test
    void woodstoxPassesTheInvalidEncodingThroughAsTheCause() throws Exception {
        byte[] bytes = concat("<?xml version=\"1.0\"?><root><a>ok \u00E9</a><b>".getBytes(StandardCharsets.UTF_8),
                new byte[] {(byte) 0xFF}, "</b></root>".getBytes(StandardCharsets.UTF_8));
        try (ByteTrackingReader reader = reader(bytes, StandardCharsets.UTF_8)) {
            XMLStreamReader2 xr = woodstox(reader, 0);
            List<String> seen = new ArrayList<>();
            Throwable thrown = catchThrowable(() -> {
                while (xr.hasNext()) {
                    if (xr.next() == XMLStreamConstants.START_ELEMENT) {
                        seen.add(xr.getLocalName());
                    }
                }
            });
            assertThat(seen).containsExactly("root", "a", "b");
            assertThat(thrown).isInstanceOf(XMLStreamException.class)
                    .hasRootCauseInstanceOf(InvalidEncodingException.class);
            InvalidEncodingException cause = (InvalidEncodingException) rootCause(thrown);
            assertThat(cause.byteOffset()).isEqualTo(bytes.length - 12);
        }
    }

    // --- helpers ------------------------------------------------------------------------------

    /** Reads until the reader throws, collecting what it delivered before; returns what it threw. */
    private static Throwable readUntilFailure(ByteTrackingReader reader, StringBuilder got) {
        char[] buf = new char[100];
        return catchThrowable(() -> {
            for (int n = reader.read(buf, 0, buf.length); n >= 0; n = reader.read(buf, 0, buf.length)) {
                got.append(buf, 0, n);
            }
        });
    }

    /**
     * Reads everything with random lengths and offsets, checking after each read the offset of
     * every char just delivered, a few older ones, and that nothing undelivered is mapped.
     */
    private static String readChecking(ByteTrackingReader reader, String text, long[] expected, Random random,
                                       int window) throws IOException {
        char[] buf = new char[6000];
        StringBuilder got = new StringBuilder();
        while (true) {
            int off = random.nextInt(1000);
            int len = random.nextInt(4) == 0 ? 1 + random.nextInt(3) : 1 + random.nextInt(5000);
            long before = reader.charsRead();
            int n = reader.read(buf, off, len);
            if (n < 0) {
                assertThat(reader.read(buf, 0, 10)).isEqualTo(-1);
                return got.toString();
            }
            assertThat(n).isBetween(1, len);
            got.append(buf, off, n);
            assertThat(reader.charsRead()).isEqualTo(before + n);
            for (long i = before; i < before + n; i++) {
                assertOffset(reader, text, expected, (int) i);
            }
            for (int j = 0; j < 3; j++) {
                long from = Math.max(0, reader.charsRead() - window);
                assertOffset(reader, text, expected, (int) (from + random.nextInt((int) (reader.charsRead() - from))));
            }
            assertThat(reader.byteOffsetOf(reader.charsRead())).isEqualTo(-1);
            int next = (int) reader.charsRead();
            if (next < text.length() && Character.isLowSurrogate(text.charAt(next))) {
                assertThat(reader.nextByteOffset()).isBetween(expected[next - 1] + 1, expected[next]);
            } else {
                assertThat(reader.nextByteOffset()).isEqualTo(expected[next]);
            }
        }
    }

    /** A low surrogate begins no byte; its offset must lie after its pair's first byte, at most at the end. */
    private static void assertOffset(ByteTrackingReader reader, String text, long[] expected, int i) {
        long actual = reader.byteOffsetOf(i);
        if (Character.isLowSurrogate(text.charAt(i))) {
            assertThat(actual).as("low surrogate at char %d", i).isBetween(expected[i - 1] + 1, expected[i]);
        } else {
            assertThat(actual).as("char %d", i).isEqualTo(expected[i]);
        }
    }

    /**
     * The byte offset of every char, from each code point encoded on its own; a low surrogate gets
     * the end of its pair. The last entry is the total.
     */
    private static long[] offsets(String text, Charset cs, long start) {
        long[] at = new long[text.length() + 1];
        long pos = start;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            int units = Character.charCount(cp);
            at[i] = pos;
            pos += new String(Character.toChars(cp)).getBytes(cs).length;
            if (units == 2) {
                at[i + 1] = pos;
            }
            i += units;
        }
        at[text.length()] = pos;
        return at;
    }

    /** Half ASCII, half the non-ASCII code points that survive a round trip through the charset. */
    private static String randomText(Random random, Charset cs, int codePoints) {
        int[] ascii = IntStream.of(CANDIDATES).filter(cp -> cp < 0x80 && roundTrips(cp, cs)).toArray();
        int[] other = IntStream.of(CANDIDATES).filter(cp -> cp >= 0x80 && roundTrips(cp, cs)).toArray();
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < codePoints; i++) {
            int[] pool = random.nextBoolean() ? ascii : other;
            s.appendCodePoint(pool[random.nextInt(pool.length)]);
        }
        return s.toString();
    }

    private static boolean roundTrips(int cp, Charset cs) {
        String s = new String(Character.toChars(cp));
        return cs.newEncoder().canEncode(s) && new String(s.getBytes(cs), cs).equals(s);
    }

    /**
     * Records with non-ASCII text and attributes, a few attributes of about 10 KB (they straddle
     * Woodstox's input buffer), CR LF line ends, comments, CDATA, references and empty elements.
     * Fills {@code starts} with the char index of each start tag's '<'.
     */
    private static String document(Random random, int records, String encoding, List<Integer> starts) {
        String[] words = {"plain", "\u00E9t\u00E9", "\u20AC100", "\u65E5\u672C\u8A9E", "\uD83D\uDE00",
                "&amp;", "&#x1F600;", "&lt;tag&gt;", "\u0416\u0416"};
        StringBuilder x = new StringBuilder("<?xml version=\"1.0\" encoding=\"" + encoding + "\"?>\r\n<!-- \u00FCnic\u00F8de -->\n");
        starts.add(x.length());
        x.append("<root xmlns=\"urn:t\" xmlns:p=\"urn:p\">");
        for (int k = 0; k < records; k++) {
            x.append(random.nextBoolean() ? "\r\n  " : "\n");
            starts.add(x.length());
            x.append("<p:rec id=\"").append(k).append("\" note='").append(words(random, words, 1 + random.nextInt(4)));
            if (random.nextInt(10) == 0) {
                x.append(words(random, words, 1500)); // ~10 KB of attribute
            }
            x.append("'>");
            starts.add(x.length());
            x.append("<name>").append(words(random, words, random.nextInt(20))).append("</name>");
            if (random.nextBoolean()) {
                x.append("<![CDATA[<not a tag> \u00E9\uD83D\uDE00]]>");
            }
            if (random.nextBoolean()) {
                starts.add(x.length());
                x.append("<empty a=\"\u00E9\"\r\n   b='2'/>");
            }
            x.append("</p:rec>");
        }
        x.append("\n</root>\n");
        return x.toString();
    }

    private static String words(Random random, String[] words, int n) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < n; i++) {
            s.append(words[random.nextInt(words.length)]).append(' ');
        }
        return s.toString();
    }

    private static XMLStreamReader2 woodstox(ByteTrackingReader reader, int bufferChars) throws XMLStreamException {
        WstxInputFactory factory = new WstxInputFactory();
        factory.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
        if (bufferChars > 0) {
            factory.setProperty(WstxInputProperties.P_INPUT_BUFFER_LENGTH, bufferChars);
        }
        return (XMLStreamReader2) factory.createXMLStreamReader(reader);
    }

    private static ByteTrackingReader reader(byte[] bytes, Charset cs) {
        return new ByteTrackingReader(new ShortReadChannel(bytes, 0, new Random(1), bytes.length + 1), 0, cs, "t.xml");
    }

    /** {@code total} bytes of {@code block} repeated, generated as read. */
    private static InputStream repeating(byte[] block, long total) {
        return new InputStream() {
            private long pos;

            @Override
            public int read() {
                return pos < total ? block[(int) (pos++ % block.length)] & 0xff : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (pos >= total) {
                    return -1;
                }
                int start = (int) (pos % block.length);
                int n = (int) Math.min(Math.min(len, block.length - start), total - pos);
                System.arraycopy(block, start, b, off, n);
                pos += n;
                return n;
            }
        };
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static Throwable rootCause(Throwable t) {
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }
}
