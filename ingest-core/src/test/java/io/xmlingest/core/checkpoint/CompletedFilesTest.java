package io.xmlingest.core.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CompletedFilesTest {

    private static final Set<String> MINE = Set.of("w1", "w2");

    private static Checkpoint file(String id, FileState state, int shards) {
        return new Checkpoint(id, id + ".xml", state, 10, null, 10, 0, 1, null, -1, shards);
    }

    @Test
    void onlyFilesTheseWorkersCompletedBeforeTheCutAreDueWithTheirShardsKeys() throws Exception {
        InMemoryCheckpointStore store = new InMemoryCheckpointStore();
        store.committed(file("done", FileState.COMPLETED, 0), "w1");
        store.committed(file("cut", FileState.COMPLETED, 3), "w2");
        store.committed(file("failed", FileState.FAILED, 0), "w1");
        store.committed(file("running", FileState.IN_PROGRESS, 0), "w1");
        store.committed(new Checkpoint("running", "running.xml", FileState.COMPLETED, 5, null, 5, 0, 1, null, 0), "w1");
        store.committed(file("elsewhere", FileState.COMPLETED, 0), "w9");
        store.committed(file("unknown", FileState.COMPLETED, 0));
        long cut = System.currentTimeMillis() + 1;
        Thread.sleep(5);
        store.committed(file("young", FileState.COMPLETED, 0), "w1");

        List<String> due = store.completedBefore(cut, MINE);

        // A failed file keeps its checkpoint (dropped again it goes on from its fault); a shard's own completion
        // is not its file's; a file another inbox's worker completed, or one no worker is known for, is not ours.
        assertThat(due).containsExactlyInAnyOrder("done", "cut", "cut/0", "cut/1", "cut/2");
        assertThat(store.find("done")).isPresent();
        store.forget(due);
        assertThat(store.find("done")).isEmpty();
        assertThat(store.find("cut")).isEmpty();
        assertThat(store.completedBefore(cut, MINE)).isEmpty();
        assertThat(store.find("young")).isPresent();
        assertThat(store.completedBefore(System.currentTimeMillis() + 1, MINE)).containsExactly("young");
    }

    @Test
    void aFileThatIsTakenUpAgainIsNoLongerDue() {
        InMemoryCheckpointStore store = new InMemoryCheckpointStore();
        store.committed(file("f", FileState.COMPLETED, 0), "w1");
        store.committed(file("f", FileState.IN_PROGRESS, 0), "w1");
        assertThat(store.completedBefore(System.currentTimeMillis() + 1, MINE)).isEmpty();
    }
}
