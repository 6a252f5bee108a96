package io.xmlingest.core.error;

import java.util.Optional;

/**
 * The root of every failure xmlingest reports. The subclass says what the caller should do:
 * <ul>
 *   <li>{@link RecordRejectedException}: skip this record (report it) and carry on with the file;</li>
 *   <li>{@link RetriableIngestException}: the input is fine, the outside world is not; retry later;</li>
 *   <li>{@link FileFailedException}: stop this file; what was published before stays published;</li>
 *   <li>{@link ConfigException}: a setting is wrong; fix it before anything runs.</li>
 * </ul>
 * The message always says where (file, record index, line/column when known) and, where a limit
 * or a setting is at fault, names the setting.
 */
public abstract sealed class IngestException extends RuntimeException
        permits RecordRejectedException, RetriableIngestException, FileFailedException, ConfigException {

    /**
     * Longest reason kept. Parsers quote the value at fault, and a value can be megabytes long: a
     * dead letter or status event carrying such a reason outgrew what Kafka takes, and the worker
     * retried its commit for ever.
     */
    public static final int MAX_REASON_CHARS = 1000;

    private static final java.util.regex.Pattern CUT = java.util.regex.Pattern.compile(
            "(?s).{" + (MAX_REASON_CHARS - 1) + "," + MAX_REASON_CHARS + "}\\.\\.\\. \\([0-9]+ more characters\\)");

    private final transient ErrorLocation location;
    private final String settingKey;
    private final String reason;

    protected IngestException(String reason, ErrorLocation location, String settingKey, Throwable cause) {
        super(compose(bounded(reason), location, settingKey), cause);
        this.reason = bounded(reason);
        this.location = location;
        this.settingKey = settingKey;
    }

    /** The reason alone, without location or setting. */
    public String reason() {
        return reason;
    }

    public Optional<ErrorLocation> location() {
        return Optional.ofNullable(location);
    }

    /** The setting that controls the limit or behaviour at fault, if one does. */
    public Optional<String> settingKey() {
        return Optional.ofNullable(settingKey);
    }

    static String bounded(String reason) {
        if (reason == null || reason.length() <= MAX_REASON_CHARS || CUT.matcher(reason).matches()) {
            // Cut before (a failure made again from a checkpoint): cut again, it would count what is left wrongly.
            return reason;
        }
        int end = Character.isHighSurrogate(reason.charAt(MAX_REASON_CHARS - 1)) ? MAX_REASON_CHARS - 1 : MAX_REASON_CHARS;
        return reason.substring(0, end) + "... (" + (reason.length() - end) + " more characters)";
    }

    private static String compose(String reason, ErrorLocation location, String settingKey) {
        StringBuilder s = new StringBuilder(reason);
        if (location != null) {
            s.append(" [").append(location).append(']');
        }
        if (settingKey != null) {
            s.append(" (setting: ").append(settingKey).append(')');
        }
        return s.toString();
    }
}
