package io.xmlingest.app.worker;

import io.xmlingest.core.checkpoint.Checkpoint;
import io.xmlingest.core.error.RecordRejectedException;
import io.xmlingest.core.page.Page;
import io.xmlingest.core.pipeline.IngestListener;
import io.xmlingest.core.pipeline.PhaseTimes;
import java.util.function.LongConsumer;

/**
 * Passes what it hears on, telling {@code committedAt} the next record index of every commit: an
 * error that stops the worker is counted against where its file or shard stood (FileCrashes).
 */
final class CommitWatch implements IngestListener {

    private final IngestListener listener;
    private final LongConsumer committedAt;

    CommitWatch(IngestListener listener, LongConsumer committedAt) {
        this.listener = listener;
        this.committedAt = committedAt;
    }

    @Override
    public void rejected(RecordRejectedException e) {
        listener.rejected(e);
    }

    @Override
    public void acknowledged(Page page, long bytesRead, long fileBytes) {
        listener.acknowledged(page, bytesRead, fileBytes);
    }

    @Override
    public void committed(Checkpoint checkpoint, long bytesRead, long fileBytes, PhaseTimes spent) {
        committedAt.accept(checkpoint.nextRecordIndex());
        listener.committed(checkpoint, bytesRead, fileBytes, spent);
    }
}
