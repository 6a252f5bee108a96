package io.xmlingest.core.split;

import java.io.IOException;
import java.io.Reader;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Objects;

/**
 * Decodes a file for the parser and remembers which bytes each character came from. Woodstox,
 * given bytes, decodes them itself and reports only character offsets; given this reader, it still
 * reports character offsets, and {@link #byteOffsetOf(long)} turns those into the byte offsets a
 * resume can seek to.
 *
 * <p>Bad bytes are reported by {@link InvalidEncodingException} at their exact offset, and only
 * after every character before them has been delivered, so the parser has seen all good text and
 * whatever it reports about that text comes first.
 *
 * <p>Woodstox's own decoders also refuse the noncharacters U+FFFE and U+FFFF, which XML allows
 * in no version, and in an XML 1.1 file turn NEL (U+0085) and LSEP (U+2028) into line feeds and
 * refuse raw C1 controls and DEL, which 1.1 allows only as references; the parser leaves all
 * that to its decoder, so this reader does it, at the character's byte offset.
 *
 * <p>The charset must be stateless (a character's bytes do not depend on what came before):
 * UTF-8, UTF-16BE/LE, single-byte and the usual double-byte charsets are; ISO-2022 is not, and
 * plain UTF-16 would guess its byte order, so neither is accepted. The channel must be blocking.
 * Like the parser that reads it, a reader is used by one thread.
 */
public final class ByteTrackingReader extends Reader {

    /**
     * The parser reports a start tag's offset only once it has read the whole tag and some text
     * beyond, so the window must cover the longest start tag expected plus the parser's read-ahead
     * (Woodstox: 4000 chars). Lookups further back return -1.
     */
    public static final int DEFAULT_RETAIN_CHARS = 256 * 1024;

    // Reads deliver at most this much, which bounds what one chunk keeps in the map's ring.
    static final int MAX_READ_CHARS = 64 * 1024;
    private static final int BUFFER_BYTES = 64 * 1024;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final ReadableByteChannel in;
    private final String fileName;
    private final CharsetDecoder decoder;
    private final boolean utf8;
    private final boolean xml11;
    /** The chars of this read came through the JDK's decoder (or the file is XML 1.1): they are vetted. */
    private boolean vet;
    /** The last char of the last vetted read, which an XML 1.1 line end may depend on. */
    private char lastDelivered;
    private final ByteOffsetMap map;
    private final ByteBuffer bytes = ByteBuffer.allocate(BUFFER_BYTES).flip();

    /** Absolute offset of the next byte the decoder has not consumed. */
    private long consumed;
    private boolean endOfInput;
    private boolean flushing;
    private boolean finished;
    private boolean closed;

    // A pair decoded when the caller had room for one char: its low half goes out on the next read.
    private final CharBuffer pair = CharBuffer.allocate(2);
    private boolean lowPending;

    // Reported once every char before it is out, then on every read after.
    private String failureMessage;
    private long failureOffset;

    // Woodstox reads into the same array every time; wrapping it once saves an object per read.
    private char[] wrappedArray;
    private CharBuffer wrapped;
    private final char[] single = new char[1];

    public ByteTrackingReader(ReadableByteChannel in, long startByte, Charset charset, String fileName) {
        this(in, startByte, charset, fileName, DEFAULT_RETAIN_CHARS);
    }

    /** A reader for a file whose encoding (and XML version) the sniffer found. */
    public ByteTrackingReader(ReadableByteChannel in, long startByte, XmlEncoding encoding, String fileName) {
        this(in, startByte, encoding.charset(), fileName, DEFAULT_RETAIN_CHARS, encoding.xml11());
    }

    public ByteTrackingReader(ReadableByteChannel in, long startByte, Charset charset, String fileName, int retainChars) {
        this(in, startByte, charset, fileName, retainChars, false);
    }

