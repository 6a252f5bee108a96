package io.xmlingest.app.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class KafkaWaitTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private final AtomicInteger answers = new AtomicInteger();
    private final AtomicLong now = new AtomicLong(-7 * SECOND); // nanoTime may be negative
    private final List<String> took = new ArrayList<>();
    private final KafkaWait wait = new KafkaWait(answers::incrementAndGet,
            (what, nanos) -> took.add(what + " " + nanos / SECOND + " s"), now::get);

    @Test
    void aCallInProgressIsNamedOnceItHasWaitedLongEnough() {
        String seen = wait.call(KafkaWait.READING_CHECKPOINTS, () -> {
            now.addAndGet(4 * SECOND);
            assertThat(wait.unansweredFor(5 * SECOND)).isNull();
            now.addAndGet(SECOND);
            return wait.unansweredFor(5 * SECOND);
        });
        assertThat(seen).isEqualTo("has not answered for 5 s (reading the checkpoint topic)");
        assertThat(wait.unansweredFor(0)).as("after the answer").isNull();
        assertThat(answers).hasValue(1);
        assertThat(took).containsExactly("reading the checkpoint topic 5 s");
    }

    @Test
    void aCallWithinACallIsPartOfTheOuterOne() {
        wait.call("opening a session", () -> {
            now.addAndGet(3 * SECOND);
            wait.call(KafkaWait.READING_CHECKPOINTS, () -> {
                now.addAndGet(3 * SECOND);
                assertThat(wait.unansweredFor(5 * SECOND)).isEqualTo("has not answered for 6 s (opening a session)");
            });
            assertThat(wait.unansweredFor(0)).as("the outer call goes on").isEqualTo("has not answered for 6 s (opening a session)");
        });
        assertThat(wait.unansweredFor(0)).isNull();
        assertThat(answers).hasValue(2);
        assertThat(took).as("the inner call's time is the outer's").containsExactly("opening a session 6 s");
    }

    @Test
    void progressWithinACallStartsItsWaitAnew() {
        wait.call(KafkaWait.READING_CHECKPOINTS, () -> {
            now.addAndGet(4 * SECOND);
            wait.progress();
            now.addAndGet(4 * SECOND);
            assertThat(wait.unansweredFor(5 * SECOND)).as("4 s since the last checkpoints came in").isNull();
            now.addAndGet(2 * SECOND);
            assertThat(wait.unansweredFor(5 * SECOND)).isEqualTo("has not answered for 6 s (reading the checkpoint topic)");
        });
        wait.progress();
        assertThat(wait.unansweredFor(0)).as("progress outside a call starts none").isNull();
    }

    @Test
    void aFailedCallIsNoAnswerAndNoLongerWaitedFor() {
        assertThatThrownBy(() -> wait.call("committing an offset", () -> {
            throw new IllegalStateException("no broker");
        })).hasMessage("no broker");
        assertThat(wait.unansweredFor(0)).isNull();
        assertThat(answers).hasValue(0);
        assertThat(took).as("its time is spent all the same").containsExactly("committing an offset 0 s");
    }

    @Test
    void aCloseIsWatchedButIsNoAnswer() {
        wait.closing("closing a session", () -> {
            now.addAndGet(6 * SECOND);
            assertThat(wait.unansweredFor(5 * SECOND)).isEqualTo("has not answered for 6 s (closing a session)");
        });
        assertThat(wait.unansweredFor(0)).isNull();
        assertThat(answers).as("a close returns whether or not Kafka answered").hasValue(0);
        assertThat(took).containsExactly("closing a session 6 s");
    }
}
