package io.xmlingest.core.checkpoint;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * When, and by which worker, each completed file completed, kept beside a store's checkpoints so
 * that old ones can be let go by the workers of the inbox that ingested them.
 */
final class CompletedFiles {
    private CompletedFiles() {
    }

    /** A whole file's completion: when its checkpoint was written, and by which worker (null: unknown). */
    record Completion(long at, String worker) {
    }

    /** Notes {@code c} if it completes a whole file; any other checkpoint of that key clears the note. */
    static void note(Map<String, Completion> completed, Checkpoint c, long epochMillis, String worker) {
        if (c.shard() < 0 && c.state() == FileState.COMPLETED) {
            Completion known = completed.get(c.key());
            // Read back after this process recorded it: the same completion, now with its worker from the topic.
            completed.put(c.key(), new Completion(known == null ? epochMillis : Math.min(known.at(), epochMillis),
                    worker != null || known == null ? worker : known.worker()));
        } else {
            completed.remove(c.key());
        }
    }

    static List<String> before(Map<String, Completion> completed, Map<String, Checkpoint> byKey, long epochMillis,
                               Set<String> workers) {
        List<String> keys = new ArrayList<>();
        for (Map.Entry<String, Completion> e : completed.entrySet()) {
            Completion done = e.getValue();
            if (done.at() < epochMillis && done.worker() != null && workers.contains(done.worker())) {
                keys.add(e.getKey());
                Checkpoint c = byKey.get(e.getKey());
                for (int i = 0; c != null && i < c.shards(); i++) {
                    keys.add(Checkpoint.key(c.fileId(), i));
                }
            }
        }
        return keys;
    }

    /** Lets go of what is held under these keys, checkpoint and completion alike. */
    static void forget(Map<String, Checkpoint> byKey, Map<String, Completion> completed, Collection<String> keys) {
        for (String key : keys) {
            byKey.remove(key);
            completed.remove(key);
        }
    }
}
