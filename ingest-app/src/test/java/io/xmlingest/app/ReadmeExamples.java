package io.xmlingest.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The README's contract examples, each found by the HTML comment {@code <!-- contract:NAME -->} on
 * the line before it, so tests read the very text users read.
 */
public final class ReadmeExamples {

    private final List<String> lines;

    private ReadmeExamples(List<String> lines) {
        this.lines = lines;
    }

    public static ReadmeExamples load() {
        Path readme = Path.of(System.getProperty("basedir", ".")).resolve("../README.md").normalize();
        try {
            return new ReadmeExamples(Files.readAllLines(readme));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The text inside the fenced block after the marker, without the fences. */
    public String block(String name) {
        int at = marker(name) + 1;
        assertThat(lines.get(at)).as("a ``` fence after contract:%s", name).startsWith("```");
        List<String> body = new ArrayList<>();
        for (int i = at + 1; !lines.get(i).startsWith("```"); i++) {
            body.add(lines.get(i));
        }
        return String.join("\n", body);
    }

    /** The rows of the Markdown table after the marker, heading and rule left out, cells trimmed. */
    public List<List<String>> table(String name) {
        int at = marker(name) + 1;
        assertThat(lines.get(at)).as("a table after contract:%s", name).startsWith("|");
        List<List<String>> rows = new ArrayList<>();
        for (int i = at + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            String row = lines.get(i).trim();
            List<String> cells = new ArrayList<>();
            for (String cell : row.substring(1, row.length() - 1).split("\\|")) {
                cells.add(cell.trim());
            }
            rows.add(cells);
        }
        return rows;
    }

    private int marker(String name) {
        String marker = "<!-- contract:" + name + " -->";
        int at = lines.indexOf(marker);
        assertThat(at).as("README line %s", marker).isNotNegative();
        assertThat(lines.lastIndexOf(marker)).as("README has %s once", marker).isEqualTo(at);
        return at;
    }
}
