package io.xmlingest.bench.strategy;

import io.xmlingest.core.pipeline.PhaseTimes;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.LongConsumer;

/**
 * One way of reading a persons file, measured by the bench. A strategy is created fresh in its
 * own JVM; {@link #prepare} runs before each timed run and is not timed (a topic to write to, a
 * producer to open), {@link #run} is the timed work, and {@link #verify} checks what the run left
 * behind, untimed and outside the heap figures, so that no figure is reported for a wrong run.
 */
public interface Strategy {

    /** What one timed run did: how many records, a checksum that keeps the work alive, and phases if it has them. */
    record Outcome(long records, long checksum, PhaseTimes phases) {
    }

    /**
     * What a run may need besides the file.
     *
     * @param progress told how many records are done as a run goes on, by strategies that know (the worker
     *                 path, at each commit); the bench samples the live heap there
     */
    record Context(long expectedRecords, String bootstrapServers, LongConsumer progress) {

        public Context(long expectedRecords, String bootstrapServers) {
            this(expectedRecords, bootstrapServers, records -> { });
        }
    }

    default void prepare(Path file, Context context) throws Exception {
    }

    Outcome run(Path file, Context context) throws Exception;

    /**
     * Throws if the run's effect is wrong (records lost or duplicated), and the bench reports the
     * run as failed; else says what was checked, if anything.
     */
    default Optional<String> verify(Path file, Context context, Outcome outcome) throws Exception {
        return Optional.empty();
    }

    default void cleanUp() {
    }
}
