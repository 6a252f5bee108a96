package io.xmlingest.core.bind;

import static io.xmlingest.core.bind.XsdText.invalid;
import static io.xmlingest.core.bind.XsdText.trim;

import java.util.Base64;
import java.util.HexFormat;

/**
 * Strict parsers for xs:base64Binary and xs:hexBinary. JAXB's base64 decoder skips characters
 * outside the alphabet and stops at stray padding, so "!!!notbase64" binds as the bytes of
 * "notbase6"; here such text is refused.
 */
public final class XsdBinary {
    private XsdBinary() {
    }

    private static final String BASE64_RULE = "groups of four characters of A-Z a-z 0-9 + /, '=' padding only at the end";
    // The last character before padding may only hold as many bits as are left: 2 before "==", 4 before "=".
    private static final String BEFORE_TWO_PADS = "AQgw";
    private static final String BEFORE_ONE_PAD = "AEIMQUYcgkosw048";
    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    /** Whitespace may sit between the characters (whiteSpace=collapse, then single spaces are allowed). */
    public static byte[] parseBase64Binary(String text) {
        String t = withoutSpaces(trim(text));
        int n = t.length();
        if (n % 4 != 0) {
            throw invalid(text, "base64Binary", BASE64_RULE);
        }
        int pads = n > 0 && t.charAt(n - 1) == '=' ? (t.charAt(n - 2) == '=' ? 2 : 1) : 0;
        for (int i = 0; i < n - pads; i++) {
            char c = t.charAt(i);
            if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/')) {
                throw invalid(text, "base64Binary", BASE64_RULE);
            }
        }
        if (pads > 0 && (pads == 2 ? BEFORE_TWO_PADS : BEFORE_ONE_PAD).indexOf(t.charAt(n - pads - 1)) < 0) {
            throw invalid(text, "base64Binary", BASE64_RULE + ", unused bits zero");
        }
        return Base64.getDecoder().decode(t);
    }

    public static String printBase64Binary(byte[] value) {
        return value == null ? null : Base64.getEncoder().encodeToString(value);
    }

    public static byte[] parseHexBinary(String text) {
        String t = trim(text);
        boolean valid = t.length() % 2 == 0;
        for (int i = 0; i < t.length() && valid; i++) {
            valid = HexFormat.isHexDigit(t.charAt(i)) && t.charAt(i) < 128;
        }
        if (!valid) {
            throw invalid(text, "hexBinary", "pairs of hexadecimal digits 0-9 A-F a-f");
        }
        return HEX.parseHex(t);
    }

    public static String printHexBinary(byte[] value) {
        return value == null ? null : HEX.formatHex(value);
    }

    private static String withoutSpaces(String t) {
        if (t.indexOf(' ') < 0 && t.indexOf('\n') < 0 && t.indexOf('\t') < 0 && t.indexOf('\r') < 0) {
            return t;
        }
        StringBuilder out = new StringBuilder(t.length());
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (!XsdText.isSpace(c)) {
                out.append(c);
            }
        }
        return out.toString();
    }
}
