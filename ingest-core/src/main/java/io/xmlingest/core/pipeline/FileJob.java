package io.xmlingest.core.pipeline;

import io.xmlingest.core.checkpoint.Checkpoint;
import java.nio.file.Path;

/**
 * One file to ingest.
 *
 * @param path   where to read it
 * @param name   its name in messages and errors
 * @param fileId SHA-256 of its bytes
 * @param bytes  its size
 * @param from   the checkpoint to resume from, or null to start at the beginning
 */
public record FileJob(Path path, String name, String fileId, long bytes, Checkpoint from) {
}
