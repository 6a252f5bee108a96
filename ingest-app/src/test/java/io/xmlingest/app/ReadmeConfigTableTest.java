package io.xmlingest.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.xmlingest.core.config.ConfigDocPrinter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's config table is the one printed from the setting declarations, so it cannot drift. */
class ReadmeConfigTableTest {

    @Test
    void theReadmeTableMatchesTheDeclarations() throws Exception {
        Path readme = Path.of(System.getProperty("basedir", ".")).resolve("../README.md").normalize();
        String text = Files.readString(readme);
        String start = "<!-- config-table:start -->\n";
        String end = "<!-- config-table:end -->";
        int from = text.indexOf(start);
        int to = text.indexOf(end);
        assertThat(from).as("README has the config table markers").isNotNegative();
        assertThat(text.substring(from + start.length(), to))
                .as("README config table; regenerate with: java -jar ingest-app/target/ingest-app.jar config --doc")
                .isEqualTo(ConfigDocPrinter.markdownTable(AppSettings.ALL));
    }
}
