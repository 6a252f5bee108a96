package io.xmlingest.app.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Where work orders go on the work topic. Every file's shards started at partition 0: with fewer shards than
 * partitions, a worker assigned only the higher partitions got no work at all.
 */
class SharedWorkPartitionsTest {

    /** A file id as the worker makes them: 64 hexadecimal digits. */
    private static String fileId(int n) {
        return String.format("%064x", n * 0x9E3779B97F4A7C15L);
    }

    @Test
    void aFilesShardsTakeConsecutivePartitionsFromAStartOfItsOwn() {
        List<Integer> six = IntStream.range(0, 6).map(i -> SharedWork.partitionOf(fileId(1), i, 12)).boxed().toList();
        assertThat(new HashSet<>(six)).hasSize(6);
        for (int i = 1; i < 6; i++) {
            assertThat(six.get(i)).isEqualTo((six.get(i - 1) + 1) % 12);
        }
        // As many shards as partitions: each partition once.
        assertThat(IntStream.range(0, 12).map(i -> SharedWork.partitionOf(fileId(2), i, 12)).distinct().count())
                .isEqualTo(12);
        // Files of six shards each do not all start at 0: between them they use every partition.
        Set<Integer> used = new HashSet<>();
        for (int f = 0; f < 40; f++) {
            for (int i = 0; i < 6; i++) {
                int p = SharedWork.partitionOf(fileId(f), i, 12);
                assertThat(p).isBetween(0, 11);
                used.add(p);
            }
        }
        assertThat(used).hasSize(12);
        assertThat(SharedWork.partitionOf("x", 0, 1)).isZero();
    }
}
