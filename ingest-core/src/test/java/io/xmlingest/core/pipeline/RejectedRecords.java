package io.xmlingest.core.pipeline;

import io.xmlingest.core.error.RecordRejectedException;
import java.util.ArrayList;
import java.util.List;

/** A listener that keeps every rejection, for tests to look at. */
final class RejectedRecords implements IngestListener {
    final List<RecordRejectedException> all = new ArrayList<>();

    @Override
    public void rejected(RecordRejectedException e) {
        all.add(e);
    }
}