    /**
     * @param in          positioned at {@code startByte} of the file: after any byte order mark, or
     *                    anywhere a character starts when resuming
     * @param startByte   the channel's absolute position; used only to report absolute offsets
     * @param retainChars how far behind the newest character lookups still succeed
     */
    ByteTrackingReader(ReadableByteChannel in, long startByte, Charset charset, String fileName, int retainChars,
                       boolean xml11) {
        if (!tracksOffsetsOf(charset)) {
            throw new IllegalArgumentException("cannot track byte offsets in " + charset.name()
                    + ": use a stateless charset with a fixed byte order (UTF-16BE or UTF-16LE, not UTF-16)");
        }
        if (retainChars < 1 || retainChars > (1 << 28)) {
            throw new IllegalArgumentException("retainChars must be 1 to 2^28, not " + retainChars);
        }
        this.in = Objects.requireNonNull(in, "in");
        this.fileName = fileName;
        this.consumed = startByte;
        this.utf8 = charset.equals(StandardCharsets.UTF_8);
        this.xml11 = xml11;
        this.decoder = charset.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        this.map = new ByteOffsetMap(charset, startByte, retainChars, MAX_READ_CHARS);
    }

    /**
     * Whether offsets can be tracked in this charset: it must decode without hidden state that
     * swallows bytes (a byte order mark guessed, an ISO-2022 escape), and encode, to measure text.
     */
    static boolean tracksOffsetsOf(Charset charset) {
        String name = charset.name().toUpperCase(Locale.ROOT);
        return charset.canEncode()
                && !name.equals("UTF-16") && !name.equals("UTF-32")
                && !name.endsWith("-BOM")
                && !name.contains("2022");
    }

    /** The file is XML 1.1: its NEL and LSEP are delivered as line ends. */
    boolean xml11() {
        return xml11;
    }

    /** Characters delivered so far. */
    public long charsRead() {
        return map.charsRecorded();
    }

    /** Absolute offset of the first byte whose character has not been delivered. */
    public long nextByteOffset() {
        return consumed;
    }

    /**
     * The absolute byte offset at which the character with this 0-based index (counted from the
     * reader's start) begins, or -1 if it has not been delivered yet or is more than the retained
     * number of characters behind the newest. The low half of a surrogate pair begins no byte of
     * its own: its answer lies after the pair's first byte, at most at the pair's end.
     */
    public long byteOffsetOf(long charOffset) {
        return map.byteOffsetOf(charOffset);
    }

    int chunkCount() {
        return map.chunkCount();
    }

    @Override
    public int read() throws IOException {
        return read(single, 0, 1) < 0 ? -1 : single[0];
    }

