package io.xmlingest.core.split;

import java.io.Closeable;
import java.io.IOException;

/**
 * The plain bytes a compressed file holds, read in order, its framing and checksums checked as they
 * go by: a fault is a {@link java.util.zip.ZipException} or an {@link java.io.EOFException}.
 */
interface CompressedStream extends Closeable {

    /** As {@link java.io.InputStream#read(byte[], int, int)}: -1 once every byte is read and checked. */
    int read(byte[] b, int off, int len) throws IOException;

    /** The size the file says its content has before any of it is read, or -1 where it does not say. */
    default long declaredSize() {
        return -1;
    }

    /** Where in the file reading is, for an error's message ("at compressed byte 512 of 4096"). */
    String where();

    /** Releases the inflater's native memory. */
    @Override
    void close();
}
