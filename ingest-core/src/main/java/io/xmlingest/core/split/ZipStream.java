package io.xmlingest.core.split;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import java.util.zip.ZipException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one file a zip archive holds, found through the archive's central directory (the archive's
 * own account of what it holds, where reading the local headers in order would stop without a word
 * at the first damaged one). Directories, and what operating systems add beside a user's files
 * (macOS's {@code __MACOSX/} and {@code .DS_Store}, Windows' {@code Thumbs.db} and
 * {@code desktop.ini}, hidden files in general, as the inbox passes those over), are not files.
 *
 * <p>The directory is read as a stream, one entry at a time, and the file is inflated straight
 * from the archive by the JDK's {@link Inflater}: memory stays constant whatever the archive
 * holds. The JDK's {@code ZipFile} holds the whole directory in memory, so an archive of a few
 * megabytes listing hundreds of thousands of entries exhausted a small heap, on every restart.
 */
final class ZipStream implements CompressedStream {
    private static final Logger LOG = LoggerFactory.getLogger(ZipStream.class);
    private static final int LOCAL = 0x04034b50;
    private static final int CENTRAL = 0x02014b50;
    private static final int END = 0x06054b50;
    private static final int END64_LOCATOR = 0x07064b50;
    private static final int END64 = 0x06064b50;
    private static final int END_SIZE = 22;
    private static final long MARKER32 = 0xffffffffL;
    /**
     * How names not flagged as UTF-8 are read: in IBM437, as the zip format says and Windows' own
     * zip tool writes them (read as UTF-8, one such name with a byte above 127 would fail the whole
     * archive). Names flagged as UTF-8 are read as UTF-8.
     */
    private static final Charset NAMES = Charset.isSupported("IBM437") ? Charset.forName("IBM437")
            : StandardCharsets.ISO_8859_1;

    private final FileChannel channel;
    private final Entry entry;
    private final Inflater inflater;
    private final ByteBuffer input = ByteBuffer.allocate(64 * 1024);
    private final CRC32 crc = new CRC32();
    /** Compressed bytes of the file not yet given to the inflater. */
    private long compressedLeft;
    private long readAt;
    private long inflated;
    private boolean dummyGiven;
    private boolean ended;

