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
    void restartsRefuseWhatTheyDoNotUseAndPositionsOutOfOrder() {
        assertThat(refused("--restarts", "50", "--runs", "3"))
                .contains("--runs has no effect here: --restarts kills and restarts one worker over the --records file");
        assertThat(refused("--restarts", "50,20")).contains("--restarts [50, 20]: each share must be above the one "
                + "before it and between 1 and 99 percent");
        assertThat(refused("--restarts", "100")).contains("between 1 and 99 percent");
        assertThat(refused("--restarts", "0")).contains("between 1 and 99 percent");
        assertThat(refused("--restarts", "50", "--records", "0")).contains("--records 0: the restarts need 1 to ");
        assertThat(refused("--restarts", "50", "--worker-jar", dir.resolve("missing.jar").toString()))
                .contains("missing.jar is not a file; build it with mvn package");
        assertThat(refused("--sizes", "1000", "--worker-options", "-Xshare:off"))
                .contains("--worker-options has no effect here: only --restarts starts workers");
        assertThat(refused("--value-formats", "--restarts", "50")).contains("--restarts has no effect here");
    }

    @Test
    void aReadmeWithoutTheModesMarkersIsRefusedBeforeAnythingIsMeasured() throws Exception {
        Path readme = dir.resolve("README.md");
        java.nio.file.Files.writeString(readme, "# x\n<!-- bench:start -->\n<!-- bench:end -->\n");
        StringWriter err = new StringWriter();
        CommandLine command = new CommandLine(new BenchCommand());
        command.setErr(new PrintWriter(err));

        int exit = command.execute("--restarts", "50", "--records", "1000", "--update-readme", readme.toString(),
                "--data", dir.resolve("data").toString(), "--out", dir.resolve("out").toString());

        assertThat(exit).isNotZero();
        assertThat(err.toString()).contains("has no <!-- bench-restarts:start --> ... <!-- bench-restarts:end --> markers");
        assertThat(dir.resolve("data")).as("no file generated").doesNotExist();
        assertThat(dir.resolve("out")).as("nothing written").doesNotExist();
    }

    @Test
    void roundsBelowOneAreRefused() {
        assertThat(refused("--sizes", "1000", "--rounds", "0")).contains("--rounds must be at least 1, not 0");
    }
}
