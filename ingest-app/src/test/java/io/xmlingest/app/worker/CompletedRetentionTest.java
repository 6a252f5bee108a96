package io.xmlingest.app.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.app.AppSettings;
import io.xmlingest.core.checkpoint.Checkpoint;
import io.xmlingest.core.checkpoint.FileState;
import io.xmlingest.core.checkpoint.InMemoryCheckpointStore;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.error.ConfigException;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CompletedRetentionTest {

    private static IngestConfig config(String retention) {
        return IngestConfig.of(AppSettings.ALL, Map.of("topic", "t", "worker.completed.retention.ms", retention));
    }

    private static Checkpoint completed(String id, int shards) {
        return new Checkpoint(id, id + ".xml", FileState.COMPLETED, 1, null, 1, 0, 1, null, -1, shards);
    }

    @Test
    void filesInHandAreKeptAndLooksAreAMinuteApart() {
        WorkerHarness.MovableClock clock = new WorkerHarness.MovableClock();
        CompletedRetention retention = new CompletedRetention(config("3600000"), "t.checkpoints", clock);
        InMemoryCheckpointStore store = new InMemoryCheckpointStore();
        store.committed(completed("moved", 2));
        store.committed(completed("unmoved", 0));

        assertThat(retention.due(store, Set::of)).as("not an hour old yet").isEmpty();
        clock.advance(Duration.ofHours(2));
        // A completed file still in processing/ or sharded/ (not moved on yet) keeps its checkpoint.
        assertThat(retention.due(store, () -> Set.of("unmoved"))).containsExactlyInAnyOrder("moved", "moved/0", "moved/1");
        assertThat(retention.due(store, Set::of)).as("within a minute of the last look").isEmpty();
        clock.advance(Duration.ofMinutes(1));
        assertThat(retention.due(store, Set::of)).containsExactlyInAnyOrder("moved", "moved/0", "moved/1", "unmoved");
    }

    @Test
    void offByDefaultAndNeverUnderAnHour() {
        CompletedRetention off = new CompletedRetention(IngestConfig.of(AppSettings.ALL, Map.of("topic", "t")),
                "t.checkpoints", new WorkerHarness.MovableClock());
        InMemoryCheckpointStore store = new InMemoryCheckpointStore();
        store.committed(completed("f", 0));
        assertThat(off.due(store, Set::of)).isEmpty();
        assertThatThrownBy(() -> config("60000")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("worker.completed.retention.ms").hasMessageContaining("at least 3600000");
    }
}
