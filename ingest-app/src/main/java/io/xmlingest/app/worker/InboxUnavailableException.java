package io.xmlingest.app.worker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/**
 * The inbox, or one of the worker's folders in it, cannot be listed or written: removed, replaced,
 * unmounted, its permissions changed. That is the machine's trouble, not a file's, and often a passing
 * one: the worker reports itself unready, waits and looks again, rather than stop (a restart finds the
 * same inbox) or fail a file that did nothing wrong.
 */
final class InboxUnavailableException extends UncheckedIOException {

    InboxUnavailableException(String doing, Path where, IOException cause) {
        super(doing + " " + where.toAbsolutePath() + ": " + describe(cause, where), cause);
    }

    private static String describe(IOException e, Path where) {
        String what = e instanceof NoSuchFileException ? "does not exist"
                : e instanceof AccessDeniedException ? "permission denied"
                : e instanceof NotDirectoryException ? "is not a directory" : null;
        if (what == null) {
            return e.toString();
        }
        // The path the system names is mostly the one already named: then once is enough.
        String file = ((FileSystemException) e).getFile();
        boolean same = file == null || Path.of(file).toAbsolutePath().equals(where.toAbsolutePath());
        return same ? what : file + " " + what;
    }
}
