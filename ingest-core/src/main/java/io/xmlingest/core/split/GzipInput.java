package io.xmlingest.core.split;

import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.FileFailedException;
import io.xmlingest.core.error.IoProblems;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import java.util.zip.ZipException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gzip-compressed input, told by its first two bytes, not by its name. The splitter needs to seek:
 * to resume at a checkpoint's byte offset, to read a rejected record back for its dead letter, to
 * cut a file into shards. A gzip stream cannot seek, so such a file is inflated into a plain copy
 * once, and the copy is what is read; byte offsets are the copy's.
 */
public final class GzipInput {

    private static final Logger LOG = LoggerFactory.getLogger(GzipInput.class);
    private static final int BUFFER = 64 * 1024;

    private GzipInput() {
    }

    /** Whether the file begins as a gzip member does; no XML document begins with byte 0x1f. */
    public static boolean isGzip(Path file, String name) {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] head = in.readNBytes(2);
            return head.length == 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b;
        } catch (IOException e) {
            throw FileFailedException.unreadable(name, e);
        }
    }

    /**
     * Where the worker keeps a compressed file's plain copy: beside it, hidden, and named for its
     * content, so that a copy left behind by a crash is never taken for another content's. A long
     * name is cut, so the copy's name stays within the file system's limit where the file's did.
     */
    public static Path copyBeside(Path file, String fileId) {
        return file.resolveSibling(copyPrefix(file) + fileId.substring(0, Math.min(16, fileId.length())) + COPY);
    }

    /**
     * Deletes every copy beside {@code file}, and any part of one a crash left: whatever content
     * they were made from, they are of no use once the file moves on.
     */
    public static void deleteCopies(Path file) throws IOException {
        String prefix = copyPrefix(file);
        Path dir = file.toAbsolutePath().getParent();
        try (java.nio.file.DirectoryStream<Path> copies = Files.newDirectoryStream(dir, p -> {
            String n = p.getFileName().toString();
            return n.startsWith(prefix) && (n.endsWith(COPY) || n.endsWith(COPY + PART));
        })) {
            for (Path copy : copies) {
                Files.deleteIfExists(copy);
            }
        }
    }

    private static final String COPY = ".inflated";
    private static final String PART = ".part";

    private static String copyPrefix(Path file) {
        String name = file.getFileName().toString();
        return "." + name.substring(0, Math.min(name.length(), 100)) + ".";
    }

    /**
     * Inflates {@code gz} into {@code copy}. It is written under a part name beside it, forced to
     * disk and renamed when whole, so a {@code copy} that exists is complete. Members written one
     * after another (pigz, {@code cat a.gz b.gz}) are one stream; anything else after a member
     * fails the file, where the JDK's reader would stop there without a word.
     *
     * @param maxBytes the most the copy may hold ({@code file.gzip.max.bytes})
     * @param stop     asked between buffers: a worker told to stop does not finish a long inflation first
     * @return the copy's size in bytes, or -1 when stopped (no copy is left then)
     */
    public static long inflate(Path gz, String name, Path copy, long maxBytes, BooleanSupplier stop) {
        return inflate(gz, name, copy, maxBytes, stop, null);
    }

    /** As above, each inflated byte also given to {@code digest} (may be null). */
    public static long inflate(Path gz, String name, Path copy, long maxBytes, BooleanSupplier stop,
                               MessageDigest digest) {
        Path part = copy.resolveSibling(copy.getFileName() + PART);
        long written = inflateInto(gz, name, part, maxBytes, stop, digest);
        if (written >= 0) {
            rename(part, copy, name);
        }
        return written;
    }

    /**
     * Inflates {@code gz} into its copy beside it ({@link #copyBeside}), hashing what it inflates:
     * a compressed file's identity is its content's, so the same XML dropped plain, or compressed
     * again some other way, is the same file.
     *
     * @param sha256 a fresh SHA-256 digest, which the inflated content is hashed with
     * @return the inflated content's hash, in hex, or null when stopped (no copy is left then)
     */
    public static String inflateBeside(Path gz, String name, long maxBytes, BooleanSupplier stop, MessageDigest sha256) {
        Path part = gz.resolveSibling(copyPrefix(gz) + "identifying" + COPY + PART);
        if (inflateInto(gz, name, part, maxBytes, stop, sha256) < 0) {
            return null;
        }
        String fileId = HexFormat.of().formatHex(sha256.digest());
        rename(part, copyBeside(gz, fileId), name);
        return fileId;
    }

    private static void rename(Path part, Path copy, String name) {
        try {
            Files.move(part, copy, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            deleteQuietly(part);
            throw new CopyNotWritten(part, name, e).failure;
        }
    }

    /** Inflates into {@code part}, left whole and on disk; -1 when stopped, the part deleted. */
    private static long inflateInto(Path gz, String name, Path part, long maxBytes, BooleanSupplier stop,
                                    MessageDigest digest) {
        long t0 = System.nanoTime();
        long size = size(gz, name);
        LOG.info("inflating {} ({} bytes) to a plain copy", name, size);
        Members in = null;
        long written = 0;
        try (InputStream file = Files.newInputStream(gz); FileChannel out = output(part, name)) {
            in = new Members(file);
            byte[] buffer = new byte[BUFFER];
            for (int n; (n = in.read(buffer, 0, buffer.length)) > 0; ) {
                written += n;
                if (written > maxBytes) {
                    throw new FileFailedException("the gzip-compressed file inflates to more than " + maxBytes
                            + " bytes (stopped at compressed byte " + in.position() + " of " + size + ")",
                            ErrorLocation.ofFile(name), IngestSettings.GZIP_MAX_BYTES.key(), null);
                }
                write(out, buffer, n, part, name);
                if (digest != null) {
                    digest.update(buffer, 0, n);
                }
                if (stop.getAsBoolean()) {
                    LOG.info("stopped inflating {} on request, after {} bytes", name, written);
                    out.close();
                    deleteQuietly(part);
                    return -1;
                }
            }
            force(out, part, name);
        } catch (ZipException | EOFException e) {
            deleteQuietly(part);
            throw new FileFailedException("not a whole gzip file: " + e.getMessage() + " (at compressed byte "
                    + (in == null ? 0 : in.position()) + " of " + size + ", after " + written + " inflated bytes)",
                    ErrorLocation.ofFile(name), null, e);
        } catch (CopyNotWritten e) {
            deleteQuietly(part);
            throw e.failure;
        } catch (IOException e) {
            deleteQuietly(part);
            throw FileFailedException.unreadable(name, e);
        } catch (RuntimeException | Error e) {
            deleteQuietly(part);
            throw e;
        } finally {
            if (in != null) {
                in.close(); // the inflater's native memory
            }
        }
        LOG.info("inflated {} ({} bytes) to {} bytes in {} s", name, size, written,
                String.format(Locale.ROOT, "%.1f", (System.nanoTime() - t0) / 1e9));
        return written;
    }

    private static long size(Path gz, String name) {
        try {
            return Files.size(gz);
        } catch (IOException e) {
            throw FileFailedException.unreadable(name, e);
        }
    }

    private static FileChannel output(Path part, String name) throws CopyNotWritten {
        try {
            Set<StandardOpenOption> options = Set.of(StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE);
            // The input's content, readable by its owner only, as a temporary file is made.
            return part.getFileSystem().supportedFileAttributeViews().contains("posix")
                    ? FileChannel.open(part, options, PosixFilePermissions.asFileAttribute(
                            PosixFilePermissions.fromString("rw-------")))
                    : FileChannel.open(part, options);
        } catch (IOException e) {
            throw new CopyNotWritten(part, name, e);
        }
    }

    private static void write(FileChannel out, byte[] buffer, int n, Path part, String name) throws CopyNotWritten {
        try {
            ByteBuffer bytes = ByteBuffer.wrap(buffer, 0, n);
            while (bytes.hasRemaining()) {
                out.write(bytes);
            }
        } catch (IOException e) {
            throw new CopyNotWritten(part, name, e);
        }
    }

    /** On disk before the rename: after a power loss, a copy that is there must not be one whose data is not. */
    private static void force(FileChannel out, Path part, String name) throws CopyNotWritten {
        try {
            out.force(true);
        } catch (IOException e) {
            throw new CopyNotWritten(part, name, e);
        }
    }

    private static void deleteQuietly(Path part) {
        try {
            Files.deleteIfExists(part);
        } catch (IOException e) {
            // a part file is never read: the next inflation writes it afresh
        }
    }

    /**
     * Gzip members one after another, read strictly (RFC 1952): after each member's trailer, whose
     * CRC and size are checked, comes another member or the end of the file. The JDK's Inflater
     * does the inflating; this reads the framing and counts the compressed bytes used.
     */
    private static final class Members extends InputStream {
        private final InputStream in;
        private final byte[] buf = new byte[BUFFER];
        private final Inflater inflater = new Inflater(true);
        private final CRC32 crc = new CRC32();
        private final CRC32 header = new CRC32();
        private int pos;
        private int limit;
        /** Compressed bytes used so far: where in the file a fault lies. */
        long consumed;
        private long memberBytes;
        private int members;
        private boolean inMember;
        private boolean ended;

        Members(InputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
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

        /** The compressed bytes used so far, less what the inflater was given and has not used. */
        long position() {
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

    /** The copy could not be written (a full disk, say): not the file's fault, but it cannot be read without one. */
    private static final class CopyNotWritten extends IOException {
        final FileFailedException failure;

        CopyNotWritten(Path part, String name, IOException e) {
            super(e);
            failure = new FileFailedException("cannot write the gzip-compressed file's inflated copy " + part + ": "
                    + IoProblems.why(e), ErrorLocation.ofFile(name), null, e);
        }
    }
}
