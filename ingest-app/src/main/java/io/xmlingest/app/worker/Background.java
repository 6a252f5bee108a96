package io.xmlingest.app.worker;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/** Start-up work run beside other start-up work, on a daemon thread that never holds the JVM up. */
public final class Background {
    private Background() {
    }

    public static <T> CompletableFuture<T> start(String threadName, Supplier<T> work) {
        return CompletableFuture.supplyAsync(work, task -> {
            Thread t = new Thread(task, threadName);
            t.setDaemon(true);
            t.start();
        });
    }

    /** Waits for the work and throws what it threw, as it was thrown, so callers catch it as usual. */
    public static <T> T await(CompletableFuture<T> work) {
        try {
            return work.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }
}
