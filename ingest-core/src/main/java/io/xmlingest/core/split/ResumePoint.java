package io.xmlingest.core.split;

/**
 * Everything needed to start reading a file at one of its records without reading what comes
 * before: the record's byte offset, and what the parser would have known by then. That is the
 * prolog (the bytes before the root element: XML declaration, DOCTYPE and its entities) and
 * the start tags of the elements open around the record, with their namespace declarations.
 *
 * @param recordIndex  index of the record that starts at {@code byteOffset}
 * @param byteOffset   offset of the record's start tag
 * @param line         1-based line of that start tag
 * @param column       1-based column of that start tag
 * @param prologEnd    offset where the root element's start tag begins
 * @param openElements the enclosing start tags, outermost first, as XML text
 */
public record ResumePoint(long recordIndex, long byteOffset, int line, int column, long prologEnd,
                          String openElements) {
}
