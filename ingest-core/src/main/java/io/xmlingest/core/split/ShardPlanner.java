package io.xmlingest.core.split;

import java.nio.file.Path;
import java.util.List;

/** Cuts a file into shards that workers can ingest independently. */
public interface ShardPlanner {

    /**
     * Cuts {@code file} into at most {@code shards} shards of about equal byte size. A file with
     * fewer record starts than that (or a record spanning several ranges) gets fewer shards; any
     * file gets at least one.
     */
    default List<Shard> plan(Path file, String name, int shards) {
        return plan(file, name, shards, Long.MAX_VALUE);
    }

    /**
     * {@link #plan(Path, String, int)} of the file's first {@code end} bytes: what its identity was taken over, where a
     * file still being written has grown since. {@code Long.MAX_VALUE} plans the whole file.
     */
    List<Shard> plan(Path file, String name, int shards, long end);
}
