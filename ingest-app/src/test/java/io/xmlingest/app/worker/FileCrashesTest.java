package io.xmlingest.app.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class FileCrashesTest {

    private static final String ID = "a".repeat(64);

    @Test
    void everyCrashOfTheSameContentCountsWhereverItStruckAndTheLastErrorIsKeptOnOneLine() {
        FileCrashes first = FileCrashes.after(Optional.empty(), ID, 300, new IllegalStateException("one\n  two"));
        assertThat(first).isEqualTo(new FileCrashes(ID, 300, 1, "java.lang.IllegalStateException: one two"));
        // A resumed file commits as soon as it moves, so a second crash nearly always comes after some progress.
        FileCrashes second = FileCrashes.after(Optional.of(first), ID, 302, new OutOfMemoryError("Java heap space"));
        assertThat(second).isEqualTo(new FileCrashes(ID, 302, 2, "java.lang.OutOfMemoryError: Java heap space"));
    }

    @Test
    void aCountForOtherContentStartsAgainAndCountsForNothing() {
        // Left by a file of the same name before (the worker died moving it on), or before the content was known.
        FileCrashes other = new FileCrashes("b".repeat(64), 10, 5, "x");
        assertThat(other.exhausted(ID, 3)).isFalse();
        assertThat(FileCrashes.after(Optional.of(other), ID, 0, new RuntimeException()).count()).isEqualTo(1);
        FileCrashes unidentified = FileCrashes.after(Optional.empty(), "", -1, new StackOverflowError());
        assertThat(unidentified.exhausted("", 1)).isTrue();
        assertThat(unidentified.exhausted(ID, 1)).isFalse();
    }

    @Test
    void aFileIsSetAsideOnceItHasCrashedTheAllowedNumberOfTimesAndNeverWithZero() {
        FileCrashes two = new FileCrashes(ID, 10, 2, "x");
        assertThat(two.exhausted(ID, 3)).isFalse();
        assertThat(two.exhausted(ID, 2)).isTrue();
        assertThat(two.exhausted(ID, 1)).isTrue();
        assertThat(new FileCrashes(ID, 10, 1000, "x").exhausted(ID, 0)).isFalse();
        // What the log line says comes next agrees.
        assertThat(two.outlook(3)).isEqualTo("it is taken up again (set aside after 3, worker.file.max.crashes)");
        assertThat(two.outlook(2)).isEqualTo("it is set aside the next time it is taken up (worker.file.max.crashes=2)");
        assertThat(two.outlook(0)).isEqualTo("it is taken up again every time (worker.file.max.crashes=0)");
    }

    @Test
    void readsWhatItWritesAndCountsAnythingElseAsNoCrash() {
        FileCrashes c = FileCrashes.after(Optional.empty(), ID, 7, new RuntimeException("a=b"));
        assertThat(FileCrashes.decode(c.encode())).contains(c);
        FileCrashes early = FileCrashes.after(Optional.empty(), "", -1, new RuntimeException());
        assertThat(FileCrashes.decode(early.encode())).contains(early);
        assertThat(FileCrashes.decode("")).isEmpty();
        assertThat(FileCrashes.decode("at=x\ncount=1\n")).isEmpty();
    }

    @Test
    void aLongErrorIsCutSoTheReasonStaysShort() {
        FileCrashes c = FileCrashes.after(Optional.empty(), ID, 0, new RuntimeException("v".repeat(5000)));
        assertThat(c.last()).hasSize(FileCrashes.MAX_ERROR_CHARS + 3).endsWith("...");
    }
}
