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
     * Where a file failed because of {@code record}: the fault's own place when it has a line (a value inside the
     * record), as the record's rejection said it, else {@code recordStart}. The record's start, given alone, pointed
     * elsewhere than the rejection logged just before.
     */
    public static ErrorLocation atFaultOf(IngestException record, ErrorLocation recordStart) {
        return record.location().filter(l -> l.line() > 0).orElse(recordStart);
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
