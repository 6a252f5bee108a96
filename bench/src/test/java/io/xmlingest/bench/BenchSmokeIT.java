package io.xmlingest.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.xmlingest.bench.strategy.Strategies;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The CI smoke run: every strategy at 1,000 records, each in a forked JVM, a real broker, the whole report. */
class BenchSmokeIT {

    @TempDir
    Path dir;

    @Test
    void everyStrategyRunsAndTheReportHasEveryTableAndChart() throws Exception {
        Path out = dir.resolve("report");
        int exit = new CommandLine(new BenchCommand()).execute("--sizes", "1000", "--runs", "2", "--warmups", "1",
                "--heap", "512m", "--out", out.toString(), "--data", dir.resolve("data").toString());
        assertThat(exit).isZero();
        String report = Files.readString(out.resolve("report.md"));

        List<String> rows = Arrays.stream(report.split("\n")).filter(l -> l.startsWith("| ") && l.contains(" | 0.")).toList();
        for (Strategies.Entry s : Strategies.all()) {
            String row = rows.stream().filter(l -> l.startsWith("| " + s.name() + " | ")).findFirst()
                    .orElseThrow(() -> new AssertionError("no result row for " + s.name() + " in\n" + report));
            String[] cells = row.split("\\|");
            double median = Double.parseDouble(cells[2].trim());
            double min = Double.parseDouble(cells[3].trim());
            double max = Double.parseDouble(cells[4].trim());
            assertThat(min).as(s.name()).isPositive().isLessThanOrEqualTo(median);
            assertThat(max).as(s.name()).isGreaterThanOrEqualTo(median);
            assertThat(Double.parseDouble(cells[5].trim().replace(",", ""))).as(s.name()).isPositive();
            assertThat(Long.parseLong(cells[9].trim())).as("%s RSS MB", s.name()).isPositive();
        }
        assertThat(report).contains("Where ours spends its time").contains("| ours-end-to-end | ")
                .contains("## Ratios measured in this run").contains("## Whole-document JAXB: the smallest heap");
        // The exactly-once path only gets a row when every run's read_committed check found each record once.
        assertThat(report).contains("ours-exactly-once: every run, warm-ups included, was checked afterwards with a "
                + "read_committed consumer; the last check found 1,000 messages with 1,000 distinct record indexes, "
                + "1 completed event.");
        assertThat(report).containsPattern("- 1,000 records: exactly-once worker path into Kafka vs Woodstox \\+ JAXB "
                + "\\+ JSON on one thread, no Kafka \\(issue 6, target at least 1.2x\\): \\*\\*[0-9.]+x\\*\\*, target (met|missed)")
                .containsPattern("- 1,000 records: exactly-once worker path into Kafka vs Spring Batch reading only "
                        + "\\(issue 6, target at least 2x\\): \\*\\*[0-9.]+x\\*\\*, target (met|missed)");
        Bench.Results measured = ResultsJson.read(out.resolve("results.json"));
        for (String name : List.of("woodstox-jaxb-json", "ours-exactly-once")) {
            Measurement m = Report.find(measured, name, 1000).orElseThrow();
            assertThat(m.records()).as(name).isEqualTo(1000);
            assertThat(m.nanos()).as(name).hasSize(2);
        }
        for (String chart : Report.CHARTS) {
            BufferedImage image = ImageIO.read(out.resolve(chart + ".png").toFile());
            assertThat(image).as(chart).isNotNull();
            assertThat(image.getWidth()).isEqualTo(1000);
        }
        assertThat(out.resolve("work")).doesNotExist();

        // The same figures drawn again from results.json, without measuring.
        String before = report;
        Files.delete(out.resolve("report.md"));
        assertThat(new CommandLine(new BenchCommand()).execute("--from", out.resolve("results.json").toString(),
                "--out", out.toString())).isZero();
        assertThat(Files.readString(out.resolve("report.md"))).isEqualTo(before);
    }

