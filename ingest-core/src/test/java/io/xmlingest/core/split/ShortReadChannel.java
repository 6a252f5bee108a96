package io.xmlingest.core.split;

import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.Random;

/**
 * A channel over bytes in memory that returns random short reads, as a pipe or network file
 * system may, so that multi-byte sequences straddle buffer refills at every possible point.
 */
final class ShortReadChannel implements ReadableByteChannel {

    private final byte[] data;
    private final Random random;
    private final int maxRead;
    private int position;
    private boolean open = true;

    ShortReadChannel(byte[] data, int from, Random random, int maxRead) {
        this.data = data;
        this.position = from;
        this.random = random;
        this.maxRead = maxRead;
    }

    @Override
    public int read(ByteBuffer dst) {
        if (position == data.length) {
            return -1;
        }
        int n = Math.min(Math.min(dst.remaining(), data.length - position), 1 + random.nextInt(maxRead));
        dst.put(data, position, n);
        position += n;
        return n;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() {
        open = false;
    }
}
