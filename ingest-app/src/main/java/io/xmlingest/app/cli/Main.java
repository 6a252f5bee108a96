package io.xmlingest.app.cli;

import io.xmlingest.core.error.ConfigException;
import io.xmlingest.core.error.FileFailedException;
import io.xmlingest.core.error.RetriableIngestException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

@Command(name = "ingest-app", mixinStandardHelpOptions = true, version = "xmlingest 0.1.0",
        description = "Turns very large XML files into typed records in Apache Kafka.",
        subcommands = {IngestCommand.class, WorkerCommand.class, ReadCommand.class, BrokerCommand.class, ConfigCommand.class,
            ModelCommand.class, SchemaCommand.class,
            CommandLine.HelpCommand.class},
        footer = {"", "Exit codes: 0 done, 1 a file failed, 2 invalid usage or setting, 3 records rejected, 4 Kafka unavailable."})
public final class Main {

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs a command line and returns its exit code; errors print as one clear line, not a stack trace. */
    public static int run(String... args) {
        CommandLine cli = new CommandLine(new Main());
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println("error: " + e.getMessage());
            if (e instanceof ConfigException) {
                return ExitCodes.USAGE;
            }
            if (e instanceof RetriableIngestException) {
                return ExitCodes.KAFKA_UNAVAILABLE;
            }
            if (e instanceof FileFailedException) {
                return ExitCodes.FILE_FAILED;
            }
            e.printStackTrace(commandLine.getErr());
            return ExitCodes.FILE_FAILED;
        });
        return cli.execute(args);
    }
}
