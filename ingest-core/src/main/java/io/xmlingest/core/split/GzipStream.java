package io.xmlingest.core.split;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import java.util.zip.ZipException;

/**
 * Gzip members one after another, read strictly (RFC 1952): after each member's trailer, whose
 * CRC and size are checked, comes another member or the end of the file. The JDK's Inflater
 * does the inflating; this reads the framing and counts the compressed bytes used.
 */
final class GzipStream implements CompressedStream {
    private final InputStream in;
    private final long size;
    private final byte[] buf = new byte[64 * 1024];
    private final Inflater inflater = new Inflater(true);
    private final CRC32 crc = new CRC32();
    private final CRC32 header = new CRC32();
    private int pos;
    private int limit;
    /** Compressed bytes used so far: where in the file a fault lies. */
    private long consumed;
    private long memberBytes;
    private int members;
    private boolean inMember;
    private boolean ended;

    GzipStream(InputStream in, long size) {
        this.in = in;
        this.size = size;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        while (!ended) {
            if (!inMember) {
                if (!startMember()) {
                    ended = true;
                    break;
                }
                continue;
            }
            int n;
            try {
                n = inflater.inflate(b, off, len);
            } catch (DataFormatException e) {
                throw new ZipException("member " + members + " is damaged: " + e.getMessage());
            }
            if (n > 0) {
                crc.update(b, off, n);
                memberBytes += n;
                return n;
            }
            if (inflater.finished()) {
                // What the inflater was given past the member's end is its trailer, and maybe the next member.
                int unused = inflater.getRemaining();
                pos -= unused;
                consumed -= unused;
                inMember = false;
                endMember();
            } else if (inflater.needsDictionary()) {
                throw new ZipException("member " + members + " needs a preset dictionary, which gzip has not");
            } else if (inflater.needsInput()) {
                if (pos == limit && !fill()) {
                    throw new EOFException("it ends inside member " + members + "'s compressed data");
                }
                inflater.setInput(buf, pos, limit - pos);
                consumed += limit - pos;
                pos = limit;
            }
        }
        return -1;
    }

    @Override
    public void close() {
        inflater.end();
        try {
            in.close();
        } catch (IOException e) {
            // read only: nothing is lost
        }
    }

    private boolean fill() throws IOException {
        int n = in.read(buf, 0, buf.length);
        if (n <= 0) {
            return false;
        }
        pos = 0;
        limit = n;
        return true;
    }

    private int next() throws IOException {
        if (pos == limit && !fill()) {
            return -1;
        }
        consumed++;
        return buf[pos++] & 0xff;
    }

    private int need(String where) throws IOException {
        int b = next();
        if (b < 0) {
            throw new EOFException("it ends inside member " + members + "'s " + where);
        }
        return b;
    }

    private boolean startMember() throws IOException {
        int first = next();
        if (first < 0) {
            if (members == 0) {
                throw new ZipException("the file is empty");
            }
            return false;
        }
        if (first == 0 && members > 0 && zerosToTheEnd()) {
            return false; // padding to a block's end, as tape and block writers leave; gzip -d takes it too
        }
        int second = next();
        if (first != 0x1f || second != 0x8b) {
            consumed -= second < 0 ? 1 : 2; // the error is placed where these bytes begin
            throw new ZipException(members == 0 ? "it does not begin as gzip does"
                    : "what follows member " + members + " is not another gzip member");
        }
        members++;
        header.reset();
        header.update(first);
        header.update(second);
        if (headerByte() != 8) {
            throw new ZipException("member " + members + " is not deflate-compressed");
        }
        int flags = headerByte();
        if ((flags & 0xe0) != 0) {
            throw new ZipException("member " + members + " has reserved header flags set (0x"
                    + Integer.toHexString(flags) + ")");
        }
        for (int i = 0; i < 6; i++) {
            headerByte(); // modification time, extra flags, operating system
        }
        if ((flags & 4) != 0) {
            int extra = headerByte() | headerByte() << 8;
            for (int i = 0; i < extra; i++) {
                headerByte();
            }
        }
        if ((flags & 8) != 0) {
            while (headerByte() != 0) {
                // the original file name
            }
        }
        if ((flags & 16) != 0) {
            while (headerByte() != 0) {
                // a comment
            }
        }
        if ((flags & 2) != 0) {
            int expected = (int) (header.getValue() & 0xffff);
            if ((need("header") | need("header") << 8) != expected) {
                throw new ZipException("member " + members + " is corrupt: its header CRC does not match its header");
            }
        }
        inflater.reset();
        crc.reset();
        memberBytes = 0;
        inMember = true;
        return true;
    }

    private int headerByte() throws IOException {
        int b = need("header");
        header.update(b);
        return b;
    }

    /** Whether everything left is zero bytes; reads it all. */
    private boolean zerosToTheEnd() throws IOException {
        for (int b = next(); b >= 0; b = next()) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String where() {
        return "at compressed byte " + position() + " of " + size;
    }

    /** The compressed bytes used so far, less what the inflater was given and has not used. */
    private long position() {
        return inMember ? consumed - inflater.getRemaining() : consumed;
    }

    private void endMember() throws IOException {
        long crcValue = littleEndian32("trailer");
        long size = littleEndian32("trailer");
        if (crcValue != crc.getValue()) {
            throw new ZipException("member " + members + " is corrupt: its CRC does not match its data");
        }
        if (size != (memberBytes & 0xffffffffL)) {
            throw new ZipException("member " + members + " is corrupt: its size does not match its data");
        }
    }

    private long littleEndian32(String where) throws IOException {
        return need(where) | need(where) << 8 | need(where) << 16 | (long) need(where) << 24;
    }
}
