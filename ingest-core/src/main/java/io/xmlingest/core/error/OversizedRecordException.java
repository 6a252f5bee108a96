package io.xmlingest.core.error;

import javax.xml.stream.Location;
import javax.xml.stream.XMLStreamException;

/**
 * Thrown from inside a record's reader when the record grows past its size limit. It is an
 * {@link XMLStreamException} so that it passes through a binder reading that reader; the binder
 * turns it into a rejection of that one record, not a failure of the file.
 */
public final class OversizedRecordException extends XMLStreamException {

    private final String settingKey;
    private final String reason;

    public OversizedRecordException(String message, Location location, String settingKey) {
        super(message, location);
        this.settingKey = settingKey;
        this.reason = message;
    }

    /** The message without the "ParseError at [row,col]" lines the stream exception puts around it. */
    public String reason() {
        return reason;
    }

    public String settingKey() {
        return settingKey;
    }

    /**
     * The one record's rejection, worded the same wherever the record was being read.
     *
     * @param record where the record starts: the rejection concerns it whole, and its start is where a
     *               reader of the file goes to find it; the tag at which it grew past the limit is told
     *               in the reason
     */
    public RecordRejectedException rejection(ErrorLocation record) {
        Location at = getLocation();
        String past = at == null || at.getLineNumber() <= 0 ? ""
                : " (it is past that at line " + at.getLineNumber() + ", column " + at.getColumnNumber() + ")";
        return new RecordRejectedException("record is too large: " + reason + past, record, this, settingKey);
    }
}
