package io.xmlingest.core.checkpoint;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** When each completed file completed, kept beside a store's checkpoints so that old ones can be let go. */
final class CompletedFiles {
    private CompletedFiles() {
    }

    /** Notes when {@code c} was written if it completes a whole file; any other checkpoint of that key clears it. */
    static void note(Map<String, Long> completedAt, Checkpoint c, long epochMillis) {
        if (c.shard() < 0 && c.state() == FileState.COMPLETED) {
            completedAt.put(c.key(), epochMillis);
        } else {
            completedAt.remove(c.key());
        }
    }

    static List<String> before(Map<String, Long> completedAt, Map<String, Checkpoint> byKey, long epochMillis) {
        List<String> keys = new ArrayList<>();
        for (Map.Entry<String, Long> e : completedAt.entrySet()) {
            if (e.getValue() < epochMillis) {
                keys.add(e.getKey());
                Checkpoint c = byKey.get(e.getKey());
                for (int i = 0; c != null && i < c.shards(); i++) {
                    keys.add(Checkpoint.key(c.fileId(), i));
                }
            }
        }
        return keys;
    }
}
