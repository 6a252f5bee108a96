package io.xmlingest.core.checkpoint;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Checkpoints held in memory: for tests, and for a transactional publisher that is not Kafka. */
public final class InMemoryCheckpointStore implements CheckpointStore {

    private final Map<String, Checkpoint> byFile = new ConcurrentHashMap<>();

    @Override
    public void refresh() {
    }

    @Override
    public Optional<Checkpoint> find(String fileId) {
        return Optional.ofNullable(byFile.get(fileId));
    }

    @Override
    public void committed(Checkpoint checkpoint) {
        byFile.put(checkpoint.key(), checkpoint);
    }

    @Override
    public void close() {
    }
}
