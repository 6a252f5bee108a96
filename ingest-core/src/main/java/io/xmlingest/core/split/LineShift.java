package io.xmlingest.core.split;

/**
 * Maps the parser's line and column back to the file's after a resume, where the parser counts
 * from the start of the text it was given (the prolog and the reconstructed open elements), not
 * from the start of the file. Before a resume's first record, and without a resume, it maps
 * nothing.
 */
final class LineShift {

    static final LineShift NONE = new LineShift(-1, -1);

    private final int fileLine;
    private final int fileColumn;
    private int parserLine = -1;
    private int parserColumn = -1;

    /** @param fileLine the file's line of the first record read, and {@code fileColumn} its column */
    LineShift(int fileLine, int fileColumn) {
        this.fileLine = fileLine;
        this.fileColumn = fileColumn;
    }

    /** Anchors the mapping at the first record: the parser saw it at {@code line}, {@code column}. */
    void anchor(int line, int column) {
        if (fileLine > 0 && parserLine < 0) {
            parserLine = line;
            parserColumn = column;
        }
    }

    int line(int line) {
        return parserLine < 0 || line <= 0 ? line : fileLine + (line - parserLine);
    }

    int column(int line, int column) {
        return parserLine < 0 || line != parserLine ? column : fileColumn + (column - parserColumn);
    }
}
