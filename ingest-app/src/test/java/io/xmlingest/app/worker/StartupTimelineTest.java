package io.xmlingest.app.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.xmlingest.core.checkpoint.Checkpoint;
import io.xmlingest.core.checkpoint.FileState;
import io.xmlingest.core.pipeline.IngestListener;
import io.xmlingest.core.pipeline.PhaseTimes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class StartupTimelineTest {

    private static final long MS = 1_000_000;
    private static final Checkpoint PAGE = new Checkpoint("f", "a.xml", FileState.IN_PROGRESS, 10, null, 10, 0, 1, null);
    private static final PhaseTimes NOTHING = new PhaseTimes(0, 0, 0, 0, 0);

    private final AtomicLong now = new AtomicLong(5_000 * MS);
    private final List<String> lines = new ArrayList<>();
    // The JVM was launched 700 ms before the clock's current reading.
    private final StartupTimeline timeline = new StartupTimeline(now::get, now.get() - 700 * MS, lines::add);

    @Test
    void reportsStepsSideBySideAsIntervalsSinceTheLaunchAtTheFirstCommitOnly() {
        timeline.launched("jvm");
        timeline.took("jaxb", now.get(), now.get() + 300 * MS);
        timeline.took("topics", now.get() + 10 * MS, now.get() + 450 * MS);
        now.addAndGet(500 * MS);
        AtomicInteger heard = new AtomicInteger();
        IngestListener metrics = new IngestListener() {
            @Override
            public void committed(Checkpoint c, long bytesRead, long fileBytes, PhaseTimes spent) {
                heard.incrementAndGet();
            }
        };
        IngestListener listener = timeline.untilFirstCommit("first page", now.get(), metrics);
        now.addAndGet(250 * MS);
        listener.committed(PAGE, 100, 1000, NOTHING);
        now.addAndGet(250 * MS);
        listener.committed(PAGE, 200, 1000, NOTHING);

        assertThat(heard).hasValue(2);
        assertThat(lines).containsExactly("start-up: first commit 1.45 s after the JVM's launch; jvm 0.70 s [0.00-0.70], "
                + "jaxb 0.30 s [0.70-1.00], topics 0.44 s [0.71-1.15], first page 0.25 s [1.20-1.45]");
    }

    @Test
    void stepsAfterTheFirstCommitAreNotKeptAndALaterFileIsNotWrapped() {
        IngestListener metrics = IngestListener.NONE;
        timeline.untilFirstCommit("first page", now.get(), metrics).committed(PAGE, 1, 1, NOTHING);
        timeline.took("identify", now.get(), now.get() + MS);

        assertThat(lines).hasSize(1).first().asString().doesNotContain("identify");
        assertThat(timeline.untilFirstCommit("first page", now.get(), metrics)).isSameAs(metrics);
    }

    @Test
    void anUnwatchedTimelineReportsNothing() {
        StartupTimeline unwatched = StartupTimeline.unwatched();
        IngestListener metrics = IngestListener.NONE;

        assertThat(unwatched.untilFirstCommit("first page", now.get(), metrics)).isSameAs(metrics);
    }
}
