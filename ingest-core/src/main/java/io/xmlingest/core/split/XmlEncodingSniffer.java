package io.xmlingest.core.split;

import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.FileFailedException;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.Arrays;

/**
 * Decides a file's encoding from its first bytes, as XML 1.0 appendix F describes: a byte order
 * mark, else the byte pattern of {@code <?}, then the XML declaration's encoding, which must agree
 * with what the bytes show. We decode the file ourselves (to know byte offsets), so a declaration
 * that lies must be caught here: no parser gets another look at the bytes.
 */
public final class XmlEncodingSniffer {
    private XmlEncodingSniffer() {
    }

    // Every byte an XML declaration can hold; an ASCII-compatible charset encodes them as ASCII does.
    private static final String ASCII_PROBE = "<?xml version=\"1.0\" encoding='UTF-8' standalone=\"yes\"?>\t\r\n"
            + "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-:/#&;[]()!";

    private static final XmlEncoding UTF_8 = new XmlEncoding(StandardCharsets.UTF_8, 0);

    /** What the first bytes show, before any declaration is read. */
    private enum Family { SINGLE_BYTE, UTF_8_BOM, UTF_16 }

    /**
     * @param head     the file's first bytes; 1024 leave room for any sensible XML declaration
     * @param length   how many of them are valid (fewer than asked for when the file is short)
     * @param fileName the name used in errors
     */
    public static XmlEncoding sniff(byte[] head, int length, String fileName) {
        if (length == 0) {
            return UTF_8; // the parser reports the empty document
        }
        rejectUnsupported(head, length, fileName);
        if (startsWith(head, length, 0xEF, 0xBB, 0xBF)) {
            return withDeclaration(head, length, fileName, Family.UTF_8_BOM, new XmlEncoding(StandardCharsets.UTF_8, 3),
                    "the file starts with the UTF-8 byte order mark EF BB BF");
        }
        if (startsWith(head, length, 0xFE, 0xFF)) {
            return withDeclaration(head, length, fileName, Family.UTF_16, new XmlEncoding(StandardCharsets.UTF_16BE, 2),
                    "the file is UTF-16BE (byte order mark FE FF)");
        }
        if (startsWith(head, length, 0xFF, 0xFE)) {
            return withDeclaration(head, length, fileName, Family.UTF_16, new XmlEncoding(StandardCharsets.UTF_16LE, 2),
                    "the file is UTF-16LE (byte order mark FF FE)");
        }
        if (startsWith(head, length, 0x00, 0x3C, 0x00, 0x3F)) {
            return withDeclaration(head, length, fileName, Family.UTF_16, new XmlEncoding(StandardCharsets.UTF_16BE, 0),
                    "the file starts with '<?' in UTF-16BE (00 3C 00 3F)");
        }
        if (startsWith(head, length, 0x3C, 0x00, 0x3F, 0x00)) {
            return withDeclaration(head, length, fileName, Family.UTF_16, new XmlEncoding(StandardCharsets.UTF_16LE, 0),
                    "the file starts with '<?' in UTF-16LE (3C 00 3F 00)");
        }
        return withDeclaration(head, length, fileName, Family.SINGLE_BYTE, UTF_8,
                "the file starts with single-byte '<?xml'");
    }

    private static void rejectUnsupported(byte[] head, int length, String fileName) {
        String what = null;
        if (startsWith(head, length, 0x00, 0x00, 0xFE, 0xFF) || startsWith(head, length, 0xFF, 0xFE, 0x00, 0x00)) {
            what = "the file starts with a UTF-32 byte order mark (" + hex(head, 4) + "); UTF-32 is not supported";
        } else if (startsWith(head, length, 0x00, 0x00, 0x00, 0x3C) || startsWith(head, length, 0x3C, 0x00, 0x00, 0x00)) {
            what = "the file starts with '<' in UTF-32 (" + hex(head, 4) + "); UTF-32 is not supported";
        } else if (length >= 4 && head[0] == 0x3C && head[1] == 0 && head[2] != 0 && head[2] != 0x3F && head[3] == 0) {
            // The parser saw a '<' and then a NUL, and said only that ("CTRL-CHAR, code 0 in prolog").
            what = "the file looks like UTF-16LE ('<' as 3C 00) but has no byte order mark, which XML requires of a "
                    + "UTF-16 file without a declaration: write it with the byte order mark FF FE";
        } else if (length >= 4 && head[0] == 0 && head[1] == 0x3C && head[2] == 0 && head[3] != 0 && head[3] != 0x3F) {
            what = "the file looks like UTF-16BE ('<' as 00 3C) but has no byte order mark, which XML requires of a "
                    + "UTF-16 file without a declaration: write it with the byte order mark FE FF";
        } else if (startsWith(head, length, 0x4C, 0x6F, 0xA7, 0x94)) {
            what = "the file starts with '<?xm' in EBCDIC (4C 6F A7 94); EBCDIC encodings are not supported";
        }
        if (what != null) {
            throw new FileFailedException(what, ErrorLocation.ofFile(fileName).withPosition(1, 1, 0), null, null);
        }
    }

