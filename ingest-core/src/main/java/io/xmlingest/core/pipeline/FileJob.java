package io.xmlingest.core.pipeline;

import io.xmlingest.core.checkpoint.Checkpoint;
import io.xmlingest.core.checkpoint.FileState;
import io.xmlingest.core.split.Shard;
import java.nio.file.Path;

/**
 * One file to ingest.
 *
 * @param path   where to read it
 * @param name   its name in messages and errors
 * @param fileId SHA-256 of its bytes
 * @param bytes  its size
 * @param from   the checkpoint to resume from, or null to start at the beginning (of the shard)
 * @param shard  the part of the file to ingest, or null for all of it
 */
public record FileJob(Path path, String name, String fileId, long bytes, Checkpoint from, Shard shard) {

    /** The whole file. */
    public FileJob(Path path, String name, String fileId, long bytes, Checkpoint from) {
        this(path, name, fileId, bytes, from, null);
    }

    /** This job's checkpoint before anything of it is committed: at its (shard's) first record. */
    public Checkpoint notStarted() {
        return new Checkpoint(fileId, name, FileState.IN_PROGRESS, shard == null ? 0 : shard.firstRecordIndex(), null,
                0, 0, 0, null, shardIndex(), 0, Positions.bounds(shard));
    }

    /** The index the checkpoints of this job carry: the shard's, or -1 for the whole file. */
    public int shardIndex() {
        return shard == null ? -1 : shard.index();
    }
}