    @Override
    public int read(char[] cbuf, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, cbuf.length);
        if (closed) {
            throw new IOException("reader of " + fileName + " is closed");
        }
        if (len == 0) {
            return 0;
        }
        if (lowPending) {
            lowPending = false;
            cbuf[off] = pair.get(1);
            map.record(cbuf, off, 1, 0);
            return 1;
        }
        if (failureMessage != null) {
            throw new InvalidEncodingException(failureMessage, failureOffset);
        }
        if (finished) {
            return -1;
        }
        long before = consumed;
        vet = xml11;
        int n = decode(target(cbuf, off, Math.min(len, MAX_READ_CHARS)));
        if (n == 0 && !finished && failureMessage == null) {
            // Room for one char and the next is a pair: decode it aside, give out its high half.
            pair.clear();
            int got = decode(pair);
            if (got > 0) {
                cbuf[off] = pair.get(0);
                lowPending = got == 2;
                n = 1;
            }
        }
        if (n > 0) {
            // Recorded as decoded, before vetting changes a char: the map measures the chars' bytes.
            map.record(cbuf, off, n, consumed - before);
            n = vet ? vet(cbuf, off, n) : n;
            if (n > 0) {
                return n;
            }
        }
        if (failureMessage != null) {
            throw new InvalidEncodingException(failureMessage, failureOffset);
        }
        return -1;
    }

    private CharBuffer target(char[] cbuf, int off, int len) {
        if (cbuf != wrappedArray) {
            wrapped = CharBuffer.wrap(cbuf);
            wrappedArray = cbuf;
        }
        wrapped.clear();
        wrapped.position(off).limit(off + len);
        return wrapped;
    }

    /**
     * Decodes into {@code out} until some chars are produced, the input ends, bad bytes are met
     * (recorded as the failure), or {@code out} cannot take the next char. Returns the chars produced.
     */
    private int decode(CharBuffer out) throws IOException {
        int start = out.position();
        while (true) {
            if (utf8 && !flushing) {
                decodeWellFormedUtf8(out);
                if (!out.hasRemaining()) {
                    return out.position() - start;
                }
                int p = bytes.position();
                int limit = bytes.limit();
                if (limit - p > 4) {
                    // A sequence the loop above leaves (4 bytes, or malformed) is whole within 4 bytes: the JDK's
                    // decoder gets just those, so it decides what is valid and how bad bytes are reported, but
                    // does not go on through the rest of the buffer at its per-character pace.
                    bytes.limit(p + 4);
                    vet = true;
                    CoderResult r = decoder.decode(bytes, out, false);
                    bytes.limit(limit);
                    consumed += bytes.position() - p;
                    if (r.isError()) {
                        fail(r);
                        return out.position() - start;
                    }
                    if (r.isOverflow()) {
                        return out.position() - start;
                    }
                    continue;
                }
            }
            CoderResult r;
            if (flushing) {
                r = decoder.flush(out);
            } else {
                int p = bytes.position();
                vet = true;
                r = decoder.decode(bytes, out, endOfInput);
                consumed += bytes.position() - p;
            }
            int produced = out.position() - start;
            if (r.isError()) {
                fail(r);
                return produced;
            }
            if (r.isOverflow() || produced > 0) {
                return produced;
            }
            if (flushing) {
                finished = true;
                return 0;
            }
            if (endOfInput) {
                flushing = true;
            } else {
                fill();
            }
        }
    }

    /**
     * Decodes ASCII and well-formed 2- and 3-byte UTF-8 straight from the buffer, eight ASCII bytes
     * at a time, until {@code out} is full or a byte needs more care (the JDK's decoder takes over
     * there). The JDK's own loop is fast only up to the first non-ASCII byte of each call, and
     * records of names and addresses have one every few hundred bytes.
     */
    private void decodeWellFormedUtf8(CharBuffer out) {
        byte[] src = bytes.array();
        int sp = bytes.arrayOffset() + bytes.position();
        int sl = bytes.arrayOffset() + bytes.limit();
        char[] dst = out.array();
        int dp = out.arrayOffset() + out.position();
        int dl = out.arrayOffset() + out.limit();
        int sp0 = sp;
        while (sp < sl && dp < dl) {
            while (sp + 8 <= sl && dp + 8 <= dl && ((long) LONGS.get(src, sp) & 0x8080808080808080L) == 0) {
                for (int i = 0; i < 8; i++) {
                    dst[dp + i] = (char) src[sp + i];
                }
                sp += 8;
                dp += 8;
            }
            if (sp >= sl || dp >= dl) {
                break;
            }
            int b1 = src[sp];
            if (b1 >= 0) {
                dst[dp++] = (char) b1;
                sp++;
            } else if ((b1 & 0xE0) == 0xC0 && (b1 & 0x1E) != 0 && sp + 1 < sl && (src[sp + 1] & 0xC0) == 0x80) {
                dst[dp++] = (char) (((b1 & 0x1F) << 6) | (src[sp + 1] & 0x3F));
                sp += 2;
            } else if ((b1 & 0xF0) == 0xE0 && sp + 2 < sl && (src[sp + 1] & 0xC0) == 0x80 && (src[sp + 2] & 0xC0) == 0x80) {
                char c = (char) (((b1 & 0x0F) << 12) | ((src[sp + 1] & 0x3F) << 6) | (src[sp + 2] & 0x3F));
                if (c < 0x800 || Character.isSurrogate(c) || c >= 0xFFFE) {
                    // overlong, or a surrogate on its own: malformed, as the JDK's decoder will say; a
                    // noncharacter: decoded there too, and vetted
                    break;
                }
                dst[dp++] = c;
                sp += 3;
            } else {
                break;
            }
        }
        bytes.position(sp - bytes.arrayOffset());
        out.position(dp - out.arrayOffset());
        consumed += sp - sp0;
    }

    /**
     * Applies XML's rules for raw characters to the {@code n} chars just decoded and recorded at
     * {@code off}: see the class comment. Returns how many may be delivered: all, or those before
     * the first refused, which becomes the failure.
     */
    private int vet(char[] cbuf, int off, int n) {
        for (int i = off; i < off + n; i++) {
            char c = cbuf[i];
            if (c < 0x7F) {
                continue;
            }
            String refused = null;
            if (c >= 0xFFFE) {
                refused = "is a noncharacter, which XML does not allow";
            } else if (xml11 && c == 0x85) {
                cbuf[i] = '\n';
            } else if (xml11 && c == 0x2028) {
                lineSeparator(cbuf, off, i);
            } else if (xml11 && c <= 0x9F) {
                refused = "is a control character, which XML 1.1 allows only as a character reference (&#x"
                        + Integer.toHexString(c).toUpperCase(Locale.ROOT) + ";)";
            }
            if (refused != null) {
                long offset = map.byteOffsetOf(map.charsRecorded() - n + (i - off));
                failureMessage = String.format(Locale.ROOT, "character U+%04X at byte offset %d of file %s %s",
                        (int) c, offset, fileName, refused);
                failureOffset = offset;
                return i - off;
            }
        }
        lastDelivered = cbuf[off + n - 1];
        return n;
    }

    /**
     * Hands on the LSEP at {@code i} as a line end of its own, which a CR before it must not join as
     * one CR LF. The CRs right before it are each a line end alone (none is followed by a LF), so
     * they and the LSEP all become LFs; a LF would join a CR delivered by the previous read, though,
     * and then they all stay or become CRs instead (only a LF right after the LSEP would then join
     * it, where the two were two line ends: the parser's own decoder does no better).
     */
    private void lineSeparator(char[] cbuf, int off, int i) {
        int first = i;
        while (first > off && cbuf[first - 1] == '\r') {
            first--;
        }
        char end = first == off && lastDelivered == '\r' ? '\r' : '\n';
        for (int j = first; j <= i; j++) {
            cbuf[j] = end;
        }
    }

    private void fill() throws IOException {
        bytes.compact();
        try {
            if (!bytes.hasRemaining()) {
                throw new IllegalStateException("decoder of " + decoder.charset() + " took nothing from a full buffer");
            }
            int n;
            do {
                n = in.read(bytes);
            } while (n == 0);
            endOfInput = n < 0;
        } finally {
            bytes.flip();
        }
    }

    private void fail(CoderResult r) {
        int at = bytes.position();
        StringBuilder hex = new StringBuilder();
        for (int i = 0; i < r.length(); i++) {
            hex.append(i == 0 ? "" : " ").append(hex(bytes.get(at + i)));
        }
        String charset = decoder.charset().name();
        StringBuilder m = new StringBuilder();
        if (r.isUnmappable()) {
            m.append("byte sequence ").append(hex).append(" has no character in ").append(charset);
        } else {
            m.append("invalid ").append(charset).append(" byte sequence ").append(hex);
        }
        m.append(" at byte offset ").append(consumed).append(" of file ").append(fileName);
        int next = at + r.length();
        if (next < bytes.limit()) {
            m.append(" (followed by ").append(hex(bytes.get(next))).append(')');
        } else if (endOfInput) {
            m.append(" (the file ends there)");
        }
        failureMessage = m.toString();
        failureOffset = consumed;
    }

    private static String hex(byte b) {
        return String.format("%02X", b & 0xff);
    }

    @Override
    public void close() throws IOException {
        closed = true;
        in.close();
    }
}
