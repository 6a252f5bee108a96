package io.xmlingest.core.error;

/** One record cannot be turned into a message (it does not bind, or a required value is missing); skip it. */
public final class RecordRejectedException extends IngestException {
    public RecordRejectedException(String reason, ErrorLocation location, Throwable cause) {
        super(reason, location, null, cause);
    }

    /** A rejection because of a limit: the message names the setting that controls it. */
    public RecordRejectedException(String reason, ErrorLocation location, Throwable cause, String settingKey) {
        super(reason, location, settingKey, cause);
    }
}
