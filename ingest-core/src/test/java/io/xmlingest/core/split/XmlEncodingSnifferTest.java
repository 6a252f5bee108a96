package io.xmlingest.core.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.FileFailedException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class XmlEncodingSnifferTest {

    private static final byte[] UTF_8_BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
    private static final byte[] UTF_16BE_BOM = {(byte) 0xFE, (byte) 0xFF};
    private static final byte[] UTF_16LE_BOM = {(byte) 0xFF, (byte) 0xFE};

    // --- no byte order mark, single-byte start --------------------------------------------------

    @Test
    void anEmptyFileIsUtf8() {
        assertThat(XmlEncodingSniffer.sniff(new byte[1024], 0, "empty.xml"))
                .isEqualTo(new XmlEncoding(StandardCharsets.UTF_8, 0));
    }

    @Test
    void withoutDeclarationOrEncodingItIsUtf8() {
        assertThat(sniff(ascii("<root/>"))).isEqualTo(new XmlEncoding(StandardCharsets.UTF_8, 0));
        assertThat(sniff(ascii("<?xml version=\"1.0\"?><root/>"))).isEqualTo(new XmlEncoding(StandardCharsets.UTF_8, 0));
        assertThat(sniff(ascii("<?xml version='1.0' standalone='yes'?>\n<root/>"))).isEqualTo(new XmlEncoding(StandardCharsets.UTF_8, 0));
    }

    @Test
    void aSingleByteStartTakesTheDeclaredAsciiCompatibleEncoding() {
        String[][] cases = {
                {"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>", "ISO-8859-1"},
                {"<?xml version='1.0' encoding='iso-8859-1'?>", "ISO-8859-1"},
                {"<?xml version = '1.0'  encoding\t=\r\n 'US-ASCII' ?>", "US-ASCII"},
                {"<?xml version=\"1.0\" encoding=\"windows-1252\"?>", "windows-1252"},
                {"<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>", "Shift_JIS"},
                {"<?xml version=\"1.0\" encoding=\"utf-8\" standalone='no'?>", "UTF-8"},
                {"<?xml\nencoding='latin1'?>", "ISO-8859-1"},
        };
        for (String[] c : cases) {
            assertThat(sniff(ascii(c[0] + "<root/>"))).as(c[0]).isEqualTo(new XmlEncoding(Charset.forName(c[1]), 0));
        }
    }

    @Test
    void onlyTheGivenLengthOfTheHeadIsRead() {
        // Past length lie bytes of an earlier, longer file; they would make this one an error.
        byte[] head = Arrays.copyOf(concat(UTF_8_BOM, ascii("<?xml version='1.0' encoding='ISO-8859-1'?>")), 1024);
        assertThat(XmlEncodingSniffer.sniff(head, 3, "f.xml")).isEqualTo(new XmlEncoding(StandardCharsets.UTF_8, 3));
        head[0] = 0;
        head[1] = 0;
        head[2] = (byte) 0xFE;
        head[3] = (byte) 0xFF;
        assertThat(XmlEncodingSniffer.sniff(head, 0, "f.xml")).isEqualTo(new XmlEncoding(StandardCharsets.UTF_8, 0));
    }

    @Test
    void aProcessingInstructionNamedXmlSomethingIsNoDeclaration() {
        assertThat(sniff(ascii("<?xml-stylesheet href='a.xsl' encoding='UTF-16'?><root/>")))
                .isEqualTo(new XmlEncoding(StandardCharsets.UTF_8, 0));
    }

    @Test
    void aDeclarationOfUtf16InSingleBytesIsALie() {
        FileFailedException e = failure(ascii("<?xml version=\"1.0\" encoding=\"UTF-16\"?><root/>"), "lies.xml");
        assertThat(e.reason()).isEqualTo("the XML declaration says encoding UTF-16 but the file starts with single-byte '<?xml'");
        assertThat(e.location()).contains(ErrorLocation.ofFile("lies.xml").withPosition(1, 31, 30));
        assertThat(e.settingKey()).isEmpty();
        assertThat(e.getMessage()).contains("lies.xml", "line 1, column 31", "byte offset 30");
    }

    @Test
    void theErrorPointsAtTheEncodingOnItsOwnLine() {
        FileFailedException e = failure(ascii("<?xml version='1.0'\n      encoding='UTF-32'?><r/>"), "f.xml");
        assertThat(e.reason()).isEqualTo("the XML declaration says encoding UTF-32 but the file starts with single-byte '<?xml'");
        assertThat(e.location()).contains(ErrorLocation.ofFile("f.xml").withPosition(2, 17, 36));
    }

    @Test
    void unknownAndMalformedNamesAreErrors() {
        assertThat(failure(ascii("<?xml version='1.0' encoding='x-no-such-charset'?><r/>"), "f.xml").reason())
                .isEqualTo("the XML declaration says encoding x-no-such-charset, which is not supported");
        assertThat(failure(ascii("<?xml version='1.0' encoding='UTF 8'?><r/>"), "f.xml").reason())
                .isEqualTo("the XML declaration's encoding 'UTF 8' is not a valid encoding name");
        assertThat(failure(ascii("<?xml version='1.0' encoding=''?><r/>"), "f.xml").reason())
                .isEqualTo("the XML declaration's encoding '' is not a valid encoding name");
    }

    @Test
    void aStatefulEncodingIsRefused() {
        assertThat(failure(ascii("<?xml version='1.0' encoding='ISO-2022-JP'?><r/>"), "f.xml").reason())
                .startsWith("encoding ISO-2022-JP is not supported");
    }

    @Test
    void aDeclarationThatDoesNotEndInTheHeadIsAnError() {
        byte[] head = Arrays.copyOf(ascii("<?xml version='1.0'" + " ".repeat(2000) + "encoding='ISO-8859-1'?>"), 1024);
        assertThat(failure(head, "f.xml").reason())
                .isEqualTo("the XML declaration does not end within the first 1024 bytes, so its encoding cannot be read");
    }

    // --- UTF-8 byte order mark ------------------------------------------------------------------

    @Test
    void theUtf8ByteOrderMarkWins() {
        assertThat(sniff(concat(UTF_8_BOM, ascii("<root/>")))).isEqualTo(new XmlEncoding(StandardCharsets.UTF_8, 3));
        assertThat(sniff(concat(UTF_8_BOM, ascii("<?xml version='1.0' encoding='utf-8'?><root/>"))))
                .isEqualTo(new XmlEncoding(StandardCharsets.UTF_8, 3));
    }

    @Test
    void aUtf8ByteOrderMarkWithAnotherDeclaredEncodingIsAnError() {
        FileFailedException e = failure(concat(UTF_8_BOM, ascii("<?xml version='1.0' encoding='ISO-8859-1'?><r/>")), "f.xml");
        assertThat(e.reason()).isEqualTo(
                "the XML declaration says encoding ISO-8859-1 but the file starts with the UTF-8 byte order mark EF BB BF");
        assertThat(e.location()).contains(ErrorLocation.ofFile("f.xml").withPosition(1, 31, 33));
    }

    // --- UTF-16 ----------------------------------------------------------------------------------

    @Test
    void aUtf16ByteOrderMarkGivesItsByteOrder() {
        assertThat(sniff(concat(UTF_16BE_BOM, utf16be("<root/>")))).isEqualTo(new XmlEncoding(StandardCharsets.UTF_16BE, 2));
        assertThat(sniff(concat(UTF_16LE_BOM, utf16le("<root/>")))).isEqualTo(new XmlEncoding(StandardCharsets.UTF_16LE, 2));
    }

    @Test
    void aUtf16FileMayDeclareUtf16OrItsOwnByteOrder() {
        assertThat(sniff(concat(UTF_16LE_BOM, utf16le("<?xml version='1.0' encoding='UTF-16'?><r/>"))))
                .isEqualTo(new XmlEncoding(StandardCharsets.UTF_16LE, 2));
        assertThat(sniff(concat(UTF_16BE_BOM, utf16be("<?xml version=\"1.0\" encoding=\"utf-16\"?><r/>"))))
                .isEqualTo(new XmlEncoding(StandardCharsets.UTF_16BE, 2));
        assertThat(sniff(concat(UTF_16BE_BOM, utf16be("<?xml version='1.0' encoding='UTF-16BE'?><r/>"))))
                .isEqualTo(new XmlEncoding(StandardCharsets.UTF_16BE, 2));
    }

    @Test
    void withoutAByteOrderMarkTheLessThanQuestionMarkPatternGivesUtf16() {
        assertThat(sniff(utf16be("<?xml version='1.0' encoding='UTF-16'?><r/>")))
                .isEqualTo(new XmlEncoding(StandardCharsets.UTF_16BE, 0));
        assertThat(sniff(utf16le("<?xml version='1.0' encoding='UTF-16LE'?><r/>")))
                .isEqualTo(new XmlEncoding(StandardCharsets.UTF_16LE, 0));
        assertThat(sniff(utf16le("<?xml version='1.0'?><r/>"))).isEqualTo(new XmlEncoding(StandardCharsets.UTF_16LE, 0));
    }

    @Test
    void aUtf16FileDeclaringASingleByteEncodingIsAnError() {
        FileFailedException e = failure(concat(UTF_16LE_BOM, utf16le("<?xml version='1.0' encoding='ISO-8859-1'?><r/>")), "f.xml");
        assertThat(e.reason()).isEqualTo("the XML declaration says encoding ISO-8859-1 but the file is UTF-16LE (byte order mark FF FE)");
        assertThat(e.location()).contains(ErrorLocation.ofFile("f.xml").withPosition(1, 31, 2 + 30 * 2));

        assertThat(failure(utf16be("<?xml version='1.0' encoding='UTF-8'?><r/>"), "f.xml").reason())
                .isEqualTo("the XML declaration says encoding UTF-8 but the file starts with '<?' in UTF-16BE (00 3C 00 3F)");
    }

    @Test
    void aUtf16FileDeclaringTheOtherByteOrderIsAnError() {
        assertThat(failure(concat(UTF_16BE_BOM, utf16be("<?xml version='1.0' encoding='UTF-16LE'?><r/>")), "f.xml").reason())
                .isEqualTo("the XML declaration says encoding UTF-16LE but the file is UTF-16BE (byte order mark FE FF)");
    }

    @Test
    void anOddNumberOfHeadBytesInUtf16IsFine() {
        byte[] bytes = concat(UTF_16LE_BOM, utf16le("<?xml version='1.0' encoding='UTF-16'?><r/>"));
        assertThat(XmlEncodingSniffer.sniff(bytes, bytes.length - 1, "f.xml"))
                .isEqualTo(new XmlEncoding(StandardCharsets.UTF_16LE, 2));
    }

    // --- not supported ---------------------------------------------------------------------------

    @Test
    void utf32AndEbcdicAreRefused() {
        assertThat(failure(new byte[] {0, 0, (byte) 0xFE, (byte) 0xFF, 0, 0, 0, '<'}, "f.xml").reason())
                .isEqualTo("the file starts with a UTF-32 byte order mark (00 00 FE FF); UTF-32 is not supported");
        assertThat(failure(new byte[] {(byte) 0xFF, (byte) 0xFE, 0, 0, '<', 0, 0, 0}, "f.xml").reason())
                .isEqualTo("the file starts with a UTF-32 byte order mark (FF FE 00 00); UTF-32 is not supported");
        assertThat(failure(new byte[] {'<', 0, 0, 0, '?', 0, 0, 0}, "f.xml").reason())
                .isEqualTo("the file starts with '<' in UTF-32 (3C 00 00 00); UTF-32 is not supported");
        FileFailedException ebcdic = failure(new byte[] {0x4C, 0x6F, (byte) 0xA7, (byte) 0x94, 0x40}, "f.xml");
        assertThat(ebcdic.reason()).contains("EBCDIC");
        assertThat(ebcdic.location()).contains(ErrorLocation.ofFile("f.xml").withPosition(1, 1, 0));
    }

    // --- helpers ---------------------------------------------------------------------------------

    private static XmlEncoding sniff(byte[] file) {
        return XmlEncodingSniffer.sniff(Arrays.copyOf(file, 1024), Math.min(file.length, 1024), "f.xml");
    }

    private static FileFailedException failure(byte[] file, String name) {
        return catchThrowableOfType(FileFailedException.class,
                () -> XmlEncodingSniffer.sniff(Arrays.copyOf(file, 1024), Math.min(file.length, 1024), name));
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] utf16be(String s) {
        return s.getBytes(StandardCharsets.UTF_16BE);
    }

    private static byte[] utf16le(String s) {
        return s.getBytes(StandardCharsets.UTF_16LE);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /** The parser said only "Unexpected character (CTRL-CHAR, code 0) in prolog" of such a file. */
    @Test
    void utf16WithNeitherAByteOrderMarkNorADeclarationIsSaidToBeSo() {
        byte[] le = "<persons/>".getBytes(StandardCharsets.UTF_16LE);
        assertThat(failure(le, "f.xml").reason()).startsWith("the file looks like UTF-16LE ('<' as 3C 00) but has "
                + "no byte order mark").contains("FF FE");
        byte[] be = "<persons/>".getBytes(StandardCharsets.UTF_16BE);
        assertThat(failure(be, "f.xml").reason()).startsWith("the file looks like UTF-16BE ('<' as 00 3C)").contains("FE FF");
    }
}
