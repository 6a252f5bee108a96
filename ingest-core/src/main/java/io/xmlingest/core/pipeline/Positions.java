package io.xmlingest.core.pipeline;

import io.xmlingest.core.checkpoint.Checkpoint;
import io.xmlingest.core.split.ResumePoint;
import io.xmlingest.core.split.Shard;

/**
 * The splitter's {@link ResumePoint} and the checkpoint's {@link Checkpoint.Position} are the same
 * place in a file; the stages do not import each other, so the pipeline translates.
 */
final class Positions {
    private Positions() {
    }

    static Checkpoint.Position of(ResumePoint r) {
        return new Checkpoint.Position(r.recordIndex(), r.byteOffset(), r.line(), r.column(), r.prologEnd(), r.openElements());
    }

    static ResumePoint resumePoint(Checkpoint.Position p) {
        return new ResumePoint(p.recordIndex(), p.byteOffset(), p.line(), p.column(), p.prologEnd(), p.openElements());
    }

    /** A shard's bounds as its checkpoints keep them; null for no shard (the whole file). */
    static Checkpoint.Bounds bounds(Shard s) {
        return s == null ? null : new Checkpoint.Bounds(s.count(), s.start() == null ? null : of(s.start()),
                s.next() == null ? null : of(s.next()));
    }

    static Shard shard(int index, Checkpoint.Bounds b) {
        return new Shard(index, b.count(), b.start() == null ? null : resumePoint(b.start()),
                b.next() == null ? null : resumePoint(b.next()));
    }
}
