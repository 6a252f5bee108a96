package io.xmlingest.core.error;

/** One record cannot be turned into a message (it does not bind, or a required value is missing); skip it. */
public final class RecordRejectedException extends IngestException {
    public RecordRejectedException(String reason, ErrorLocation location, Throwable cause) {
        super(reason, location, null, cause);
    }
}
