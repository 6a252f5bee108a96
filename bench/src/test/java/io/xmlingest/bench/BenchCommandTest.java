package io.xmlingest.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Options a mode would not use are refused before anything is measured or written. */
class BenchCommandTest {

    @TempDir
    Path dir;

    private String refused(String... args) {
        StringWriter err = new StringWriter();
        CommandLine command = new CommandLine(new BenchCommand());
        command.setErr(new PrintWriter(err));
        String[] withOut = Stream.concat(Arrays.stream(args), Stream.of("--out", dir.resolve("out").toString()))
                .toArray(String[]::new);
        assertThat(command.execute(withOut)).as(err.toString()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(dir.resolve("out")).as("nothing written").doesNotExist();
        return err.toString();
    }

    @Test
    void aRedrawRefusesWhatOnlyMeasuringUses() {
        assertThat(refused("--from", "results.json", "--rounds", "3"))
                .contains("--rounds has no effect here: --from draws the report again from results.json and measures nothing");
        assertThat(refused("--from", "results.json", "--no-heap-search")).contains("--no-heap-search has no effect here");
    }

    @Test
    void heapScalingRefusesRunsWarmupsAndSizes() {
        assertThat(refused("--heap-scaling", "1000", "--warmups", "2"))
                .contains("--warmups has no effect here: --heap-scaling runs each size once per round, with no warm-up");
        assertThat(refused("--heap-scaling", "1000", "--runs", "3")).contains("--runs has no effect here");
        assertThat(refused("--heap-scaling", "1000", "--sizes", "1000")).contains("--sizes has no effect here");
    }

    @Test
    void valueFormatsAndTheSpeedStudyRefuseWhatTheOtherUses() {
        assertThat(refused("--value-formats", "--rounds", "2"))
                .contains("--rounds has no effect here: --value-formats measures --records persons");
        assertThat(refused("--sizes", "1000", "--records", "5")).contains("--records has no effect here: the speed study");
    }

    @Test
    void roundsBelowOneAreRefused() {
        assertThat(refused("--sizes", "1000", "--rounds", "0")).contains("--rounds must be at least 1, not 0");
    }
}
