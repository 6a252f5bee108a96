package io.xmlingest.app.cli;

import io.xmlingest.app.AppSettings;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ConfigException;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import picocli.CommandLine.Option;

/** The options every command shares: where settings come from, and the most used ones as flags. */
public final class SettingsOptions {

    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT[,...]",
            description = "Kafka brokers. Without it, a command that talks to Kafka starts an embedded single-node "
                    + "broker over a local data directory.")
    String bootstrapServers;

    @Option(names = {"-s", "--set"}, paramLabel = "KEY=VALUE",
            description = "Any setting (see 'config --doc'), or a Kafka client setting as kafka.client.KEY; "
                    + "repeatable. Flags win over XMLINGEST_* environment variables, which win over --config, "
                    + "which wins over defaults.")
    Map<String, String> settings = new LinkedHashMap<>();

    @Option(names = "--config", paramLabel = "FILE", description = "A properties file of settings.")
    Path configFile;

    /** Resolves the effective settings; {@code extra} are the command's own flags (such as --topic). */
    IngestConfig resolve(Map<String, String> extra) {
        Map<String, String> flags = new LinkedHashMap<>(settings);
        if (bootstrapServers != null) {
            flags.put(IngestSettings.BOOTSTRAP_SERVERS.key(), bootstrapServers);
        }
        flags.putAll(extra);
        return IngestConfig.resolve(AppSettings.ALL, flags, settingsEnvironment(System.getenv()), fileSettings());
    }

    /** The log level is read by the logging configuration, not a setting; everything else under XMLINGEST_ is. */
    static final String LOG_LEVEL_VARIABLE = "XMLINGEST_LOG_LEVEL";

    static Map<String, String> settingsEnvironment(Map<String, String> env) {
        Map<String, String> filtered = new LinkedHashMap<>(env);
        filtered.remove(LOG_LEVEL_VARIABLE);
        return filtered;
    }

    private Map<String, String> fileSettings() {
        if (configFile == null) {
            return Map.of();
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(configFile)) {
            // A byte order mark, as Windows editors write: it became part of the first key ("\ufefftopic").
            r.mark(1);
            if (r.read() != '\ufeff') {
                r.reset();
            }
            p.load(r);
        } catch (IOException e) {
            throw new ConfigException("--config", "cannot read config file " + configFile.toAbsolutePath() + ": "
                    + io.xmlingest.core.error.IoProblems.why(e));
        }
        Map<String, String> values = new LinkedHashMap<>();
        p.stringPropertyNames().forEach(k -> values.put(k, p.getProperty(k)));
        return values;
    }
}