    ZipStream(Path file) throws IOException {
        channel = FileChannel.open(file, StandardOpenOption.READ);
        try {
            entry = theOneFile(channel, file.getFileName().toString());
            if ((entry.flags & 1) != 0) {
                throw new ZipException("its file " + entry.shown() + " is encrypted, which is not read: extract it and drop "
                        + "the file itself");
            }
            if (entry.method != 0 && entry.method != 8) {
                throw new ZipException("its file " + entry.shown() + " is compressed with method " + entry.method
                        + methodName(entry.method) + ", which is not read: only stored and deflated (zip's default) files "
                        + "are; extract it and drop the file itself, or zip it again with deflate");
            }
            readAt = dataStart(channel, entry);
            compressedLeft = entry.compressedSize;
            inflater = entry.method == 8 ? new Inflater(true) : null;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    @Override
    public long declaredSize() {
        return entry.size;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (ended || len == 0) {
            return ended ? -1 : 0;
        }
        int n = inflater == null ? readStored(b, off, len) : inflate(b, off, len);
        if (n > 0) {
            crc.update(b, off, n);
            inflated += n;
            return n;
        }
        ended = true;
        if (inflated != entry.size) {
            throw new ZipException("its file " + entry.shown() + " is corrupt: it holds " + inflated
                    + " bytes where the directory says " + entry.size);
        }
        if (crc.getValue() != entry.crc) {
            throw new ZipException("its file " + entry.shown() + " is corrupt: its CRC does not match its data");
        }
        return -1;
    }

    private int readStored(byte[] b, int off, int len) throws IOException {
        if (compressedLeft == 0) {
            return -1;
        }
        ByteBuffer into = ByteBuffer.wrap(b, off, (int) Math.min(len, compressedLeft));
        int n = channel.read(into, readAt);
        if (n <= 0) {
            throw new EOFException("the archive ends inside its file " + entry.shown());
        }
        readAt += n;
        compressedLeft -= n;
        return n;
    }

    private int inflate(byte[] b, int off, int len) throws IOException {
        while (true) {
            int n;
            try {
                n = inflater.inflate(b, off, len);
            } catch (DataFormatException e) {
                throw new ZipException("its file " + entry.shown() + " is damaged: " + e.getMessage());
            }
            if (n > 0) {
                return n;
            }
            if (inflater.finished()) {
                return -1;
            }
            if (inflater.needsDictionary()) {
                throw new ZipException("its file " + entry.shown() + " needs a preset dictionary, which zip has not");
            }
            if (compressedLeft == 0) {
                if (dummyGiven) {
                    throw new EOFException("its file " + entry.shown() + "'s compressed data ends before its end");
                }
                // The inflater in raw mode may want one byte past the data to see its end, as the JDK's own reader gives.
                dummyGiven = true;
                inflater.setInput(new byte[1]);
                continue;
            }
            input.clear();
            input.limit((int) Math.min(input.capacity(), compressedLeft));
            int got = channel.read(input, readAt);
            if (got <= 0) {
                throw new EOFException("the archive ends inside its file " + entry.shown());
            }
            readAt += got;
            compressedLeft -= got;
            inflater.setInput(input.array(), 0, got);
        }
    }

    @Override
    public String where() {
        return "in its file " + entry.shown() + ", at compressed byte " + (entry.compressedSize - compressedLeft
                - (inflater == null ? 0 : inflater.getRemaining())) + " of " + entry.compressedSize;
    }

    @Override
    public void close() {
        if (inflater != null) {
            inflater.end();
        }
        try {
            channel.close();
        } catch (IOException e) {
            // read only: nothing is lost
        }
    }

    private static String methodName(int method) {
        return switch (method) {
            case 9 -> " (Deflate64)";
            case 12 -> " (bzip2)";
            case 14 -> " (LZMA)";
            case 93 -> " (Zstandard)";
            case 95 -> " (xz)";
            case 98 -> " (PPMd)";
            default -> "";
        };
    }

    /** A name as messages and logs give it: control characters shown as '?', and at most 200 characters. */
    private static String shown(String name) {
        String printable = name.codePoints().map(c -> Character.isISOControl(c) ? '?' : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        return printable.length() > 200 ? printable.substring(0, 200) + "..." : printable;
    }

    /** What the directory says of one entry. */
    record Entry(String name, int flags, int method, long crc, long compressedSize, long size, long localOffset) {
        /** A folder: a name ending in '/', or in '\\' as old Windows tools wrote folders, holding nothing. */
        boolean isDirectory() {
            return name.endsWith("/") || name.endsWith("\\") && size == 0;
        }

        String shown() {
            return ZipStream.shown(name);
        }

        /** What an operating system or a file manager adds beside the user's files. */
        boolean isMetadata() {
            String last = name.substring(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
            return name.startsWith("__MACOSX/") || last.startsWith(".") || last.equalsIgnoreCase("Thumbs.db")
                    || last.equalsIgnoreCase("desktop.ini");
        }
    }

    /** Reads the whole directory, an entry at a time, and returns its one file's entry. */
    private static Entry theOneFile(FileChannel channel, String archive) throws IOException {
        Directory directory = directory(channel);
        long entries = directory.entries();
        long bytes = directory.bytes();
        long offset = directory.offset();
        Entry file = null;
        long files = 0;
        List<String> names = new ArrayList<>();
        List<String> passedOver = new ArrayList<>();
        long passed = 0;
        InputStream in = new BufferedInputStream(Channels.newInputStream(channel.position(offset)), 64 * 1024);
        Reader cen = new Reader(in, bytes);
        for (long i = 0; i < entries; i++) {
            Entry e = cen.entry(i);
            if (e.isDirectory()) {
                continue;
            }
            if (e.isMetadata()) {
                passed++;
                if (passedOver.size() < 3) {
                    passedOver.add(e.shown());
                }
                continue;
            }
            files++;
            if (names.size() < 3) {
                names.add(e.shown());
            }
            if (file == null) {
                file = e;
            }
        }
        if (cen.read != bytes) {
            // An entry the count leaves out would be a file passed over without a word.
            throw new ZipException("its central directory is damaged: its end record counts " + entries + " entries in "
                    + bytes + " bytes, and they take " + cen.read);
        }
        if (files == 0) {
            throw new ZipException("it holds no file" + (passedOver.isEmpty() ? ""
                    : " (only what operating systems add beside files, such as " + String.join(", ", passedOver) + ")"));
        }
        if (files > 1) {
            throw new ZipException("it holds " + files + " files (" + String.join(", ", names) + (files > 3 ? ", ..." : "")
                    + "), and an archive of one file is read: extract them and drop each file");
        }
        if (!passedOver.isEmpty()) {
            LOG.info("reading {} of the zip archive {}, passing over what operating systems add beside files: {}{}",
                    file.shown(), archive, String.join(", ", passedOver), passed > passedOver.size() ? ", ..." : "");
        }
        return file;
    }

    /** Where the file's data begins: after its local header, whose own name and extra field may differ in length. */
    private static long dataStart(FileChannel channel, Entry e) throws IOException {
        if (e.method == 0 && e.compressedSize != e.size) {
            throw new ZipException("its file " + e.shown() + " is damaged: it is stored, and the directory gives it "
                    + e.compressedSize + " bytes stored for " + e.size + " bytes of content");
        }
        if (e.localOffset > channel.size() - 30) {
            throw new ZipException("its file " + e.shown() + " is not where the directory says (byte " + e.localOffset
                    + " is past the archive's end)");
        }
        ByteBuffer local = readAt(channel, e.localOffset, 30);
        if (local.remaining() < 30 || local.getInt(0) != LOCAL) {
            throw new ZipException("its file " + e.shown() + " is not where the directory says (no local header at byte "
                    + e.localOffset + ")");
        }
        long start = e.localOffset + 30 + Short.toUnsignedInt(local.getShort(26)) + Short.toUnsignedInt(local.getShort(28));
        if (e.compressedSize > channel.size() - start) {
            throw new EOFException("the archive ends inside its file " + e.shown());
        }
        return start;
    }

    /**
     * The directory's entry count, size and offset, from the end of central directory record, or
     * the zip64 one its locator points to. The end record is the last one whose comment runs to the
     * end of the file, or whose directory ends where it begins.
     */
    private record Directory(long entries, long bytes, long offset) {
    }

    private static Directory directory(FileChannel channel) throws IOException {
        long size = channel.size();
        int tail = (int) Math.min(size, END_SIZE + 0xffff);
        ByteBuffer b = readAt(channel, size - tail, tail);
        for (int at = tail - END_SIZE; at >= 0; at--) {
            if (b.getInt(at) != END) {
                continue;
            }
            long endAt = size - tail + at;
            long entries = Short.toUnsignedLong(b.getShort(at + 10));
            long bytes = Integer.toUnsignedLong(b.getInt(at + 12));
            long offset = Integer.toUnsignedLong(b.getInt(at + 16));
            int comment = Short.toUnsignedInt(b.getShort(at + 20));
            // Zip64 end records come before the end record, found by the locator just before it; a writer that
            // streams (zip - -) writes them whatever the sizes, with the 32-bit fields filled in as well.
            String fault = null;
            if (endAt >= 20) {
                ByteBuffer locator = readAt(channel, endAt - 20, 20);
                if (locator.getInt(0) == END64_LOCATOR) {
                    long end64At = locator.getLong(8);
                    ByteBuffer end64 = end64At >= 0 && end64At <= endAt - 20 - 56 ? readAt(channel, end64At, 56) : null;
                    if (end64 == null || end64.getInt(0) != END64) {
                        fault = "its zip64 end of central directory record is not where its locator says";
                    } else {
                        entries = end64.getLong(32);
                        bytes = end64.getLong(40);
                        offset = end64.getLong(48);
                        endAt = end64At;
                    }
                }
            }
            // Subtracted, not added: values read from the file may be near Long.MAX_VALUE.
            boolean consistent = fault == null && offset >= 0 && bytes >= 0 && entries >= 0 && offset <= endAt
                    && endAt - offset == bytes;
            if (at + END_SIZE + comment == tail || consistent) {
                if (!consistent) {
                    throw new ZipException(fault != null ? fault : "its central directory is damaged: the end record "
                            + "puts " + bytes + " bytes of it at byte " + offset + ", which does not end where the end "
                            + "record begins");
                }
                return new Directory(entries, bytes, offset);
            }
        }
        throw new ZipException("it has no end of central directory record: it is cut short, or not a zip archive");
    }

    private static ByteBuffer readAt(FileChannel channel, long from, int length) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        while (b.hasRemaining() && channel.read(b, from + b.position()) > 0) {
            // a file channel reads all it is asked for, bar the end of the file
        }
        return b.flip().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** The central directory's entries, read one after another within its stated size. */
    private static final class Reader {
        private final InputStream in;
        private final long size;
        long read;
        private final byte[] fixed = new byte[46];
        /** Where a comment is read to be passed over: at most 64 KiB, as its length is 16 bits. */
        private final byte[] scratch = new byte[0xffff];
        private final ByteBuffer head = ByteBuffer.wrap(fixed).order(ByteOrder.LITTLE_ENDIAN);

        Reader(InputStream in, long size) {
            this.in = in;
            this.size = size;
        }

        Entry entry(long index) throws IOException {
            bytes(fixed, 46, index);
            if (head.getInt(0) != CENTRAL) {
                throw new ZipException("its central directory is damaged at entry " + (index + 1));
            }
            int flags = Short.toUnsignedInt(head.getShort(8));
            int method = Short.toUnsignedInt(head.getShort(10));
            long crc = Integer.toUnsignedLong(head.getInt(16));
            long compressed = Integer.toUnsignedLong(head.getInt(20));
            long size = Integer.toUnsignedLong(head.getInt(24));
            int nameLength = Short.toUnsignedInt(head.getShort(28));
            int extraLength = Short.toUnsignedInt(head.getShort(30));
            int commentLength = Short.toUnsignedInt(head.getShort(32));
            long local = Integer.toUnsignedLong(head.getInt(42));
            byte[] name = new byte[nameLength];
            bytes(name, nameLength, index);
            byte[] extra = new byte[extraLength];
            bytes(extra, extraLength, index);
            skip(commentLength, index);
            // Zip64: each 32-bit field that is full is given, in this order, in the extra field 0x0001; one left
            // without its value there is a damaged entry, not a file of 4 GiB.
            int wanted = (size == MARKER32 ? 1 : 0) + (compressed == MARKER32 ? 1 : 0) + (local == MARKER32 ? 1 : 0);
            ByteBuffer x = ByteBuffer.wrap(extra).order(ByteOrder.LITTLE_ENDIAN);
            while (wanted > 0 && x.remaining() >= 4) {
                int id = Short.toUnsignedInt(x.getShort());
                int length = Short.toUnsignedInt(x.getShort());
                if (length > x.remaining()) {
                    break;
                }
                if (id == 1 && length >= 8 * wanted) {
                    ByteBuffer z = x.slice().limit(length).order(ByteOrder.LITTLE_ENDIAN);
                    size = size == MARKER32 ? z.getLong() : size;
                    compressed = compressed == MARKER32 ? z.getLong() : compressed;
                    local = local == MARKER32 ? z.getLong() : local;
                    wanted = 0;
                }
                x.position(x.position() + length);
            }
            String decoded = new String(name, (flags & 0x800) != 0 ? StandardCharsets.UTF_8 : NAMES);
            if (wanted > 0 || size < 0 || compressed < 0 || local < 0) {
                throw new ZipException("its central directory is damaged at entry " + (index + 1) + " ("
                        + shown(decoded) + ")");
            }
            return new Entry(decoded, flags, method, crc, compressed, size, local);
        }

        private void bytes(byte[] into, int n, long index) throws IOException {
            if (read + n > size || in.readNBytes(into, 0, n) != n) {
                throw new ZipException("its central directory is damaged at entry " + (index + 1)
                        + ": it runs past its stated " + size + " bytes");
            }
            read += n;
        }

        private void skip(int n, long index) throws IOException {
            if (read + n > size || in.readNBytes(scratch, 0, n) != n) {
                throw new ZipException("its central directory is damaged at entry " + (index + 1)
                        + ": it runs past its stated " + size + " bytes");
            }
            read += n;
        }
    }
}
