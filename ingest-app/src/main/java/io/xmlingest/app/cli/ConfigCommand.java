package io.xmlingest.app.cli;

import io.xmlingest.app.AppSettings;
import io.xmlingest.core.config.ConfigDocPrinter;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.Setting;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "config", mixinStandardHelpOptions = true,
        description = "Prints the effective settings and where each came from, or with --doc the table of every setting.",
        footer = {"", "Examples:", "  java -jar ingest-app.jar config -s page.max.records=500",
            "  java -jar ingest-app.jar config --doc > settings.md"})
final class ConfigCommand implements Callable<Integer> {

    @Option(names = "--doc", description = "Print every setting as a Markdown table (the README's config table).")
    boolean doc;

    @Mixin
    SettingsOptions options;

    @Override
    public Integer call() {
        if (doc) {
            System.out.print(ConfigDocPrinter.markdownTable(AppSettings.ALL));
            return ExitCodes.OK;
        }
        IngestConfig config = options.resolve(Map.of());
        for (Setting<?> s : AppSettings.ALL) {
            System.out.println(line(config, s));
        }
        return ExitCodes.OK;
    }

    private static <T> String line(IngestConfig config, Setting<T> s) {
        return s.key() + " = " + config.find(s).map(s::format).orElse("(not set)")
                + "  [" + config.sourceOf(s).name().toLowerCase(java.util.Locale.ROOT) + "]";
    }
}
