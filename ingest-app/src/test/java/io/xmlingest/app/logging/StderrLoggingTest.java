package io.xmlingest.app.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.ConsoleAppender;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ServiceLoader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

class StderrLoggingTest {

    @AfterEach
    void clearProperties() {
        System.clearProperty("logback.configurationFile");
        System.clearProperty(StderrLogging.LEVEL_VARIABLE);
    }

    private static LoggerContext configured() {
        LoggerContext context = new LoggerContext();
        StderrLogging logging = new StderrLogging();
        logging.setContext(context);
        assertThat(logging.configure(context)).isEqualTo(Configurator.ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);
        return context;
    }

    @Test
    void logbackFindsItAndTheApplicationLogsThroughIt() {
        assertThat(ServiceLoader.load(Configurator.class).stream().map(p -> p.type().getName()))
                .contains(StderrLogging.class.getName());
        // This JVM's logging was set up by it: there is no logback.xml any more.
        LoggerContext running = (LoggerContext) LoggerFactory.getILoggerFactory();
        assertThat(running.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDERR")).isInstanceOf(ConsoleAppender.class);
        assertThat(StderrLogging.class.getResource("/logback.xml")).isNull();
    }

    @Test
    void logsGoToStandardErrorWithOurPatternAndLevels() {
        LoggerContext context = configured();
        ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        assertThat(root.getLevel()).isEqualTo(Level.WARN);
        ConsoleAppender<?> stderr = (ConsoleAppender<?>) root.getAppender("STDERR");
        assertThat(stderr.isStarted()).isTrue();
        assertThat(stderr.getTarget()).isEqualTo("System.err");
        assertThat(((PatternLayoutEncoder) stderr.getEncoder()).getPattern())
                .isEqualTo("%d{HH:mm:ss.SSS} %-5level %logger{0} - %msg1%n");
        assertThat(context.getLogger("io.xmlingest.app.worker.Worker").getEffectiveLevel()).isEqualTo(Level.INFO);
        assertThat(context.getLogger("org.apache.kafka.clients.producer.KafkaProducer").getEffectiveLevel())
                .isEqualTo(Level.WARN);
        assertThat(context.getLogger("org.apache.kafka.clients.NetworkClient").getEffectiveLevel()).isEqualTo(Level.ERROR);
        assertThat(context.getLogger("state.change.logger").getEffectiveLevel()).isEqualTo(Level.OFF);
        assertThat(context.getLogger("com.example.Model").getEffectiveLevel()).isEqualTo(Level.WARN);
    }

    /** A file name is the inbox user's to choose, line ends and terminal escapes included. */
    @Test
    void aMessageIsOneLineWhateverItsArgumentsHoldAndAStackTraceStillFollowsIt() {
        PrintStream err = System.err;
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        System.setErr(new PrintStream(said, true, StandardCharsets.UTF_8));
        try {
            LoggerContext context = configured();
            // A context of one's own has no MDC until given one; the application's gets it from SLF4J.
            context.setMDCAdapter(new LogbackMDCAdapter());
            context.getLogger("io.xmlingest.app.worker.Worker").warn("{} failed: {}",
                    "a.xml\n12:00:00.000 INFO  Worker - b.xml completed\r\u001b[2J\u2028\u202elmx.exe", "tab\there, caf\u00e9",
                    new IllegalStateException("why\non two lines"));
        } finally {
            System.setErr(err);
        }
        String[] lines = said.toString(StandardCharsets.UTF_8).split(System.lineSeparator());
        assertThat(lines[0]).endsWith(" WARN  Worker - a.xml\\n12:00:00.000 INFO  Worker - b.xml completed\\r"
                + "\\u001b[2J\\u2028\\u202elmx.exe failed: tab\there, caf\u00e9");
        // The throwable's own text is logback's to write: the trace is meant to span lines.
        assertThat(lines[1]).isEqualTo("java.lang.IllegalStateException: why");
        assertThat(lines[3]).startsWith("\tat ");
    }

    @Test
    void theLevelVariableSetsOurOwnLoggersLevel() {
        System.setProperty(StderrLogging.LEVEL_VARIABLE, "DEBUG");
        assertThat(configured().getLogger("io.xmlingest.core.pipeline.IngestionPipeline").getEffectiveLevel())
                .isEqualTo(Level.DEBUG);
    }

    /** Logback's own fallback for a file it cannot find logs everything at DEBUG to stdout, where data goes. */
    @Test
    void aConfigurationFileThatIsNotThereIsSaidAndOurLoggingKept(@TempDir Path dir) throws Exception {
        System.setProperty("logback.configurationFile", dir.resolve("tpyo.xml").toString());
        PrintStream err = System.err;
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        System.setErr(new PrintStream(said, true, StandardCharsets.UTF_8));
        try {
            LoggerContext context = configured();
            assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDERR")).isNotNull();
        } finally {
            System.setErr(err);
        }
        assertThat(said.toString(StandardCharsets.UTF_8)).contains("-Dlogback.configurationFile=" + dir.resolve("tpyo.xml"))
                .contains("names no file");
        assertThat(StderrLogging.found("file:" + dir.resolve("tpyo.xml"))).isFalse();
        assertThat(StderrLogging.found("META-INF/services/ch.qos.logback.classic.spi.Configurator")).isTrue();
    }

    @Test
    void anEmptyOrUnknownLevelIsInfoAndAnUnknownOneIsSaid() {
        System.setProperty(StderrLogging.LEVEL_VARIABLE, "");
        assertThat(StderrLogging.ownLevel()).isEqualTo(Level.INFO);
        PrintStream err = System.err;
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        System.setErr(new PrintStream(said, true, StandardCharsets.UTF_8));
        try {
            System.setProperty(StderrLogging.LEVEL_VARIABLE, "LOUD");
            assertThat(StderrLogging.ownLevel()).isEqualTo(Level.INFO);
            System.setProperty(StderrLogging.LEVEL_VARIABLE, " warn ");
            assertThat(StderrLogging.ownLevel()).isEqualTo(Level.WARN);
        } finally {
            System.setErr(err);
        }
        assertThat(said.toString(StandardCharsets.UTF_8)).isEqualTo("warning: XMLINGEST_LOG_LEVEL=LOUD is not a level "
                + "(TRACE, DEBUG, INFO, WARN, ERROR or OFF); logging at INFO" + System.lineSeparator());
    }

    @Test
    void aConfigurationFileNamedOnTheCommandLineWins(@TempDir Path dir) throws Exception {
        System.setProperty("logback.configurationFile", Files.writeString(dir.resolve("your.xml"), "<configuration/>")
                .toString());
        LoggerContext context = new LoggerContext();
        StderrLogging logging = new StderrLogging();
        logging.setContext(context);
        assertThat(logging.configure(context)).isEqualTo(Configurator.ExecutionStatus.INVOKE_NEXT_IF_ANY);
        assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDERR")).isNull();
    }
}
