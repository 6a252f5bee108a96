package io.xmlingest.core.split;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Remembers where in the file the recently decoded characters came from, so that a character
 * offset the parser reports can be turned back into a byte offset.
 *
 * <p>Decoded text arrives in chunks (one per read), each with the exact number of bytes the
 * decoder consumed for it. Where a chunk's bytes are a fixed multiple of its characters (ASCII in
 * a single-byte-compatible charset, or UTF-16 without surrogates), the mapping is a multiplication
 * and nothing else is kept; consecutive chunks of the same kind are merged, so an ASCII file needs
 * one chunk. Otherwise the chunk's characters are copied into a ring, and a lookup adds up the
 * bytes of the characters before the one asked for.
 *
 * <p>Memory is bounded: chunks wholly more than {@code retainChars} characters behind the newest
 * are dropped, and the ring holds {@code retainChars} plus one chunk's worth of characters.
 */
final class ByteOffsetMap {

    private static final byte ONE_BYTE = 0;
    private static final byte TWO_BYTES = 1;
    private static final byte UTF_8 = 2;
    private static final byte ENCODED = 3;

    private final Charset charset;
    private final boolean utf8;
    private final boolean utf16;
    private final int retainChars;
    private final int maxChunkChars;

    // The chunks, oldest first, in a ring that doubles when full. A chunk ends where the next one
    // starts (the newest at charsRecorded), so no lengths are stored.
    private long[] chunkChar = new long[16];
    private long[] chunkByte = new long[16];
    private byte[] chunkKind = new byte[16];
    private int head;
    private int size;

    private long charsRecorded;
    private long nextByte;

    // Characters of the non-linear chunks, at index (absolute char offset & ringMask). Allocated on
    // the first such chunk, so ASCII and UTF-16 files never pay for it.
    private char[] ring;
    private int ringMask;

    // Where the last per-character sum stopped, so that increasing lookups in one chunk do not start over.
    private long cachedChunk = -1;
    private long cachedChar;
    private long cachedByte;

    private CharsetEncoder encoder;
    private char[] scratchChars;
    private ByteBuffer scratchBytes;

    ByteOffsetMap(Charset charset, long startByte, int retainChars, int maxChunkChars) {
        this.charset = charset;
        this.utf8 = charset.equals(StandardCharsets.UTF_8);
        this.utf16 = charset.equals(StandardCharsets.UTF_16BE) || charset.equals(StandardCharsets.UTF_16LE);
        this.retainChars = retainChars;
        this.maxChunkChars = maxChunkChars;
        this.nextByte = startByte;
    }

    long charsRecorded() {
        return charsRecorded;
    }

    long nextByte() {
        return nextByte;
    }

    int chunkCount() {
        return size;
    }

    /** Records that {@code chars[off, off + n)} were decoded from the next {@code bytes} bytes. */
    void record(char[] chars, int off, int n, long bytes) {
        if (n <= 0 || n > maxChunkChars) {
            throw new IllegalArgumentException("chunk of " + n + " chars; 1 to " + maxChunkChars + " allowed");
        }
        byte kind = bytes == n ? ONE_BYTE
                : utf16 && bytes == 2L * n ? TWO_BYTES
                : utf8 ? UTF_8 : ENCODED;
        boolean linear = kind == ONE_BYTE || kind == TWO_BYTES;
        if (!linear) {
            copyToRing(chars, off, n);
        }
        // A linear chunk right after one of the same kind continues its arithmetic: nothing to add.
        if (!(linear && size > 0 && chunkKind[slot(size - 1)] == kind)) {
            append(charsRecorded, nextByte, kind);
        }
        charsRecorded += n;
        nextByte += bytes;
        evict();
    }

    /**
     * The absolute byte offset where character {@code charIndex} begins, or -1 if it has not been
     * recorded, is more than {@code retainChars} behind, or (only for charsets other than UTF-8
     * and UTF-16) its text does not encode back to the same length. The low half of a surrogate
     * pair begins nowhere; for it the answer lies after the pair's first byte and at most at its end.
     */
    long byteOffsetOf(long charIndex) {
        if (charIndex < 0 || charIndex >= charsRecorded || charIndex < charsRecorded - retainChars) {
            return -1;
        }
        int c = find(charIndex);
        long start = chunkChar[c];
        long base = chunkByte[c];
        return switch (chunkKind[c]) {
            case ONE_BYTE -> base + (charIndex - start);
            case TWO_BYTES -> base + 2 * (charIndex - start);
            default -> summed(start, base, charIndex, chunkKind[c] == UTF_8);
        };
    }

