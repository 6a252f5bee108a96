package io.xmlingest.core.pipeline;

import io.xmlingest.core.checkpoint.Checkpoint;
import io.xmlingest.core.error.RecordRejectedException;
import io.xmlingest.core.page.Page;
import java.util.function.Consumer;

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

    /** {@code inner}, and {@code then} told of each commit after it: for a caller that watches commits too. */
    static IngestListener onCommit(IngestListener inner, Consumer<Checkpoint> then) {
        return new IngestListener() {
            @Override
            public void rejected(RecordRejectedException e) {
                inner.rejected(e);
            }

            @Override
            public void acknowledged(Page page, long bytesRead, long fileBytes) {
                inner.acknowledged(page, bytesRead, fileBytes);
            }

            @Override
            public void committed(Checkpoint checkpoint, long bytesRead, long fileBytes, PhaseTimes spent) {
                inner.committed(checkpoint, bytesRead, fileBytes, spent);
                then.accept(checkpoint);
            }
        };
    }
}
