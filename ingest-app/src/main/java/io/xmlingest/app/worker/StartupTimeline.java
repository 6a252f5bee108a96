package io.xmlingest.app.worker;

import io.xmlingest.core.pipeline.IngestListener;
import io.xmlingest.core.pipeline.StepTimes;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Where a worker's start-up goes, from the JVM's launch to its first commit: a restarted worker
 * is judged by how soon it publishes again, and launching the JVM counts. Steps are kept as
 * intervals since the launch, since some of them run side by side, and written out once, at the
 * first commit.
 */
public final class StartupTimeline implements StepTimes {

    private record Step(String name, long startNanos, long endNanos) {
    }

    private final LongSupplier nanoTime;
    private final long launchNanos;
    private final Consumer<String> out;
    private final List<Step> steps = new ArrayList<>();
    private volatile boolean reported;

    /**
     * @param nanoTime    the clock the steps are read with
     * @param launchNanos the JVM's launch on that clock
     * @param out         where the summary goes, once
     */
    StartupTimeline(LongSupplier nanoTime, long launchNanos, Consumer<String> out) {
        this.nanoTime = nanoTime;
        this.launchNanos = launchNanos;
        this.out = out;
    }

    /** A time line that starts at this JVM's launch, reported to {@code out}. */
    public static StartupTimeline sinceJvmLaunch(Consumer<String> out) {
        long now = System.nanoTime();
        long sinceLaunchMillis = System.currentTimeMillis() - ManagementFactory.getRuntimeMXBean().getStartTime();
        return new StartupTimeline(System::nanoTime, now - sinceLaunchMillis * 1_000_000, out);
    }

    /** A time line that reports nothing, for a worker whose start-up nobody watches. */
    public static StartupTimeline unwatched() {
        StartupTimeline t = new StartupTimeline(System::nanoTime, System.nanoTime(), line -> {
        });
        t.reported = true;
        return t;
    }

    /** The step from the launch to now: what the JVM and the command line took before the worker's own steps. */
    public void launched(String step) {
        took(step, launchNanos, nanoTime.getAsLong());
    }

    @Override
    public void took(String step, long startNanos, long endNanos) {
        if (reported) {
            return;
        }
        synchronized (steps) {
            steps.add(new Step(step, startNanos, endNanos));
        }
    }

    double secondsSinceLaunch() {
        return (nanoTime.getAsLong() - launchNanos) / 1e9;
    }

    /** Reports the time line at the first commit that {@code inner} hears of. */
    IngestListener untilFirstCommit(String firstStep, long firstStepStart, IngestListener inner) {
        if (reported) {
            return inner;
        }
        return IngestListener.onCommit(inner, c -> {
            if (!reported) {
                took(firstStep, firstStepStart, nanoTime.getAsLong());
                report();
            }
        });
    }

    private void report() {
        List<Step> copy;
        synchronized (steps) {
            copy = List.copyOf(steps);
        }
        reported = true;
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                "start-up: first commit %.2f s after the JVM's launch;", secondsSinceLaunch()));
        String sep = " ";
        for (Step s : copy) {
            line.append(sep).append(String.format(Locale.ROOT, "%s %.2f s [%.2f-%.2f]", s.name(),
                    (s.endNanos() - s.startNanos()) / 1e9, (s.startNanos() - launchNanos) / 1e9,
                    (s.endNanos() - launchNanos) / 1e9));
            sep = ", ";
        }
        out.accept(line.toString());
    }
}
