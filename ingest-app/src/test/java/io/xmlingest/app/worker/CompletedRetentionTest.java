package io.xmlingest.app.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.app.AppSettings;
import io.xmlingest.core.checkpoint.Checkpoint;
import io.xmlingest.core.checkpoint.FileState;
import io.xmlingest.core.checkpoint.InMemoryCheckpointStore;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.error.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompletedRetentionTest {

    @TempDir
    Path dir;

    private static IngestConfig config(String retention) {
        return IngestConfig.of(AppSettings.ALL, Map.of("topic", "t", "worker.completed.retention.ms", retention));
    }

    private static Checkpoint completed(String id, int shards) {
        return new Checkpoint(id, id + ".xml", FileState.COMPLETED, 1, null, 1, 0, 1, null, -1, shards);
    }

    @Test
    void onlyThisInboxsFilesNotInHandAndLooksAreAMinuteApart() throws Exception {
        WorkerHarness.MovableClock clock = new WorkerHarness.MovableClock();
        CompletedRetention retention = new CompletedRetention(config("3600000"), "t.checkpoints", clock);
        Inbox inbox = new Inbox(dir, "w1", 0, Clock.systemUTC());
        new Inbox(dir, "w2", 0, Clock.systemUTC()); // another worker of this inbox
        // A completed file w2 has not moved on yet: it is in hand.
        Path claimed = Files.writeString(Files.createDirectories(dir.resolve("processing/w2")).resolve("u.xml"), "<x/>");
        inbox.recordIdentity(claimed, RecordedIdentity.hashOnly("unmoved"));
        InMemoryCheckpointStore store = new InMemoryCheckpointStore();
        store.committed(completed("moved", 2), "w1");
        store.committed(completed("unmoved", 0), "w2");
        store.committed(completed("theirs", 0), "w-of-another-inbox");

        assertThat(retention.due(store, inbox)).as("not an hour old yet").isEmpty();
        clock.advance(Duration.ofHours(2));
        assertThat(retention.due(store, inbox)).containsExactlyInAnyOrder("moved", "moved/0", "moved/1");
        assertThat(retention.due(store, inbox)).as("within a minute of the last look").isEmpty();
        Files.delete(claimed);
        clock.advance(Duration.ofMinutes(1));
        assertThat(retention.due(store, inbox)).containsExactlyInAnyOrder("moved", "moved/0", "moved/1", "unmoved");
    }

    @Test
    void offByDefaultAndNeverUnderAnHour() {
        CompletedRetention off = new CompletedRetention(IngestConfig.of(AppSettings.ALL, Map.of("topic", "t")),
                "t.checkpoints", new WorkerHarness.MovableClock());
        InMemoryCheckpointStore store = new InMemoryCheckpointStore();
        store.committed(completed("f", 0), "w1");
        assertThat(off.due(store, new Inbox(dir, "w1", 0, Clock.systemUTC()))).isEmpty();
        assertThatThrownBy(() -> config("60000")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("worker.completed.retention.ms").hasMessageContaining("at least 3600000");
    }
}
