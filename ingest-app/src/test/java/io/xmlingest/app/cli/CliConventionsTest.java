package io.xmlingest.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.xmlingest.datagen.DatagenCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** What people expect of a command line: help with examples everywhere, the build's version, documented exit codes. */
class CliConventionsTest {

    private static List<CommandLine> allCommands(CommandLine root) {
        List<CommandLine> all = new ArrayList<>();
        all.add(root);
        root.getSubcommands().forEach((name, sub) -> {
            if (!name.equals("help")) {
                all.addAll(allCommands(sub));
            }
        });
        return all;
    }

    @Test
    void everyCommandsHelpHasExamples() {
        List<CommandLine> commands = allCommands(Main.commandLine());
        commands.add(new CommandLine(new DatagenCommand()));
        assertThat(commands).extracting(CommandLine::getCommandName)
                .contains("ingest-app", "ingest", "worker", "read", "broker", "config", "model", "compile", "datagen");
        for (CommandLine c : commands) {
            assertThat(c.getUsageMessage()).as(c.getCommandName()).contains("Examples:").contains("--help")
                    .doesNotContain("%n").doesNotContain("Could not format");
        }
    }

    /**
     * Picocli wraps a footer line longer than the usage width at column 0, so an example broke mid-command
     * with its flags at the margin, where they read as options of the help itself.
     */
    @Test
    void everyHelpFitsEightyColumnsWithNoCommandBrokenAcrossLines() {
        List<CommandLine> commands = allCommands(Main.commandLine());
        commands.add(new CommandLine(new DatagenCommand()));
        for (CommandLine c : commands) {
            // Picocli wraps what is longer, so the lines as written are what must fit.
            for (String line : c.getCommandSpec().usageMessage().footer()) {
                assertThat(line.length()).as(c.getCommandName() + ": " + line).isLessThanOrEqualTo(80);
            }
            c.getCommandSpec().usageMessage().width(80);
            for (String line : c.getUsageMessage().split("\\R")) {
                assertThat(line).as(c.getCommandName()).doesNotStartWith("-");
            }
        }
    }

    @Test
    void onlyCommandsThatTalkToKafkaTakeBootstrapServers() {
        for (CommandLine c : allCommands(Main.commandLine())) {
            boolean takes = c.getCommandSpec().findOption("--bootstrap-servers") != null;
            assertThat(takes).as(c.getCommandName())
                    .isEqualTo(List.of("ingest", "worker", "read", "config").contains(c.getCommandName()));
        }
    }

    /** A command named first is built alone, for a quicker start, and must read and help as in the whole. */
    @Test
    void aCommandNamedFirstIsBuiltAloneAndHelpsAsInTheWhole() {
        CommandLine whole = Main.commandLine();
        assertThat(whole.getSubcommands()).containsOnlyKeys("ingest", "worker", "read", "broker", "config", "model",
                "schema", "help");
        assertThat(Main.commandLine("--version").getSubcommands()).containsOnlyKeys(whole.getSubcommands().keySet());
        assertThat(Main.commandLine("no-such-command").getSubcommands()).containsOnlyKeys(whole.getSubcommands().keySet());
        assertThat(Main.commandLine("help", "worker").getSubcommands()).containsOnlyKeys(whole.getSubcommands().keySet());
        for (String name : whole.getSubcommands().keySet()) {
            if (name.equals("help")) {
                continue;
            }
            CommandLine alone = Main.commandLine(name, "--help");
            assertThat(alone.getSubcommands()).containsOnlyKeys(name);
            assertThat(alone.getSubcommands().get(name).getUsageMessage()).as(name)
                    .isEqualTo(whole.getSubcommands().get(name).getUsageMessage());
        }
    }

    @Test
    void versionIsTheBuildsVersion() throws Exception {
        Matcher m = Pattern.compile("<version>([^<]+)</version>").matcher(Files.readString(Path.of("pom.xml")));
        assertThat(m.find()).isTrue();
        String version = m.group(1);
        assertThat(run(Main.commandLine(), "--version")).isEqualTo("xmlingest " + version);
        assertThat(run(new CommandLine(new DatagenCommand()), "--version")).isEqualTo("xmlingest datagen " + version);
    }

