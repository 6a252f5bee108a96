package io.xmlingest.core.error;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

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
        String why;
        if (e instanceof NoSuchFileException) {
            why = "no such file";
        } else if (e instanceof AccessDeniedException) {
            why = "permission denied";
        } else if (e instanceof FileSystemException f && f.getReason() != null) {
            why = f.getReason();
        } else {
            why = e.getMessage() == null ? e.toString() : e.getMessage();
        }
        return new FileFailedException("cannot read the file: " + why, ErrorLocation.ofFile(fileName), null, e);
    }
}
