package io.xmlingest.core.split;

/**
 * Counts lines and columns over a file's decoded text as the parser numbers them, for the places
 * that must work a position out again from raw text (a bad byte the parser never saw, an event of
 * a copied record). CR LF is one line end, a lone CR or LF one each; in an XML 1.1 file NEL and
 * LSEP are line ends too, and CR NEL is one, as {@link ByteTrackingReader} hands them to the parser.
 */
final class LineCounter {

    private final boolean xml11;
    private int line;
    private int column;
    private boolean afterCr;

    LineCounter(int line, int column, boolean xml11) {
        this.line = line;
        this.column = column;
        this.xml11 = xml11;
    }

    void add(char c) {
        boolean nel = xml11 && c == '\u0085';
        if (afterCr && (c == '\n' || nel)) {
            afterCr = false;
        } else if (c == '\n' || c == '\r' || nel || (xml11 && c == '\u2028')) {
            line++;
            column = 1;
            afterCr = c == '\r';
        } else {
            column++;
            afterCr = false;
        }
    }

    int line() {
        return line;
    }

    int column() {
        return column;
    }
}
