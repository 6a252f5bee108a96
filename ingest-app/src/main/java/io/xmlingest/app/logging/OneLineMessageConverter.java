package io.xmlingest.app.logging;

import ch.qos.logback.classic.pattern.MessageConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * The message of a log event on one line. File names come from whoever drops files into the inbox,
 * and a name may hold a line end or an escape sequence; written as it is, one event would read as two
 * to anyone who greps the log or ships it line by line, and the second line could pass for an event
 * of its own. Control characters are written as Java-style escapes instead; a stack trace still
 * follows on lines of its own.
 */
public final class OneLineMessageConverter extends MessageConverter {

    /** The pattern word for this converter, in place of logback's {@code msg}. */
    static final String WORD = "msg1";

    @Override
    public String convert(ILoggingEvent event) {
        return oneLine(super.convert(event));
    }

    public static String oneLine(String message) {
        int first = 0;
        while (first < message.length() && !isControl(message.charAt(first))) {
            first++;
        }
        if (first == message.length()) {
            return message;
        }
        StringBuilder line = new StringBuilder(message.length() + 8).append(message, 0, first);
        for (int i = first; i < message.length(); i++) {
            char c = message.charAt(i);
            switch (c) {
                case '\n' -> line.append("\\n");
                case '\r' -> line.append("\\r");
                case '\t' -> line.append('\t');
                default -> {
                    if (isControl(c)) {
                        line.append(String.format("\\u%04x", (int) c));
                    } else {
                        line.append(c);
                    }
                }
            }
        }
        return line.toString();
    }

    /**
     * C0 and C1 controls and DEL, the line and paragraph separators some readers break lines at, and the
     * bidirectional controls, which make a line read in another order than it is written.
     */
    private static boolean isControl(char c) {
        return (c < 0x20 && c != '\t') || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029'
                || c == '\u200e' || c == '\u200f' || (c >= '\u202a' && c <= '\u202e') || (c >= '\u2066' && c <= '\u2069');
    }
}
