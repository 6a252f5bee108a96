package io.xmlingest.core.split;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Collectors;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;

/**
 * The one file a zip archive holds, found through the archive's central directory (the archive's
 * own account of what it holds, where reading the local headers in order would stop without a word
 * at the first damaged one). Directories, and the {@code __MACOSX/} metadata macOS adds to the
 * archives it makes, are not files. The JDK's {@link ZipFile} does the inflating and checks each
 * header (a method other than stored or deflated is refused there); it does not check the CRC, so
 * this does, and the size, before the last byte is given out.
 */
final class ZipStream implements CompressedStream {
    /**
     * {@link ZipFile} holds the whole central directory in memory: a directory larger than this is
     * refused before it is read, so an archive of millions of entries cannot exhaust the heap.
     */
    static final int MAX_DIRECTORY_BYTES = 1 << 20;
    private static final int END = 0x06054b50;
    private static final int END64_LOCATOR = 0x07064b50;
    private static final int END64 = 0x06064b50;
    private static final String MACOS_METADATA = "__MACOSX/";
    /**
     * How names not flagged as UTF-8 are read: in IBM437, as the zip format says and Windows' own
     * zip tool writes them. Read as UTF-8, the JDK's default here, one such name with a byte above
     * 127 fails the whole archive ("bad entry name"). Names flagged as UTF-8 are read as UTF-8.
     */
    private static final Charset NAMES = Charset.isSupported("IBM437") ? Charset.forName("IBM437")
            : StandardCharsets.ISO_8859_1;

    private final ZipFile zip;
    private final ZipEntry entry;
    private final InputStream in;
    private final CRC32 crc = new CRC32();
    private long inflated;
    private boolean ended;

    ZipStream(Path file) throws IOException {
        Directory directory = Directory.of(file);
        if (directory == null) {
            throw new ZipException("it has no end of central directory record: it is cut short, or not a zip archive");
        }
        if (directory.bytes < 0 || directory.bytes > MAX_DIRECTORY_BYTES) {
            throw new ZipException("its directory lists " + directory.entries + " entries in " + directory.bytes
                    + " bytes; an archive of one file is read");
        }
        zip = new ZipFile(file.toFile(), ZipFile.OPEN_READ, NAMES);
        try {
            List<? extends ZipEntry> files = zip.stream()
                    .filter(e -> !e.isDirectory() && !e.getName().startsWith(MACOS_METADATA))
                    .collect(Collectors.toList());
            if (files.size() != 1) {
                throw new ZipException(files.isEmpty() ? "it holds no file"
                        : "it holds " + files.size() + " files (" + names(files) + "); an archive of one file is read");
            }
            entry = files.get(0);
            in = zip.getInputStream(entry);
        } catch (IOException | RuntimeException e) {
            zip.close();
            throw e;
        }
    }

    private static String names(List<? extends ZipEntry> files) {
        String shown = files.stream().limit(3).map(ZipEntry::getName).collect(Collectors.joining(", "));
        return files.size() > 3 ? shown + ", ..." : shown;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (ended) {
            return -1;
        }
        if (len == 0) {
            return 0;
        }
        int n = in.read(b, off, len);
        if (n > 0) {
            crc.update(b, off, n);
            inflated += n;
            return n;
        }
        ended = true;
        if (entry.getSize() >= 0 && entry.getSize() != inflated) {
            throw new ZipException("its file " + entry.getName() + " is corrupt: it holds " + inflated
                    + " bytes where the directory says " + entry.getSize());
        }
        if (entry.getCrc() >= 0 && entry.getCrc() != crc.getValue()) {
            throw new ZipException("its file " + entry.getName() + " is corrupt: its CRC does not match its data");
        }
        return -1;
    }

    @Override
    public String where() {
        return "in its file " + entry.getName();
    }

    @Override
    public void close() {
        try {
            zip.close();
        } catch (IOException e) {
            // read only: nothing is lost
        }
    }

    /**
     * The end of central directory record's count of entries and the directory's size, or null
     * where there is none. Zip64 archives give theirs in a record
     * of their own, which a locator just before the end record points to.
     */
    record Directory(long entries, long bytes) {
        static Directory of(Path file) throws IOException {
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                long size = channel.size();
                int tail = (int) Math.min(size, 22 + 0xffff); // the end record, then a comment of at most 64 KiB
                ByteBuffer b = read(channel, size - tail, tail);
                for (int at = tail - 22; at >= 0; at--) {
                    if (b.getInt(at) != END) {
                        continue;
                    }
                    long entries = Short.toUnsignedLong(b.getShort(at + 10));
                    long bytes = Integer.toUnsignedLong(b.getInt(at + 12));
                    if ((entries == 0xffff || bytes == 0xffffffffL) && at >= 20 && b.getInt(at - 20) == END64_LOCATOR) {
                        long end64 = b.getLong(at - 20 + 8);
                        if (end64 >= 0 && end64 <= size - 56) {
                            ByteBuffer z = read(channel, end64, 56);
                            if (z.getInt(0) == END64) {
                                return new Directory(z.getLong(32), z.getLong(40));
                            }
                        }
                    }
                    return new Directory(entries, bytes);
                }
                return null;
            }
        }

        private static ByteBuffer read(FileChannel channel, long from, int length) throws IOException {
            ByteBuffer b = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
            while (b.hasRemaining() && channel.read(b, from + b.position()) >= 0) {
                // a file channel reads all it is asked for, bar the end of the file
            }
            return b.flip().order(ByteOrder.LITTLE_ENDIAN);
        }
    }
}
