package io.xmlingest.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The restarts mode end to end: a real worker process killed a fifth of the way through a 100,000-record
 * file and started again, against the bench's real broker, and every record read back once. A fifth, not
 * more: a warm worker commits a tenth of this file at a time, and must not finish it before the kill.
 */
class RestartsIT {

    private static final long RECORDS = 100_000;

    @TempDir
    Path dir;

    @Test
    void aKilledWorkerIsTimedToItsSuccessorsFirstNewRecordAndNothingIsLostOrRepeated() throws Exception {
        Path out = dir.resolve("report");
        Path readme = dir.resolve("README.md");
        Files.writeString(readme, "# x\n<!-- bench-restarts:start -->\nold\n<!-- bench-restarts:end -->\nafter\n");

        int exit = new CommandLine(new BenchCommand()).execute("--restarts", "20", "--records", Long.toString(RECORDS),
                "--data", dir.resolve("data").toString(), "--out", out.toString(), "--update-readme", readme.toString());

        assertThat(exit).isZero();
        JsonNode results = new ObjectMapper().readTree(out.resolve("results.json").toFile());
        assertThat(results.get("restarts")).hasSize(1);
        JsonNode restart = results.get("restarts").get(0);
        assertThat(restart.get("percent").asInt()).isEqualTo(20);
        // Killed once a fifth was committed, and before the whole file was: the successor had the rest to publish.
        assertThat(restart.get("committedBefore").asLong()).isBetween(RECORDS / 5, RECORDS - 1);
        double workerSeconds = restart.get("workerSeconds").asDouble();
        assertThat(workerSeconds).as("the worker's start-up line was read").isPositive();
        // The successor's JVM starts after its launch and commits about when the consumer sees it, so the time is
        // about its own figure or more. A commit of the killed worker taken for the successor's would have arrived
        // within milliseconds of the launch, far under it; the margin is for a loaded machine's scheduling.
        assertThat(restart.get("seconds").asDouble()).isGreaterThan(workerSeconds - 0.5);
        // Resuming anywhere but where the kill left it would repeat or lose records.
        JsonNode round = results.get("roundsRead").get(0);
        assertThat(round.get("messages").asLong()).isEqualTo(RECORDS);
        assertThat(round.get("distinctIndexes").asLong()).isEqualTo(RECORDS);
        assertThat(round.get("problems")).as("the bench's exactly-once check, completed event included").isEmpty();

        String section = Files.readString(readme);
        assertThat(section).startsWith("# x\n<!-- bench-restarts:start -->\nMeasured by `java -jar bench/target/bench.jar "
                + "--restarts ...`").endsWith("<!-- bench-restarts:end -->\nafter\n").doesNotContain("old")
                .contains("| 1 | 20% | ", "every record exactly once", "restart to the first new committed record (issue 6");
        assertThat(Files.readString(out.resolve("report.md"))).startsWith("# Restarts");
        assertThat(out.resolve("work")).doesNotExist();
    }
}
