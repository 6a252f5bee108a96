package io.xmlingest.core.pipeline;

import java.util.function.Supplier;

/**
 * Hears how long named steps took, as start and end {@link System#nanoTime()} readings rather
 * than durations, so that steps run side by side on several threads can be laid out on one time
 * line. The worker uses it to show where its start-up time goes.
 */
@FunctionalInterface
public interface StepTimes {

    void took(String step, long startNanos, long endNanos);

    default <T> T time(String step, Supplier<T> work) {
        long start = System.nanoTime();
        try {
            return work.get();
        } finally {
            took(step, start, System.nanoTime());
        }
    }

    default void time(String step, Runnable work) {
        time(step, () -> {
            work.run();
            return null;
        });
    }

    StepTimes NONE = (step, startNanos, endNanos) -> {
    };
}