    @Test
    void exitCodesAreDocumentedInHelpAndReadme() throws Exception {
        String help = Main.commandLine().getUsageMessage();
        String readme = Files.readString(Path.of("../README.md"));
        for (int code : new int[] {ExitCodes.OK, ExitCodes.FILE_FAILED, ExitCodes.USAGE, ExitCodes.RECORDS_REJECTED,
            ExitCodes.KAFKA_UNAVAILABLE}) {
            assertThat(help).contains(code + " ");
            assertThat(readme).contains("`" + code + "`");
        }
        assertThat(Main.run("config", "-s", "no.such.key=1")).isEqualTo(ExitCodes.USAGE);
        // As the bare command: model without its subcommand printed its usage and exited 0.
        assertThat(Main.run("model")).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void aConfigFileWithAByteOrderMarkIsReadAsWritten(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        // As a Windows editor saves it: the mark became part of the first key, "unknown config file key \ufefftopic".
        java.nio.file.Path file = java.nio.file.Files.writeString(dir.resolve("w.properties"),
                "\ufefftopic=orders\npage.max.records=20\n");
        assertThat(Main.run("config", "--config", file.toString())).isZero();
    }

    @Test
    void configRefusesARecordClassThatDoesNotLoadAsIngestDoes() {
        assertThat(Main.run("config", "-s", "record.class=io.xmlingest.sample.persons.Person")).isZero();
        assertThat(Main.run("config", "-s", "record.class=-")).isZero();
        PrintStream stderr = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            assertThat(Main.run("config", "-s", "record.class=com.example.NoSuchRecord")).isEqualTo(ExitCodes.USAGE);
        } finally {
            System.setErr(stderr);
        }
        assertThat(captured.toString(StandardCharsets.UTF_8))
                .contains("error: record class com.example.NoSuchRecord is not in the class path")
                .contains("(setting: record.class)");
        // As ingest refuses them: lists that do not match record.element, one entry each or one for all.
        assertThat(Main.run("config", "-s", "record.element={urn:xmlingest:sample:persons}person",
                "-s", "record.class=io.xmlingest.sample.persons.Person,io.xmlingest.sample.persons.Person")).isEqualTo(ExitCodes.USAGE);
        assertThat(Main.run("config", "-s", "topic=a,b")).isEqualTo(ExitCodes.USAGE);
        assertThat(Main.run("config", "-s", "topic=a")).isZero();
    }

    /** Settings that are each valid alone but not together, or that no Kafka client would take, exit 2 naming the setting. */
    @Test
    void settingsThatCannotWorkTogetherAreRefusedBeforeAnythingRuns(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path file = java.nio.file.Files.writeString(dir.resolve("a-file"), "x");
        String[][] cases = {
            {"setting: topic.dlq", "config", "-s", "topic=same", "-s", "topic.dlq=same"},
            {"setting: work.topic", "worker", "--inbox", dir.resolve("inbox").toString(), "-s", "topic=same", "-s",
                "work.shards=2", "-s", "work.topic=same.status"},
            {"setting: commit.interval.ms", "worker", "--inbox", dir.resolve("inbox").toString(), "-s", "topic=t", "-s",
                "commit.interval.ms=40000"},
            {"setting: commit.interval.ms", "config", "-s", "commit.interval.ms=600000", "-s", "kafka.transaction.timeout.ms=1000"},
            {"setting: record.class", "config", "-s", "record.class=java.lang.String"},
            {"setting: kafka.bootstrap.servers", "config", "-s", "kafka.bootstrap.servers=127.0.0.1:9092,"},
            {"setting: record.element", "config", "-s", "record.element=p:person"},
            // config passed what every other command refused.
            {"Kafka's client refused its settings: SSL key store is not specified", "config", "-s",
                "kafka.client.security.protocol=SSL", "-s", "kafka.client.ssl.keystore.password=x"},
            {"cannot be used: it is a file, not a directory (or name a running broker with --bootstrap-servers) "
                + "(setting: embedded.data.dir)", "ingest", "x.xml", "--topic", "t", "-s", "embedded.data.dir=" + file},
            // One that cannot be made was exit 1, naming no setting.
            {"cannot be used: Not a directory (or name a running broker with --bootstrap-servers) (setting: "
                + "embedded.data.dir)", "read", "--topic", "t", "-s", "embedded.data.dir=" + file.resolve("sub")},
            // The broker command's place for it is --data: it named the setting the other commands read.
            {"--data " + file + ": the broker data directory " + file + " cannot be used: it is a file, not a directory",
                "broker", "--port", "0", "--data", file.toString()},
            // A place the schema cannot be written: exit 1 and a stack trace.
            {"cannot write the schema to " + file.resolve("sub").resolve("s.json").toAbsolutePath(), "schema", "--out",
                file.resolve("sub").resolve("s.json").toString()},
            // schema asks no broker anything; its help listed --bootstrap-servers all the same.
            {"Unknown options: '--bootstrap-servers'", "schema", "--bootstrap-servers", "127.0.0.1:9092"},
            // A port or host the broker cannot listen on was a stack trace and exit 1, the --host one naming nothing.
            {"--port 99999: a port is 0 (any free one) to 65535", "broker", "--port", "99999", "--data",
                dir.resolve("b").toString()},
            {"--host nosuchhost.invalid: cannot listen there (no such host)", "broker", "--port", "0", "--host",
                "nosuchhost.invalid", "--data", dir.resolve("b").toString()},
            {"--host 192.0.2.1: cannot listen there", "broker", "--port", "0", "--host", "192.0.2.1", "--data",
                dir.resolve("b").toString()},
        };
        for (String[] c : cases) {
            PrintStream stderr = System.err;
            ByteArrayOutputStream captured = new ByteArrayOutputStream();
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            int code;
            try {
                code = Main.run(java.util.Arrays.copyOfRange(c, 1, c.length));
            } finally {
                System.setErr(stderr);
            }
            assertThat(code).as(String.join(" ", c)).isEqualTo(ExitCodes.USAGE);
            assertThat(captured.toString(StandardCharsets.UTF_8)).as(String.join(" ", c)).contains(c[0])
                    .doesNotContain("\tat ");
        }
    }

    private static String run(CommandLine cli, String... args) {
        StringWriter out = new StringWriter();
        cli.setOut(new PrintWriter(out));
        assertThat(cli.execute(args)).isZero();
        return out.toString().strip();
    }
}
