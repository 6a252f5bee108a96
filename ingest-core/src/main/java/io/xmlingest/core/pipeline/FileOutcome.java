package io.xmlingest.core.pipeline;

import io.xmlingest.core.checkpoint.Checkpoint;
import io.xmlingest.core.error.FileFailedException;
import java.util.Map;

/**
 * How one run over a file ended.
 *
 * @param ending     completed, failed, or stopped on request with the rest left for the next run
 * @param checkpoint the last checkpoint committed (its counts cover every run over the file)
 * @param failure    why the file failed, or null
 * @param bytesRead  bytes of the file read by this run
 * @param nanos      this run's wall time
 * @param phases     where this run's time went
 * @param passedOver the elements beside the records this run passed over, by name (see
 *                   {@link io.xmlingest.core.split.RecordSplitter#passedOver})
 */
public record FileOutcome(Ending ending, Checkpoint checkpoint, FileFailedException failure, long bytesRead,
                          long nanos, PhaseTimes phases, Map<String, Long> passedOver) {

    public enum Ending { COMPLETED, FAILED, STOPPED }
}
