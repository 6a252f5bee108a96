package io.xmlingest.core.split;

import io.xmlingest.core.error.FileFailedException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a file at the first real record start at or after each of its equal byte ranges' starts.
 * "Real" is decided by the parser itself: the planner runs the splitter's cursor over the file
 * without binding anything, so a record start tag written inside a comment, a CDATA section or an
 * attribute value is text to it, and a range start inside a record or inside a multi-byte
 * character simply moves to the next record's start tag. The resume point it keeps for each cut
 * carries the prolog and the namespace bindings in scope, so a shard's reader starts at its byte
 * offset without reading anything before it.
 *
 * <p>The scan costs one pass of the parser over the file on the planning worker (it is the
 * cheapest stage of ingestion: no binding, no serializing, no Kafka). A fault in the file ends
 * the plan where it was found: the last shard runs to the end of the file and meets the fault
 * itself, so the file fails where it would have failed on one worker, and no shard lies beyond a
 * fault (whose reader could run ahead into it).
 */
public final class StaxShardPlanner implements ShardPlanner {

    private final RecordElements recordElements;
    private final XmlLimits limits;

    public StaxShardPlanner(RecordElements recordElements, XmlLimits limits) {
        this.recordElements = recordElements;
        this.limits = limits;
    }

    @Override
    public List<Shard> plan(Path file, String name, int shards, long end) {
        if (shards < 1) {
            throw new IllegalArgumentException("shards must be at least 1: " + shards);
        }
        long size = Math.min(size(file, name), end);
        List<ResumePoint> starts = new ArrayList<>();
        starts.add(null);
        if (shards > 1) {
            try (StaxRecordSplitter splitter = StaxRecordSplitter.open(file, name, recordElements, limits, end)) {
                int range = 1;
                while (range < shards && splitter.next()) {
                    long offset = splitter.position().byteOffset();
                    if (offset < cut(range, shards, size)) {
                        continue;
                    }
                    if (splitter.position().recordIndex() > 0) {
                        ResumePoint at = splitter.resumePoint();
                        if (at == null) {
                            // An encoding whose byte offsets the splitter does not track: the file is one shard.
                            starts.subList(1, starts.size()).clear();
                            break;
                        }
                        starts.add(at);
                    }
                    // Every range this record's start passed over is empty: the record starts the next shard.
                    while (range < shards && offset >= cut(range, shards, size)) {
                        range++;
                    }
                }
            } catch (FileFailedException e) {
                // The shards found so far stand; the last one reads on to the fault and reports it.
            }
        }
        List<Shard> plan = new ArrayList<>(starts.size());
        for (int i = 0; i < starts.size(); i++) {
            plan.add(new Shard(i, starts.size(), starts.get(i), i + 1 < starts.size() ? starts.get(i + 1) : null));
        }
        return List.copyOf(plan);
    }

    private static long cut(int range, int shards, long size) {
        return Math.multiplyExact(size, (long) range) / shards;
    }

    private static long size(Path file, String name) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the size of " + name, e);
        }
    }
}
