package io.xmlingest.core.error;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/** Why a file could not be read or written, in words: Java's own messages are often the path alone. */
public final class IoProblems {
    private IoProblems() {
    }

    /** The reason for {@code e}, or for the first I/O failure among its causes. */
    public static String why(Throwable e) {
        Throwable io = Causes.find(e, IOException.class::isInstance);
        if (io == null) {
            return e.getMessage() == null ? e.toString() : e.getMessage();
        }
        if (io instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (io instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (io instanceof NotDirectoryException) {
            return "not a directory";
        }
        if (io instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return io.getMessage() == null ? io.toString() : io.getMessage();
    }
}
