package io.xmlingest.bench.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ExactlyOnceCheckTest {

    @Test
    void everyKindOfProblemIsNamed() {
        ExactlyOnceCheck.Tally lost = new ExactlyOnceCheck.Tally(9, 9, 0, 0, -1, 4, 1, 10, 0);
        assertThat(lost.problems(10)).containsExactly("9 messages, expected 10",
                "9 distinct record indexes, expected 10 (the first missing is 4)");
        ExactlyOnceCheck.Tally unfinished = new ExactlyOnceCheck.Tally(10, 10, 0, 0, -1, -1, 0, -1, 1);
        assertThat(unfinished.problems(10)).containsExactly("0 completed events, expected 1", "1 failed events");
        ExactlyOnceCheck.Tally stray = new ExactlyOnceCheck.Tally(11, 10, 0, 1, -1, -1, 2, 10, 0);
        assertThat(stray.problems(10)).containsExactly("11 messages, expected 10",
                "1 messages without a xmlingest.record.index header in 0..9", "2 completed events, expected 1");
    }

    @Test
    void aCleanTallyHasNoProblemsAndSaysWhatItFound() {
        ExactlyOnceCheck.Tally clean = new ExactlyOnceCheck.Tally(1_000_000, 1_000_000, 0, 0, -1, -1, 1, 1_000_000, 0);
        assertThat(clean.problems(1_000_000)).isEmpty();
        assertThat(clean.summary()).isEqualTo("1,000,000 messages with 1,000,000 distinct record indexes, 1 completed event");
    }

    @Test
    void theExactlyOncePathRefusesToRunWithoutABroker() {
        assertThatThrownBy(() -> new OursExactlyOnce().prepare(Path.of("x.xml"), new Strategy.Context(10, null)))
                .hasMessageContaining("needs a broker");
    }
}