    /**
     * Reads the declaration in the text the family implies and checks what it says against
     * {@code detected}; {@code evidence} says what the bytes showed, for the error message.
     */
    private static XmlEncoding withDeclaration(byte[] head, int length, String fileName, Family family,
                                               XmlEncoding detected, String evidence) {
        int unit = family == Family.UTF_16 ? 2 : 1;
        int bom = detected.bomLength();
        // Declarations are ASCII; Latin-1 maps any byte to one char, so offsets stay byte offsets.
        Charset textCharset = family == Family.UTF_16 ? detected.charset() : StandardCharsets.ISO_8859_1;
        String text = new String(head, bom, (length - bom) / unit * unit, textCharset);
        XmlDeclaration.Encoding declared = XmlDeclaration.encodingOf(text);
        boolean xml11 = XmlDeclaration.isXml11(text);
        if (declared == null) {
            if (XmlDeclaration.isCutShort(text)) {
                throw failure("the XML declaration does not end within the first " + length
                        + " bytes, so its encoding cannot be read", fileName, text, text.length(), bom, unit);
            }
            return detected.asXml11(xml11);
        }
        String name = declared.name();
        int at = declared.index();
        Charset charset = resolve(name, fileName, text, at, bom, unit);
        boolean agrees = switch (family) {
            case UTF_8_BOM -> charset.equals(StandardCharsets.UTF_8);
            case UTF_16 -> charset.equals(StandardCharsets.UTF_16) || charset.equals(detected.charset());
            case SINGLE_BYTE -> isAsciiCompatible(charset);
        };
        if (!agrees) {
            throw failure("the XML declaration says encoding " + name + " but " + evidence, fileName, text, at, bom, unit);
        }
        if (family != Family.SINGLE_BYTE) {
            return detected.asXml11(xml11); // "UTF-16" means the byte order the bytes show
        }
        if (!ByteTrackingReader.tracksOffsetsOf(charset)) {
            throw failure("encoding " + name + " is not supported: its bytes for a character depend on the bytes"
                    + " before it, so byte offsets cannot be tracked", fileName, text, at, bom, unit);
        }
        return new XmlEncoding(charset, 0, xml11);
    }

    private static Charset resolve(String name, String fileName, String text, int at, int bom, int unit) {
        if (!XmlDeclaration.isEncodingName(name)) {
            throw failure("the XML declaration's encoding '" + name + "' is not a valid encoding name",
                    fileName, text, at, bom, unit);
        }
        try {
            return Charset.forName(name);
        } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
            throw new FileFailedException("the XML declaration says encoding " + name + ", which is not supported",
                    position(fileName, text, at, bom, unit), null, e);
        }
    }

    private static boolean isAsciiCompatible(Charset charset) {
        if (!charset.canEncode()) {
            return false;
        }
        byte[] ascii = ASCII_PROBE.getBytes(StandardCharsets.US_ASCII);
        return Arrays.equals(ASCII_PROBE.getBytes(charset), ascii);
    }

    private static FileFailedException failure(String reason, String fileName, String text, int at, int bom, int unit) {
        return new FileFailedException(reason, position(fileName, text, at, bom, unit), null, null);
    }

    /** Line, column and byte offset of char {@code at} of the declaration's text. */
    private static ErrorLocation position(String fileName, String text, int at, int bom, int unit) {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < at; i++) {
            if (text.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return ErrorLocation.ofFile(fileName).withPosition(line, at - lineStart + 1, bom + (long) at * unit);
    }

    private static boolean startsWith(byte[] head, int length, int... prefix) {
        if (length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if ((head[i] & 0xff) != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private static String hex(byte[] head, int n) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < n; i++) {
            s.append(i == 0 ? "" : " ").append(String.format("%02X", head[i] & 0xff));
        }
        return s.toString();
    }
}
