package io.xmlingest.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LiveHeapSamplerTest {

    @Test
    void collectsOnceAtTheFirstReportPastEachPoint() {
        List<Long> at = new ArrayList<>();
        long[] progress = {0};
        long[] heap = {5, 9, 7};
        LiveHeapSampler sampler = new LiveHeapSampler(1000, 10, () -> {
            at.add(progress[0]);
            return heap[(at.size() - 1) % heap.length];
        });
        // Points at 50, 150, ... 950 records.
        assertThat(sampler.threshold(0)).isEqualTo(50);
        assertThat(sampler.threshold(9)).isEqualTo(950);
        for (long records = 10; records <= 1000; records += 10) {
            progress[0] = records;
            sampler.accept(records);
        }
        assertThat(at).containsExactly(50L, 150L, 250L, 350L, 450L, 550L, 650L, 750L, 850L, 950L);
        assertThat(sampler.taken()).isEqualTo(10);
        assertThat(sampler.largest()).isEqualTo(9);
    }

    @Test
    void aReportPastSeveralPointsCollectsOnceForAll() {
        List<Long> at = new ArrayList<>();
        LiveHeapSampler sampler = new LiveHeapSampler(100_000, 10, () -> {
            at.add(1L);
            return 3;
        });
        // Commits of 30,000 records: past 15k and 25k, then 35k and 45k and 55k, ...
        for (long records = 30_000; records <= 100_000; records += 30_000) {
            sampler.accept(records);
        }
        sampler.accept(100_000);
        assertThat(at).hasSize(4);
        assertThat(sampler.taken()).isEqualTo(4);
        sampler.accept(100_000);
        assertThat(sampler.taken()).as("every point is passed").isEqualTo(4);
    }

    @Test
    void noReportNoCollection() {
        LiveHeapSampler sampler = new LiveHeapSampler(10, 10, () -> {
            throw new AssertionError("collected");
        });
        sampler.accept(0);
        assertThat(sampler.taken()).isZero();
        assertThat(sampler.largest()).isZero();
        // With fewer records than points, the first record passes the first point.
        assertThat(sampler.threshold(0)).isEqualTo(1);
        assertThatThrownBy(() -> new LiveHeapSampler(0, 10, () -> 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aForcedCollectionFindsWhatIsStillReachable() {
        LiveHeapSampler sampler = LiveHeapSampler.forced(1, 1);
        sampler.accept(0);
        assertThat(sampler.taken()).isZero();
        byte[][] held = new byte[8][];
        for (int i = 0; i < held.length; i++) {
            held[i] = new byte[1 << 20];
        }
        sampler.accept(1);
        assertThat(sampler.taken()).isEqualTo(1);
        assertThat(sampler.largest()).isGreaterThan(8L << 20)
                .isLessThan(Runtime.getRuntime().totalMemory());
        assertThat(held[7]).hasSize(1 << 20);
        // The collector read is the one that took the whole heap: it manages the old generation's pool too, and under
        // G1, whose young collector manages as many pools, it is the full one.
        Map<String, Long> counts = LiveHeapSampler.collectionCounts();
        System.gc();
        var full = LiveHeapSampler.fullCollectorSince(counts);
        assertThat(full.getMemoryPoolNames()).anyMatch(pool -> pool.contains("Old") || pool.contains("Tenured"));
        assertThat(full.getName()).doesNotContain("Young").doesNotContain("Scavenge").doesNotContain("Copy");
    }
}
