package io.xmlingest.app.cli;

/** Exit codes of every command; documented in the README and stable for scripts. */
public final class ExitCodes {
    private ExitCodes() {
    }

    /** Everything asked for was done: every record of every file acknowledged. */
    public static final int OK = 0;
    /** A file failed (not well-formed, over a limit, a publish failed); the error says where. */
    public static final int FILE_FAILED = 1;
    /** The command line or a setting is invalid, or Kafka refused the credentials the settings give; nothing was done. */
    public static final int USAGE = 2;
    /** Every file was read to its end, but some records were rejected and not published. */
    public static final int RECORDS_REJECTED = 3;
    /** Kafka could not be reached or was not ready in time; nothing is wrong with the input. */
    public static final int KAFKA_UNAVAILABLE = 4;
}
