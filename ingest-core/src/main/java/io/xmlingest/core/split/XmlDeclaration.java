package io.xmlingest.core.split;

/**
 * Finds the encoding and version pseudo-attributes of an XML declaration. Anything else wrong
 * with the declaration is left for the parser to report, with its own position.
 */
final class XmlDeclaration {
    private XmlDeclaration() {
    }

    /** The declared name and the index of its first char in the text. */
    record Encoding(String name, int index) {
    }

    /** The declared encoding, or null if there is no declaration or it declares none. */
    static Encoding encodingOf(String text) {
        return pseudoAttribute(text, "encoding");
    }

    /** Whether the declaration says version 1.1, whose line ends and control characters differ from 1.0's. */
    static boolean isXml11(String text) {
        Encoding version = pseudoAttribute(text, "version");
        return version != null && version.name().equals("1.1");
    }

    private static Encoding pseudoAttribute(String text, String wanted) {
        if (!isDeclaration(text)) {
            return null;
        }
        int end = text.indexOf("?>");
        if (end < 0) {
            end = text.length();
        }
        int i = 5;
        while (true) {
            i = skipSpace(text, i, end);
            int nameStart = i;
            while (i < end && isAsciiLetter(text.charAt(i))) {
                i++;
            }
            if (i == nameStart) {
                return null;
            }
            String name = text.substring(nameStart, i);
            i = skipSpace(text, i, end);
            if (i >= end || text.charAt(i) != '=') {
                return null;
            }
            i = skipSpace(text, i + 1, end);
            if (i >= end || (text.charAt(i) != '"' && text.charAt(i) != '\'')) {
                return null;
            }
            int close = text.indexOf(text.charAt(i), i + 1);
            if (close < 0 || close >= end) {
                return null;
            }
            if (name.equals(wanted)) {
                return new Encoding(text.substring(i + 1, close), i + 1);
            }
            i = close + 1;
        }
    }

    /** A declaration begins but does not end within the text, so what it declares may be missing. */
    static boolean isCutShort(String text) {
        return isDeclaration(text) && text.indexOf("?>") < 0;
    }

    /** XML's EncName: a letter, then letters, digits, '.', '_' and '-'. */
    static boolean isEncodingName(String name) {
        if (name.isEmpty() || !isAsciiLetter(name.charAt(0))) {
            return false;
        }
        for (int i = 1; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!isAsciiLetter(c) && !(c >= '0' && c <= '9') && c != '.' && c != '_' && c != '-') {
                return false;
            }
        }
        return true;
    }

    // "<?xml-stylesheet ...?>" is a processing instruction, not a declaration.
    private static boolean isDeclaration(String text) {
        return text.length() > 5 && text.startsWith("<?xml") && isSpace(text.charAt(5));
    }

    private static int skipSpace(String text, int i, int end) {
        while (i < end && isSpace(text.charAt(i))) {
            i++;
        }
        return i;
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n';
    }

    private static boolean isAsciiLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }
}
