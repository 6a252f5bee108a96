package io.xmlingest.app.cli;

import io.xmlingest.core.bind.ModelClasses;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.encode.JsonSchemaWriter;
import io.xmlingest.core.error.ConfigException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

@Command(name = "schema", mixinStandardHelpOptions = true,
        description = "Prints the JSON Schema (draft 2020-12) of the message values written for the configured "
                + "record.class, so consumers can validate what they read.",
        footer = {"", "Examples:", "  java -jar ingest-app.jar schema > person.schema.json",
            "  java -jar ingest-app.jar schema -s model.path=shop-model.jar \\",
            "      -s record.class=example.shop.Order --out order.schema.json"})
final class SchemaCommand implements Callable<Integer> {

    @Option(names = "--out", paramLabel = "FILE", description = "Write the schema to FILE instead of standard output.")
    Path out;

    @Mixin
    SettingsOptions options;

    /**
     * The command without the shared --bootstrap-servers: a schema is worked out from the model alone, and
     * the flag in its help said otherwise. A setting given with -s is still taken, as everywhere.
     */
    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new SchemaCommand());
        CommandSpec spec = cli.getCommandSpec();
        spec.remove(spec.findOption("--bootstrap-servers"));
        return cli;
    }

    @Override
    public Integer call() {
        IngestConfig config = options.resolve(Map.of());
        Class<?> recordClass = recordClass(config);
        if (!io.xmlingest.core.jaxb.JaxbProperties.isBound(recordClass)) {
            throw new ConfigException(IngestSettings.RECORD_CLASS.key(), IngestSettings.RECORD_CLASS.key() + " "
                    + recordClass.getName() + " is not a JAXB class (no @XmlType), so it has no JSON Schema");
        }
        String schema = JsonSchemaWriter.toJson(recordClass) + System.lineSeparator();
        if (out == null) {
            System.out.print(schema);
            System.out.flush();
        } else {
            try {
                Files.writeString(out, schema, StandardCharsets.UTF_8);
            } catch (IOException e) {
                // The place named is the fault, as with any bad option: exit 2 naming it, not 1 with a stack trace.
                throw new ConfigException("--out", "cannot write the schema to " + out.toAbsolutePath() + ": "
                        + io.xmlingest.core.error.IoProblems.why(e));
            }
        }
        return ExitCodes.OK;
    }

    /** The one class to describe; where classes come from is decided here only. */
    static Class<?> recordClass(IngestConfig config) {
        List<String> names = config.get(IngestSettings.RECORD_CLASS).stream().distinct().toList();
        String key = IngestSettings.RECORD_CLASS.key();
        if (names.isEmpty() || names.equals(List.of(IngestSettings.SCHEMALESS))) {
            throw new ConfigException(key, key + " is " + IngestSettings.SCHEMALESS
                    + " (schema-less): values follow no model, so there is no schema to print; name a class");
        }
        if (names.size() > 1) {
            throw new ConfigException(key, key + " names " + names.size() + " classes " + names
                    + ": print one schema at a time with -s " + key + "=CLASS");
        }
        return ModelClasses.of(config.get(IngestSettings.MODEL_PATH)).load(names.get(0));
    }
}
