package io.xmlingest.core.split;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;

/**
 * A file's bytes up to a given end, read from where its channel stands: the part of a file that its
 * identity was taken over. A file still being written grows after it was hashed, and what was read
 * past the hashed length was published under a file id that did not cover it.
 */
final class BoundedChannel implements ReadableByteChannel {
    private final FileChannel channel;
    private final long end;

    private BoundedChannel(FileChannel channel, long end) {
        this.channel = channel;
        this.end = end;
    }

    /** The channel as it is when there is no end to keep to. */
    static ReadableByteChannel of(FileChannel channel, long end) {
        return end == Long.MAX_VALUE ? channel : new BoundedChannel(channel, end);
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        long left = end - channel.position();
        if (left <= 0) {
            return -1;
        }
        if (dst.remaining() <= left) {
            return channel.read(dst);
        }
        int limit = dst.limit();
        dst.limit(dst.position() + (int) left);
        try {
            return channel.read(dst);
        } finally {
            dst.limit(limit);
        }
    }

    @Override
    public boolean isOpen() {
        return channel.isOpen();
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
