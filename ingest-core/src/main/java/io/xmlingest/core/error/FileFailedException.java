package io.xmlingest.core.error;

import java.io.IOException;

/**
 * The file cannot be read any further: it is not well-formed, trips a processing limit, or a
 * record could not be published. Pages published before the fault stay published.
 */
public final class FileFailedException extends IngestException {
    public FileFailedException(String reason, ErrorLocation location, String settingKey, Throwable cause) {
        super(reason, location, settingKey, cause);
    }

    /**
     * The file could not be read at all. Java's message for a missing file is the path alone
     * ("cannot read: x.xml" said nothing of why), so the usual causes are named.
     */
    public static FileFailedException unreadable(String fileName, IOException e) {
        return new FileFailedException("cannot read the file: " + IoProblems.why(e), ErrorLocation.ofFile(fileName), null,
                e);
    }
}
