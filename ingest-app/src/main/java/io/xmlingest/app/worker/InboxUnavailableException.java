package io.xmlingest.app.worker;

import io.xmlingest.core.error.IoProblems;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;

/**
 * The inbox, or one of the worker's folders in it, cannot be listed or written: removed, replaced,
 * unmounted, its permissions changed, its disk full. That is the machine's trouble, not a file's,
 * and often a passing one: the worker reports itself unready, waits and looks again, rather than
 * stop (a restart finds the same inbox) or fail a file that did nothing wrong.
 */
final class InboxUnavailableException extends UncheckedIOException {

    InboxUnavailableException(String doing, Path where, IOException cause) {
        super(doing + " " + where.toAbsolutePath() + ": " + describe(cause, where), cause);
    }

    InboxUnavailableException(String message) {
        super(message, new IOException(message));
    }

    private static String describe(IOException e, Path where) {
        // The path the system names is mostly the one already named, or a file in that folder (a report's temporary
        // copy, of a new name at every try, which made the worker's once-only warning a new one every second): then
        // the folder once is enough.
        String file = e instanceof FileSystemException f ? f.getFile() : null;
        Path named = file == null ? null : Path.of(file).toAbsolutePath();
        boolean same = named == null || named.equals(where.toAbsolutePath())
                || where.toAbsolutePath().equals(named.getParent());
        return (same ? "" : file + ": ") + IoProblems.why(e);
    }
}
