package io.xmlingest.app.cli;

import io.xmlingest.app.AppSettings;
import io.xmlingest.app.kafka.KafkaClientMisconfiguration;
import io.xmlingest.core.config.ConfigDocPrinter;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ConfigException;
import io.xmlingest.core.pipeline.RecordModel;
import io.xmlingest.core.publish.KafkaClientSettings;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.KafkaException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "config", mixinStandardHelpOptions = true,
        description = "Prints the effective settings and where each came from (secret values hidden), or with --doc "
                + "the table of every setting.",
        footer = {"", "Examples:", "  java -jar ingest-app.jar config -s page.max.records=500",
            "  XMLINGEST_KAFKA_CLIENT_SASL_JAAS_CONFIG='...' java -jar ingest-app.jar config",
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
        // Secret values (kafka.client.* passwords, sasl.jaas.config) come out hidden, their source still shown.
        for (IngestConfig.Shown s : config.shown()) {
            System.out.println(s.key() + " = " + s.text() + "  [" + s.source().name().toLowerCase(Locale.ROOT) + "]");
        }
        // Each value was checked as it was read; what ingest checks of them together comes after the listing,
        // which shows where a wrong one came from.
        RecordModel.check(config);
        checkKafkaClient(config);
        if (config.find(IngestSettings.TOPIC).isEmpty()) {
            // Not an error here: the settings can be looked at without one. Said, since ingest and worker refuse them.
            System.err.println("note: " + IngestSettings.TOPIC.key() + " is not set; ingest and worker need it (--topic, "
                    + "-s " + IngestSettings.TOPIC.key() + "=NAME or XMLINGEST_TOPIC)");
        }
        return ExitCodes.OK;
    }

    /**
     * Settings that Kafka's client will not start on together (a key store password with no key store)
     * stop every other command as it makes its first client; making one here, which connects to nothing
     * before it is asked to, says so without a cluster. A placeholder address, never contacted, stands in
     * for kafka.bootstrap.servers: the client looks the named hosts up as it is made, and warned of one
     * that does not resolve from here, which is for the commands that connect to say.
     */
    private static void checkKafkaClient(IngestConfig config) {
        IngestConfig addressed = config.with(Map.of(IngestSettings.BOOTSTRAP_SERVERS.key(), "127.0.0.1:9092"));
        try (Admin admin = Admin.create(KafkaClientSettings.admin(addressed))) {
            admin.close(Duration.ZERO);
        } catch (KafkaException e) {
            Optional<ConfigException> refused = KafkaClientMisconfiguration.find(e);
            if (refused.isPresent()) {
                throw refused.get();
            }
            // Anything else (a host that does not resolve yet) is for the commands that talk to Kafka to say.
        }
    }
}
