package io.xmlingest.core.checkpoint;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Checkpoints held in memory: for tests, and for a transactional publisher that is not Kafka. */
public final class InMemoryCheckpointStore implements CheckpointStore {

    private final Map<String, Checkpoint> byFile = new ConcurrentHashMap<>();
    private final Map<String, CompletedFiles.Completion> completedAt = new ConcurrentHashMap<>();

    @Override
    public void refresh() {
    }

    @Override
    public Optional<Checkpoint> find(String fileId) {
        return Optional.ofNullable(byFile.get(fileId));
    }

    @Override
    public void committed(Checkpoint checkpoint, String worker) {
        byFile.put(checkpoint.key(), checkpoint);
        CompletedFiles.note(completedAt, checkpoint, System.currentTimeMillis(), worker);
    }

    @Override
    public List<String> completedBefore(long epochMillis, Set<String> workers) {
        return CompletedFiles.before(completedAt, byFile, epochMillis, workers);
    }

    @Override
    public void forget(Collection<String> keys) {
        CompletedFiles.forget(byFile, completedAt, keys);
    }

    @Override
    public void close() {
    }
}
