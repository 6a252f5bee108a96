package io.xmlingest.app.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class KafkaWaitTest {

    private final AtomicInteger answers = new AtomicInteger();
    private final KafkaWait wait = new KafkaWait(answers::incrementAndGet);

    @Test
    void aCallInProgressIsNamedOnceItHasWaitedLongEnough() {
        String seen = wait.call("reading the checkpoint topic", () -> {
            assertThat(wait.unansweredFor(Long.MAX_VALUE)).isNull();
            return wait.unansweredFor(0);
        });
        assertThat(seen).matches("has not answered for 0 s \\(reading the checkpoint topic\\)");
        assertThat(wait.unansweredFor(0)).as("after the answer").isNull();
        assertThat(answers).hasValue(1);
    }

    @Test
    void aCallWithinACallIsPartOfTheOuterOne() throws Exception {
        wait.call("opening a session", () -> {
            sleep(1100);
            wait.call("reading the checkpoint topic", () -> {
                assertThat(wait.unansweredFor(1_000_000_000L)).isEqualTo("has not answered for 1 s (opening a session)");
            });
            assertThat(wait.unansweredFor(0)).as("the outer call goes on").contains("(opening a session)");
        });
        assertThat(wait.unansweredFor(0)).isNull();
        assertThat(answers).hasValue(2);
    }

    @Test
    void aFailedCallIsNoAnswerAndNoLongerWaitedFor() {
        assertThatThrownBy(() -> wait.call("committing an offset", () -> {
            throw new IllegalStateException("no broker");
        })).hasMessage("no broker");
        assertThat(wait.unansweredFor(0)).isNull();
        assertThat(answers).hasValue(0);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
