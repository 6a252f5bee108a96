package io.xmlingest.app.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class FileCrashesTest {

    @Test
    void everyCrashCountsWhereverItStruckAndTheLastErrorIsKeptOnOneLine() {
        FileCrashes first = FileCrashes.after(Optional.empty(), 300, new IllegalStateException("one\n  two"));
        assertThat(first).isEqualTo(new FileCrashes(300, 1, "java.lang.IllegalStateException: one two"));
        // A resumed file commits its first record at once, so a second crash always comes after some progress.
        FileCrashes second = FileCrashes.after(Optional.of(first), 301, new OutOfMemoryError("Java heap space"));
        assertThat(second).isEqualTo(new FileCrashes(301, 2, "java.lang.OutOfMemoryError: Java heap space"));
    }

    @Test
    void aFileIsSetAsideOnceItHasCrashedTheAllowedNumberOfTimesAndNeverWithZero() {
        FileCrashes two = new FileCrashes(10, 2, "x");
        assertThat(two.exhausted(3)).isFalse();
        assertThat(two.exhausted(2)).isTrue();
        assertThat(two.exhausted(1)).isTrue();
        assertThat(new FileCrashes(10, 1000, "x").exhausted(0)).isFalse();
    }

    @Test
    void readsWhatItWritesAndCountsAnythingElseAsNoCrash() {
        FileCrashes c = FileCrashes.after(Optional.empty(), 7, new RuntimeException("a=b"));
        assertThat(FileCrashes.decode(c.encode())).contains(c);
        assertThat(FileCrashes.decode("")).isEmpty();
        assertThat(FileCrashes.decode("at=x\ncount=1\n")).isEmpty();
    }

    @Test
    void aLongErrorIsCutSoTheReasonStaysShort() {
        FileCrashes c = FileCrashes.after(Optional.empty(), 0, new RuntimeException("v".repeat(5000)));
        assertThat(c.last()).hasSize(FileCrashes.MAX_ERROR_CHARS + 3).endsWith("...");
    }
}