    private long summed(long chunkStart, long chunkBase, long charIndex, boolean isUtf8) {
        long from = chunkStart;
        long bytes = chunkBase;
        if (cachedChunk == chunkStart && cachedChar <= charIndex) {
            from = cachedChar;
            bytes = cachedByte;
        }
        long to = charIndex;
        if (isUtf8) {
            bytes += utf8Length(from, to);
        } else {
            // An encoder cannot encode half a pair; count to the pair's end instead.
            if (to > chunkStart && Character.isLowSurrogate(ring[(int) (to & ringMask)])) {
                to++;
            }
            long n = encodedLength(from, to);
            if (n < 0) {
                return -1;
            }
            bytes += n;
        }
        cachedChunk = chunkStart;
        cachedChar = to;
        cachedByte = bytes;
        return bytes;
    }

    /** UTF-8 bytes of ring[from, to): a pair's four bytes are counted on its high half. */
    private long utf8Length(long from, long to) {
        long n = 0;
        for (long i = from; i < to; i++) {
            char ch = ring[(int) (i & ringMask)];
            if (ch < 0x80) {
                n += 1;
            } else if (ch < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(ch)) {
                n += 4;
            } else if (!Character.isLowSurrogate(ch)) {
                n += 3;
            }
        }
        return n;
    }

    private long encodedLength(long from, long to) {
        int n = (int) (to - from);
        if (n == 0) {
            return 0;
        }
        if (encoder == null) {
            encoder = charset.newEncoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT);
            scratchBytes = ByteBuffer.allocate(4096);
        }
        if (scratchChars == null || scratchChars.length < n) {
            scratchChars = new char[Math.max(n, 1024)];
        }
        for (int i = 0; i < n; i++) {
            scratchChars[i] = ring[(int) ((from + i) & ringMask)];
        }
        CharBuffer in = CharBuffer.wrap(scratchChars, 0, n);
        encoder.reset();
        long total = 0;
        boolean flushing = false;
        while (true) {
            scratchBytes.clear();
            CoderResult r = flushing ? encoder.flush(scratchBytes) : encoder.encode(in, scratchBytes, true);
            total += scratchBytes.position();
            if (r.isError()) {
                return -1;
            }
            if (r.isUnderflow()) {
                if (flushing) {
                    return total;
                }
                flushing = true;
            }
        }
    }

    private int find(long charIndex) {
        int newest = slot(size - 1);
        if (chunkChar[newest] <= charIndex) {
            return newest;
        }
        int lo = 0;
        int hi = size - 1; // chunk hi starts after charIndex
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (chunkChar[slot(mid)] <= charIndex) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return slot(lo);
    }

    private void append(long charStart, long byteStart, byte kind) {
        if (size == chunkChar.length) {
            grow();
        }
        int s = slot(size);
        chunkChar[s] = charStart;
        chunkByte[s] = byteStart;
        chunkKind[s] = kind;
        size++;
    }

    private void evict() {
        long keepFrom = charsRecorded - retainChars;
        // The oldest chunk goes once the next one starts at or before the window's start.
        while (size > 1 && chunkChar[slot(1)] <= keepFrom) {
            head = slot(1);
            size--;
        }
    }

    private void grow() {
        int cap = chunkChar.length * 2;
        long[] chars = new long[cap];
        long[] bytes = new long[cap];
        byte[] kinds = new byte[cap];
        for (int i = 0; i < size; i++) {
            int s = slot(i);
            chars[i] = chunkChar[s];
            bytes[i] = chunkByte[s];
            kinds[i] = chunkKind[s];
        }
        chunkChar = chars;
        chunkByte = bytes;
        chunkKind = kinds;
        head = 0;
    }

    private int slot(int i) {
        return (head + i) & (chunkChar.length - 1);
    }

    private void copyToRing(char[] chars, int off, int n) {
        if (ring == null) {
            // Big enough that any chunk holding a char within the window is still whole in the ring.
            int cap = Integer.highestOneBit(retainChars + maxChunkChars - 1) << 1;
            ring = new char[cap];
            ringMask = cap - 1;
        }
        int at = (int) (charsRecorded & ringMask);
        int first = Math.min(n, ring.length - at);
        System.arraycopy(chars, off, ring, at, first);
        System.arraycopy(chars, off + first, ring, 0, n - first);
    }
}
