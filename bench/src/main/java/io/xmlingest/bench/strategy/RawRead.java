package io.xmlingest.bench.strategy;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Ceiling: reading the file's bytes and nothing else. */
final class RawRead implements Strategy {
    @Override
    public Outcome run(Path file, Context context) throws Exception {
        ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
        long checksum = 0;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            int n;
            while ((n = channel.read(buffer)) >= 0) {
                checksum += n + (n > 0 ? buffer.get(0) : 0);
                buffer.clear();
            }
        }
        return new Outcome(context.expectedRecords(), checksum, null);
    }
}
