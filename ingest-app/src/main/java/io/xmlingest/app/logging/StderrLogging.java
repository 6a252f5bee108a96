package io.xmlingest.app.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.util.Map;
import org.slf4j.Logger;

/**
 * xmlingest's logging, set up in code (found by logback through the service loader): logs go to
 * stderr, since stdout carries data (summaries, records) for scripts. Read from an XML file, the same
 * configuration took logback's XML parser and model builder about a fifth of a second at every start
 * of every command, which a restarted worker spends before its first record.
 *
 * <p>A file named by {@code -Dlogback.configurationFile} still wins: this configurator steps aside
 * for it, and logback reads the file as usual.
 */
public final class StderrLogging extends ContextAwareBase implements Configurator {

    /** The level of xmlingest's own loggers, INFO unless this variable (or system property) names another. */
    public static final String LEVEL_VARIABLE = "XMLINGEST_LOG_LEVEL";

    static final String PATTERN = "%d{HH:mm:ss.SSS} %-5level %logger{0} - %msg%n";

    /** Kafka's own loggers, quieter than xmlingest's: what they say at INFO is not the user's business. */
    static final Map<String, Level> LEVELS = Map.of(
            "org.apache.kafka", Level.WARN,
            "kafka", Level.WARN,
            "state.change.logger", Level.OFF,
            // A new embedded broker's controller warns that its metadata log is empty: expected, not actionable.
            "org.apache.kafka.controller", Level.ERROR,
            // The in-process broker warns about its own clients' disconnects at shutdown; not actionable.
            "org.apache.kafka.clients.NetworkClient", Level.ERROR,
            // Refused credentials: NetworkClient logs the reason in one line, and the command's error names the
            // settings; this logger would add a stack trace of the same reason.
            "org.apache.kafka.clients.admin.internals.AdminMetadataManager", Level.ERROR);

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (System.getProperty("logback.configurationFile") != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(PATTERN);
        encoder.start();
        ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
        stderr.setContext(context);
        stderr.setName("STDERR");
        stderr.setTarget("System.err");
        stderr.setEncoder(encoder);
        stderr.start();
        ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.WARN);
        root.addAppender(stderr);
        context.getLogger("io.xmlingest").setLevel(ownLevel());
        LEVELS.forEach((name, level) -> context.getLogger(name).setLevel(level));
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    /** As logback's ${XMLINGEST_LOG_LEVEL:-INFO} was read: a system property first, then the environment. */
    static Level ownLevel() {
        String name = System.getProperty(LEVEL_VARIABLE);
        if (name == null) {
            name = System.getenv(LEVEL_VARIABLE);
        }
        return Level.toLevel(name, Level.INFO);
    }
}
