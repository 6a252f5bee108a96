package io.xmlingest.app.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.pattern.DynamicConverter;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;

/**
 * xmlingest's logging, set up in code (found by logback through the service loader): logs go to
 * stderr, since stdout carries data (summaries, records) for scripts. Read from an XML file, the same
 * configuration took logback's XML parser and model builder about a fifth of a second at every start
 * of every command, which a restarted worker spends before its first record.
 *
 * <p>A file named by {@code -Dlogback.configurationFile} still wins: this configurator steps aside
 * for it, and logback reads the file as usual. A name that leads nowhere is said once on stderr and
 * this configuration is used, since logback's own fallback would log everything at DEBUG to stdout.
 */
public final class StderrLogging extends ContextAwareBase implements Configurator {

    /** The level of xmlingest's own loggers, INFO unless this variable (or system property) names another. */
    public static final String LEVEL_VARIABLE = "XMLINGEST_LOG_LEVEL";

    static final String PATTERN = "%d{HH:mm:ss.SSS} %-5level %logger{0} - %" + OneLineMessageConverter.WORD + "%n";

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
            "org.apache.kafka.clients.admin.internals.AdminMetadataManager", Level.ERROR,
            // A trust or key store that cannot be read: logged with a stack trace, then thrown, and the command's error
            // (a settings error) says the same in one line.
            "org.apache.kafka.common.security.ssl.DefaultSslEngineFactory", Level.OFF);

    static final String FILE_PROPERTY = "logback.configurationFile";

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        String file = System.getProperty(FILE_PROPERTY);
        if (file != null) {
            if (found(file)) {
                return ExecutionStatus.INVOKE_NEXT_IF_ANY;
            }
            System.err.println("warning: -D" + FILE_PROPERTY + "=" + file + " names no file, class path resource or URL "
                    + "that can be read; logging as xmlingest does without it");
        }
        Map<String, Supplier<DynamicConverter>> words = new HashMap<>();
        words.put(OneLineMessageConverter.WORD, OneLineMessageConverter::new);
        context.putObject(CoreConstants.PATTERN_RULE_REGISTRY_FOR_SUPPLIERS, words);
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

    /**
     * Where logback would look for the file: a URL, a class path resource, or a file. Opened, not just
     * parsed, so that a URL or file that cannot be read counts as not found.
     */
    static boolean found(String name) {
        URL url;
        try {
            url = new URL(name);
        } catch (MalformedURLException notAUrl) {
            url = null;
        }
        if (url != null) {
            try {
                url.openStream().close();
                return true;
            } catch (IOException e) {
                return false;
            }
        }
        if (StderrLogging.class.getClassLoader().getResource(name.startsWith("/") ? name.substring(1) : name) != null) {
            return true;
        }
        return Files.isReadable(Path.of(name)) && Files.isRegularFile(Path.of(name));
    }

    /**
     * The level of xmlingest's own loggers: the system property, else the environment variable, else INFO
     * (also when it is empty). A value that is no level is said once on stderr, and INFO used.
     */
    static Level ownLevel() {
        String name = System.getProperty(LEVEL_VARIABLE);
        if (name == null) {
            name = System.getenv(LEVEL_VARIABLE);
        }
        if (name == null || name.isBlank()) {
            return Level.INFO;
        }
        Level level = Level.toLevel(name.strip(), null);
        if (level == null) {
            System.err.println("warning: " + LEVEL_VARIABLE + "=" + name + " is not a level (TRACE, DEBUG, INFO, WARN, "
                    + "ERROR or OFF); logging at INFO");
            return Level.INFO;
        }
        return level;
    }
}
