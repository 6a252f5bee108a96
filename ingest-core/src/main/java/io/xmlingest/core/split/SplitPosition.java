package io.xmlingest.core.split;

/**
 * Where a record starts in its file.
 *
 * @param recordIndex 0-based index of the record among the file's records
 * @param line        1-based line of the record's start tag
 * @param column      1-based column of the record's start tag
 * @param byteOffset  0-based byte offset of the record's start tag, or -1 if the source is not a byte stream
 */
public record SplitPosition(long recordIndex, int line, int column, long byteOffset) {
}
