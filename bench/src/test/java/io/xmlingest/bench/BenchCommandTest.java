package io.xmlingest.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchCommandTest {

    @TempDir
    Path dir;

    @Test
    void reportsEveryStageWithPositiveConsistentFigures() throws Exception {
        Path file = BenchCommand.dataFile(dir, 1000);
        assertThat(BenchCommand.dataFile(dir, 1000)).isEqualTo(file);
        String report = BenchCommand.report(file, 3);
        assertThat(report).contains("1000 records");
        List<String> rows = Arrays.stream(report.split("\n")).filter(l -> l.matches("\\| (scan|bind|serialize) .*")).toList();
        assertThat(rows).hasSize(3);
        for (String row : rows) {
            String[] cells = row.split("\\|");
            double median = Double.parseDouble(cells[2].trim());
            double min = Double.parseDouble(cells[3].trim());
            double max = Double.parseDouble(cells[4].trim());
            assertThat(min).isPositive().isLessThanOrEqualTo(median);
            assertThat(max).isGreaterThanOrEqualTo(median);
            assertThat(Double.parseDouble(cells[5].trim())).isPositive();
        }
        assertThat(rows.get(0)).endsWith("| 1.00 |");
    }

    @Test
    void everyStageSeesEveryRecord() throws Exception {
        Path file = BenchCommand.dataFile(dir, 500);
        var context = jakarta.xml.bind.JAXBContext.newInstance(io.xmlingest.sample.persons.Person.class);
        for (Stage stage : Stage.values()) {
            assertThat(stage.run(file, context)[0]).as(stage.name()).isEqualTo(500);
        }
    }
}
