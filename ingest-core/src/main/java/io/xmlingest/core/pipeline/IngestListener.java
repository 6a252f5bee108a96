package io.xmlingest.core.pipeline;

import io.xmlingest.core.checkpoint.Checkpoint;
import io.xmlingest.core.error.RecordRejectedException;
import io.xmlingest.core.page.Page;

/** Hears what happens to a file while it is ingested: for progress output and logs. */
public interface IngestListener {

    /** A record was rejected and skipped; the exception says where and why. */
    default void rejected(RecordRejectedException e) {
    }

    /** A page was acknowledged; {@code bytesRead} of {@code fileBytes} of the file are done. */
    default void acknowledged(Page page, long bytesRead, long fileBytes) {
    }

    /**
     * A transaction committed: {@code checkpoint} is the file's progress, {@code bytesRead} of
     * {@code fileBytes} are read, and {@code spent} is where the time went since the last commit.
     */
    default void committed(Checkpoint checkpoint, long bytesRead, long fileBytes, PhaseTimes spent) {
    }

    IngestListener NONE = new IngestListener() {
    };
}
