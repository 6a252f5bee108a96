package io.xmlingest.app.cli;

import io.xmlingest.app.kafka.KafkaAuthentication;
import io.xmlingest.app.kafka.KafkaClientMisconfiguration;
import io.xmlingest.core.error.ConfigException;
import io.xmlingest.core.error.FileFailedException;
import io.xmlingest.core.error.IoProblems;
import io.xmlingest.core.error.RetriableIngestException;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.common.errors.AuthenticationException;
import picocli.CommandLine.Command;
import picocli.CommandLine;

@Command(name = "ingest-app", mixinStandardHelpOptions = true, versionProvider = Main.VersionText.class,
        description = "Turns very large XML files into typed records in Apache Kafka.",
        footer = {"", "Examples:", "  java -jar ingest-app.jar ingest persons.xml --topic persons",
            "  java -jar ingest-app.jar worker --inbox inbox --topic persons \\",
            "      --bootstrap-servers broker:9092",
            "  java -jar ingest-app.jar COMMAND --help",
            "", "Exit codes: 0 done, 1 a file failed, 2 invalid usage or setting (or Kafka",
            "refused the credentials), 3 records rejected, 4 Kafka unavailable."})
public final class Main {

    /** The build's version, not a string someone has to remember to change. */
    static final class VersionText implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"xmlingest " + io.xmlingest.core.Version.get()};
        }
    }

    /** Every command, in the order help lists them; each made only when asked for (see {@link #commandLine}). */
    private static final Map<String, Supplier<Object>> COMMANDS = commands();

    private static Map<String, Supplier<Object>> commands() {
        Map<String, Supplier<Object>> all = new LinkedHashMap<>();
        all.put("ingest", IngestCommand::new);
        all.put("worker", WorkerCommand::new);
        all.put("read", ReadCommand::new);
        all.put("broker", BrokerCommand::new);
        all.put("config", ConfigCommand::new);
        all.put("model", ModelCommand::new);
        all.put("schema", () -> SchemaCommand.commandLine());
        // Not a method reference: a JDK 25 AOT cache keeps a reference's target, and picocli's classes, compiled for
        // Java 5, cannot be kept, which crashed the JVM writing the cache (scripts/class-data-archive.sh).
        all.put("help", () -> new CommandLine.HelpCommand());
        return Collections.unmodifiableMap(all);
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /**
     * The command line for {@code args}: with only the command they name, when their first word names
     * one, else with every command (for the top level's help, version and errors). Picocli builds a
     * command's model from its annotations by reflection, and building every command's at every start
     * was about a tenth of a second of a restarted worker's way to its first commit.
     */
    static CommandLine commandLine(String... args) {
        CommandLine cli = new CommandLine(new Main());
        Supplier<Object> named = args.length == 0 || args[0].equals("help") ? null : COMMANDS.get(args[0]);
        if (named != null) {
            cli.addSubcommand(args[0], named.get());
        } else {
            COMMANDS.forEach((name, make) -> cli.addSubcommand(name, make.get()));
        }
        return cli;
    }

    /** Runs a command line and returns its exit code; errors print as one clear line, not a stack trace. */
    public static int run(String... args) {
        CommandLine cli = commandLine(args);
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            Optional<AuthenticationException> refused = KafkaAuthentication.refusal(e);
            if (refused.isPresent()) {
                // Retrying cannot help until a setting changes, so this is a settings error, not Kafka being away.
                commandLine.getErr().println("error: " + KafkaAuthentication.describe(refused.get()));
                return ExitCodes.USAGE;
            }
            Optional<ConfigException> misconfigured = KafkaClientMisconfiguration.find(e);
            if (misconfigured.isPresent()) {
                commandLine.getErr().println("error: " + misconfigured.get().getMessage());
                return ExitCodes.USAGE;
            }
            Optional<RetriableIngestException> unresolvable = KafkaClientMisconfiguration.unresolvable(e);
            if (unresolvable.isPresent()) {
                // Not a settings error: a name may resolve once its DNS entry is there, as the worker waits for.
                commandLine.getErr().println("error: " + unresolvable.get().getMessage());
                return ExitCodes.KAFKA_UNAVAILABLE;
            }
            String message = e.getMessage();
            if (e instanceof UncheckedIOException && e.getCause() != null) {
                // Its message says which file; the reason is in the cause, which is not printed.
                String why = IoProblems.why(e.getCause());
                message = message.contains(why) ? message : message + ": " + why;
            }
            commandLine.getErr().println("error: " + message);
            if (e instanceof ConfigException) {
                return ExitCodes.USAGE;
            }
            if (e instanceof RetriableIngestException) {
                return ExitCodes.KAFKA_UNAVAILABLE;
            }
            if (e instanceof FileFailedException || e instanceof UncheckedIOException) {
                // A file that cannot be read or written: its message says which and why, a stack trace adds nothing.
                return ExitCodes.FILE_FAILED;
            }
            e.printStackTrace(commandLine.getErr());
            return ExitCodes.FILE_FAILED;
        });
        return cli.execute(args);
    }
}
