package io.xmlingest.core.page;

/** When a page closes: at {@code maxRecords} records, or before its bytes would pass {@code maxBytes}. */
public record PagePolicy(int maxRecords, long maxBytes) {
    public PagePolicy {
        if (maxRecords < 1 || maxBytes < 1) {
            throw new IllegalArgumentException("page bounds must be positive");
        }
    }
}
