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

    /** The one record's rejection, worded the same wherever the record was being read. */
    public RecordRejectedException rejection(ErrorLocation where) {
        return new RecordRejectedException("record is too large: " + reason, where, this, settingKey);
    }
}
