package io.xmlingest.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.core.error.ConfigException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigDocPrinterTest {

    @Test
    void theTableStatesTheBoundsTheChecksEnforce() {
        String table = ConfigDocPrinter.markdownTable(IngestSettings.ALL);
        assertThat(table)
                .contains("| `page.max.records` | `XMLINGEST_PAGE_MAX_RECORDS` | int, 1 to 1,000,000 |")
                .contains("| `file.max.rejected.records` | `XMLINGEST_FILE_MAX_REJECTED_RECORDS` | int, at least 0 |")
                .contains("| bytes, 1MiB to 1024TiB |")
                .contains("| string, reject, ignore or internal |")
                .contains("| int, -1, or 1 to 32,767 |");
        // The words and the check are one declaration: the bounds the table gives are the ones refused past.
        IngestConfig.of(IngestSettings.ALL, Map.of("page.max.records", "1_000_000"));
        assertThatThrownBy(() -> IngestConfig.of(IngestSettings.ALL, Map.of("page.max.records", "1000001")))
                .isInstanceOf(ConfigException.class);
    }

    /** Held at the declaration, so no setting of any module can leave its range out of the table. */
    @Test
    void aNumericSettingWhoseCheckCannotSayItsRangeIsRefused() {
        assertThatThrownBy(() -> Setting.of("x.count", SettingType.INT, 1, "A count.", v -> v < 0 ? "negative" : null))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("x.count is a number");
        assertThat(Setting.of("x.count", SettingType.INT, 1, "A count.", Validators.between(0, 9)).allowed())
                .contains("0 to 9");
    }
}