    @Test
    void heapScalingRunsTheWorkerPathOncePerSizeWithinASmallHeap() throws Exception {
        Path out = dir.resolve("scaling");
        Path readme = Files.writeString(dir.resolve("README.md"), "<!-- bench:start -->\nspeed figures\n<!-- bench:end -->\n"
                + "<!-- bench-heap-scaling:start -->\nold\n<!-- bench-heap-scaling:end -->\n");
        int exit = new CommandLine(new BenchCommand()).execute("--heap-scaling", "1000,3000", "--out", out.toString(),
                "--data", dir.resolve("data").toString(), "--update-readme", readme.toString());
        assertThat(exit).isZero();

        Bench.Results r = ResultsJson.read(out.resolve("results.json"));
        assertThat(r.plan().heapScaling()).isTrue();
        assertThat(r.plan().heap()).isEqualTo("64m");
        assertThat(r.measurements()).extracting(Measurement::strategy).containsExactly("ours-exactly-once", "ours-exactly-once");
        for (Measurement m : r.measurements()) {
            assertThat(m.ok()).as(m.reason()).isTrue();
            assertThat(m.nanos()).hasSize(1);
            assertThat(m.records()).isEqualTo(m.size());
            assertThat(m.verified()).startsWith(String.format(java.util.Locale.ROOT, "%,d messages with %,d distinct", m.size(), m.size()));
            assertThat(m.peakHeapUsed()).isPositive();
            // The worker's commits reach the sampler: at least the last passes every point left.
            assertThat(m.liveSamples()).isBetween(1, HeapScaling.LIVE_POINTS);
            assertThat(m.sampledLiveHeap()).isPositive().isLessThan(64L << 20);
        }
        String report = Files.readString(out.resolve("report.md"));
        assertThat(report).contains("## Peak heap by file size (-Xmx64m)").contains("| ours-exactly-once | 1,000 | 0 | completed |")
                .contains("| ours-exactly-once | 3,000 | 1 | completed |")
                .containsPattern("ours-exactly-once completed every size within -Xmx64m; at 3,000 records vs 1,000: peak heap");
        String updated = Files.readString(readme);
        assertThat(updated).contains("speed figures").doesNotContain("old").contains("| ours-exactly-once | 3,000 | 1 | completed |");
    }

    /** Strategies take turns over the rounds, each forked again every round, and count every round's runs. */
    @Test
    void roundsForkEveryStrategyAgainAndCountAllTheirRuns() throws Exception {
        Path out = dir.resolve("rounds");
        int exit = new CommandLine(new BenchCommand()).execute("--sizes", "1000", "--runs", "1", "--warmups", "0",
                "--rounds", "3", "--strategies", "raw-read,woodstox-scan", "--heap", "256m", "--out", out.toString(),
                "--data", dir.resolve("data").toString());
        assertThat(exit).isZero();
        Bench.Results r = ResultsJson.read(out.resolve("results.json"));
        assertThat(r.plan().rounds()).isEqualTo(3);
        assertThat(r.measurements()).extracting(Measurement::strategy).containsExactly("raw-read", "woodstox-scan");
        assertThat(r.measurements()).allSatisfy(m -> {
            assertThat(m.ok()).isTrue();
            assertThat(m.nanos()).hasSize(3).doesNotContain(0L);
            assertThat(m.records()).isEqualTo(1000);
        });
        assertThat(Files.readString(out.resolve("report.md"))).contains("in each of 3 rounds");
    }

    @Test
    void aStrategyThatFailsIsReportedAsFailedWithItsReason() throws Exception {
        Path good = Bench.dataFile(dir, 1000);
        String text = Files.readString(good);
        Path truncated = Files.writeString(dir.resolve("truncated.xml"), text.substring(0, text.length() / 2));
        ForkedJvm jvm = new ForkedJvm(dir.resolve("work"), 5);

        Measurement broken = jvm.run("woodstox-jaxb", truncated, 1000, 0, 1, "256m", null);
        assertThat(broken.status()).isEqualTo(Measurement.Status.FAILED);
        assertThat(broken.reason()).contains("exit 1");

        Measurement starved = jvm.run("jaxb-whole-document", good, 1000, 0, 1, "8m", null);
        assertThat(starved.status()).isEqualTo(Measurement.Status.OUT_OF_MEMORY);
        // The parallel collector gives up on a starved heap as "GC overhead limit exceeded", G1 as "Java heap space".
        assertThat(starved.reason()).isIn("out of memory at -Xmx8m (Java heap space)",
                "out of memory at -Xmx8m (GC overhead limit exceeded)");
    }
}
