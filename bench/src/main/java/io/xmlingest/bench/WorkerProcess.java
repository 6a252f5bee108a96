package io.xmlingest.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The worker of a restarts round: one process at a time, each start fencing the one before. */
final class WorkerProcess implements AutoCloseable {

    private final List<String> command;
    private final Thread hook;
    private volatile Process process;

    WorkerProcess(List<String> command) {
        this.command = List.copyOf(command);
        // A bench stopped with Ctrl-C must not leave a worker ingesting on its own.
        hook = new Thread(() -> {
            Process p = process;
            if (p != null) {
                p.destroyForcibly();
            }
        }, "bench-worker-stop");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    void launch(Path log) throws IOException {
        process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    boolean alive() {
        Process p = process;
        return p != null && p.isAlive();
    }

    /** SIGKILL, as a crash or an OOM killer would: nothing is closed or flushed. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    /** Asks the worker to stop (SIGTERM), then kills it if it has not within 30 s. */
    @Override
    public void close() throws InterruptedException {
        try {
            Process p = process;
            if (p != null) {
                p.destroy();
                if (!p.waitFor(30, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor();
                }
            }
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
        }
    }
}
