package io.xmlingest.core.error;

/** Something outside the input failed (the broker is unreachable, a timeout); the same work may succeed later. */
public final class RetriableIngestException extends IngestException {
    public RetriableIngestException(String reason, ErrorLocation location, String settingKey, Throwable cause) {
        super(reason, location, settingKey, cause);
    }
}
