package io.xmlingest.core.split;

import io.xmlingest.core.error.FileFailedException;
import io.xmlingest.core.error.RecordRejectedException;
import java.io.Closeable;
import java.util.Map;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * A cursor over the records of one file. Reading a record is the caller's business: after
 * {@link #next()} returns true, {@link #record()} is a reader positioned on the record's start
 * tag that ends after the record's end tag. Whatever the caller did with it, the next call to
 * {@link #next()} continues after that record.
 *
 * <p>Failures are {@link io.xmlingest.core.error.FileFailedException}s: the file cannot be read further.
 */
public interface RecordSplitter extends Closeable {

    /** Moves to the next record; false at the end of the document. */
    boolean next();

    /** Where the current record starts. */
    SplitPosition position();

    /**
     * The current record as a reader that ends with its end tag.
     *
     * @throws io.xmlingest.core.error.RecordRejectedException the record is refused before it is bound (too large)
     */
    XMLStreamReader record();

    /**
     * Once the current record was read to its end tag through {@link #record()}: where it is in the
     * file, to read its raw text back later from any thread (for a dead letter).
     */
    default RawRecord.Source rawLater() {
        return RawRecord.Source.NONE;
    }

    /**
     * After the caller rejected the current record while reading it through {@link #record()}, before its
     * end tag: reads on to the end tag, checking the record's size as a copy does, and returns the rejection
     * a copy would have made had the record been too large, or null. A copy is checked whole before
     * anything binds it, so a record both too large and unbindable is rejected as too large whichever way
     * it was read.
     */
    default RecordRejectedException restTooLarge() {
        return null;
    }

    /**
     * A fault of the parser met while the caller read the current record through {@link #record()},
     * told as this splitter tells its own (where in the file, the record, the byte offset where known),
     * so that a record read straight off the parser fails the file as one copied would.
     */
    FileFailedException fault(XMLStreamException e);

    /**
     * Where reading could restart at the current record, or null when this splitter cannot tell
     * (its input is not a file, or the file's encoding maps characters to bytes in a way it does not track).
     */
    default ResumePoint resumePoint() {
        return null;
    }

    /** The name {@link #passedOver()} counts text beside the records under; no element's name can be it. */
    String PASSED_TEXT = "#text";

    /**
     * The elements read so far beside the records (children of an element at the path of a record's
     * parent, before the first record too; not an element at a record's depth under another parent) that
     * are no record element, by name ({namespace}local), with how many of each, and the texts there
     * that are not white space, under {@link #PASSED_TEXT}; at most 20 names, the rest counted under
     * "others". A misspelt or wrongly qualified record is among them: it is not a record, so nothing
     * else would say it was passed over. Safe to ask from another thread once reading has ended.
     */
    default Map<String, Long> passedOver() {
        return Map.of();
    }

    /**
     * Reads the current record, from its start tag, into a copy another thread can bind; the
     * next {@link #next()} continues after it.
     *
     * @throws io.xmlingest.core.error.RecordRejectedException the record is refused as it is read (too large)
     */
    CapturedRecord capture();

    /**
     * Reads the rest of the current record without binding it, and returns its raw text when it
     * is at most {@code maxBytes} long. The next {@link #next()} continues after it.
     */
    default RawRecord raw(long maxBytes) {
        return new RawRecord(-1, -1, null);
    }

    /** Bytes taken from the file so far, including the parser's read-ahead: for progress, not for seeking. */
    long bytesRead();

    @Override
    void close();
}
