package io.xmlingest.core.error;

/**
 * Where in an input file something happened. Unknown parts are negative and left out of
 * {@link #toString()}, so a message never shows a made-up line or record number.
 *
 * @param file        the file's name as the user gave it
 * @param recordIndex 0-based index of the record in the file, or -1 when not inside a record
 * @param line        1-based line, or -1
 * @param column      1-based column, or -1
 * @param byteOffset  0-based byte offset in the file, or -1
 */
public record ErrorLocation(String file, long recordIndex, int line, int column, long byteOffset) {

    public static ErrorLocation ofFile(String file) {
        return new ErrorLocation(file, -1, -1, -1, -1);
    }

    public ErrorLocation withRecordIndex(long index) {
        return new ErrorLocation(file, index, line, column, byteOffset);
    }

    public ErrorLocation withPosition(int line, int column, long byteOffset) {
        return new ErrorLocation(file, recordIndex, line, column, byteOffset);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("file ").append(file);
        if (recordIndex >= 0) {
            s.append(", record index ").append(recordIndex);
        }
        if (line > 0) {
            s.append(", line ").append(line);
            if (column > 0) {
                s.append(", column ").append(column);
            }
        }
        if (byteOffset >= 0) {
            s.append(", byte offset ").append(byteOffset);
        }
        return s.toString();
    }
}
