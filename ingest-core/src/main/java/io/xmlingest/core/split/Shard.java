package io.xmlingest.core.split;

/**
 * A byte range of a file that one worker ingests on its own: the records whose start tags lie in
 * {@code [start, end)}. Shards are cut at real record starts, so every record of the file belongs
 * to exactly one shard, and record indexes stay the file's own.
 *
 * @param index    0-based number of this shard
 * @param count    how many shards the file has
 * @param start    where this shard's first record starts, with what a reader needs to start there; null for
 *                 the first shard, which reads the file from its beginning
 * @param next     where the next shard's first record starts, or null for the last shard
 */
public record Shard(int index, int count, ResumePoint start, ResumePoint next) {

    public Shard {
        if (index < 0 || index >= count) {
            throw new IllegalArgumentException("shard " + index + " of " + count);
        }
        if ((index == 0) != (start == null) || (index == count - 1) != (next == null)) {
            throw new IllegalArgumentException("only the first shard starts at the file's beginning, "
                    + "and only the last runs to its end");
        }
    }

    /** Index of the shard's first record in the whole file. */
    public long firstRecordIndex() {
        return start == null ? 0 : start.recordIndex();
    }

    /** Index of the first record after this shard, or {@link Long#MAX_VALUE} for the last. */
    public long endRecordIndex() {
        return next == null ? Long.MAX_VALUE : next.recordIndex();
    }


    @Override
    public String toString() {
        return "shard " + index + " of " + count;
    }
}
