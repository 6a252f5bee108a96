package io.xmlingest.core.pipeline;

/**
 * What one file's ingestion did.
 *
 * @param file         the file's name as given
 * @param fileId       SHA-256 of the file's bytes
 * @param records      records published and acknowledged
 * @param rejected     records that did not bind and were not published (each one was reported)
 * @param pages        pages published
 * @param messageBytes bytes of keys and values published
 * @param fileBytes    the file's size
 * @param nanos        wall time
 * @param phases       where the time went
 */
public record FileSummary(String file, String fileId, long records, long rejected, long pages, long messageBytes,
                          long fileBytes, long nanos, PhaseTimes phases) {

    public double seconds() {
        return nanos / 1e9;
    }

    public double recordsPerSecond() {
        return nanos == 0 ? 0 : records / seconds();
    }
}
