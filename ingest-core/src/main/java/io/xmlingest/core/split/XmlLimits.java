package io.xmlingest.core.split;

/**
 * Per-file parsing limits. Each guards one structure (depth, attributes, a text node); none is a
 * whole-document counter, since legitimately huge files would trip those.
 */
public record XmlLimits(int maxDepth, int maxAttributes, long maxAttributeSize, long maxTextSize,
                        DoctypePolicy doctype, int maxEntityExpansions, int maxEntityDepth, long maxRecordSize,
                        boolean requireRecords) {

    public static final XmlLimits DEFAULTS = new XmlLimits(500, 500, 64 * 1024, 16L * 1024 * 1024);

    public XmlLimits {
        if (maxDepth < 1 || maxAttributes < 1 || maxAttributeSize < 1 || maxTextSize < 1
                || maxEntityExpansions < 1 || maxEntityDepth < 1 || maxRecordSize < 1) {
            throw new IllegalArgumentException("limits must be positive");
        }
    }

    /** With file.require.records on, as by default. */
    public XmlLimits(int maxDepth, int maxAttributes, long maxAttributeSize, long maxTextSize, DoctypePolicy doctype,
                     int maxEntityExpansions, int maxEntityDepth, long maxRecordSize) {
        this(maxDepth, maxAttributes, maxAttributeSize, maxTextSize, doctype, maxEntityExpansions, maxEntityDepth,
                maxRecordSize, true);
    }

    /** Structure limits with the default DOCTYPE policy (ignore) and entity limits. */
    public XmlLimits(int maxDepth, int maxAttributes, long maxAttributeSize, long maxTextSize) {
        this(maxDepth, maxAttributes, maxAttributeSize, maxTextSize, DoctypePolicy.IGNORE, 10_000, 4, 16L * 1024 * 1024);
    }
}
