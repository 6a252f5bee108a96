package io.xmlingest.core.error;

/**
 * The file cannot be read any further: it is not well-formed, trips a processing limit, or a
 * record could not be published. Pages published before the fault stay published.
 */
public final class FileFailedException extends IngestException {
    public FileFailedException(String reason, ErrorLocation location, String settingKey, Throwable cause) {
        super(reason, location, settingKey, cause);
    }
}
