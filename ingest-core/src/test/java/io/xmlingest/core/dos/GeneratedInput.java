package io.xmlingest.core.dos;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** A document streamed from a prefix, one chunk repeated, and a suffix: huge inputs without huge memory or files. */
final class GeneratedInput extends InputStream {

    private final byte[][] parts;
    private final long[] repeats;
    private int part;
    private long done;
    private int pos;

    GeneratedInput(String prefix, String chunk, long chunkRepeats, String suffix) {
        this.parts = new byte[][] {bytes(prefix), bytes(chunk), bytes(suffix)};
        this.repeats = new long[] {1, chunkRepeats, 1};
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public int read() {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        while (part < parts.length && (done >= repeats[part] || parts[part].length == 0)) {
            part++;
            done = 0;
            pos = 0;
        }
        if (part >= parts.length) {
            return -1;
        }
        byte[] p = parts[part];
        int n = Math.min(len, p.length - pos);
        System.arraycopy(p, pos, b, off, n);
        pos += n;
        if (pos == p.length) {
            pos = 0;
            done++;
        }
        return n;
    }
}
