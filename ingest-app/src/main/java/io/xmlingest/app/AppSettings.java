package io.xmlingest.app;

import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.config.Setting;
import io.xmlingest.core.config.SettingType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Settings of the command-line application, declared once, next to the pipeline's. */
public final class AppSettings {
    private AppSettings() {
    }

    public static final Setting<String> EMBEDDED_DATA_DIR = Setting.of("embedded.data.dir", SettingType.STRING,
            ".xmlingest/kafka",
            "Data directory of the embedded broker that ingest and read start when kafka.bootstrap.servers is "
                    + "empty. Data published by one command is there for the next.",
            v -> v.isBlank() ? "must not be empty" : null);

    /** Every setting the application reads: the pipeline's and its own. */
    public static final List<Setting<?>> ALL;

    static {
        List<Setting<?>> all = new ArrayList<>(IngestSettings.ALL);
        all.add(EMBEDDED_DATA_DIR);
        ALL = Collections.unmodifiableList(all);
    }
}
