package io.xmlingest.core.pipeline;

import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.split.RecordElements;
import io.xmlingest.core.split.RecordSplitter;
import java.util.Map;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says which elements beside a file's records were passed over. A record whose element is
 * misspelt, or in another namespace, is no record: without this, it left the file without a word,
 * and a completed file counted fewer records than its sender sent.
 */
public final class PassedOver {
    private static final Logger LOG = LoggerFactory.getLogger(PassedOver.class);

    private PassedOver() {
    }

    /** Logs a warning when {@code passed} (see {@link io.xmlingest.core.split.RecordSplitter#passedOver}) has any. */
    static void warn(String file, RecordElements records, Map<String, Long> passed) {
        String said = describe(records, passed);
        if (said != null) {
            LOG.warn("{}: {}", file, said);
        }
    }

    /** What {@code passed} says, in a sentence; null when it is empty. */
    public static String describe(RecordElements records, Map<String, Long> passed) {
        if (passed.isEmpty()) {
            return null;
        }
        long count = passed.values().stream().mapToLong(Long::longValue).sum();
        long texts = passed.getOrDefault(RecordSplitter.PASSED_TEXT, 0L);
        long elements = count - texts;
        String names = passed.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(e -> e.getKey() + " (" + e.getValue() + ")").collect(Collectors.joining(", "));
        String what = elements == 0 ? counted(texts, "text")
                : texts == 0 ? counted(elements, "element") : counted(elements, "element") + " and " + counted(texts, "text");
        return what + " beside its records " + (count == 1 ? "was" : "were") + " passed over in this run, not being "
                + records + ": " + names + (elements == 0 ? "; text between records is part of none"
                : "; a record with a misspelt or wrongly qualified name is one of them")
                + " (setting: " + IngestSettings.RECORD_ELEMENT.key() + ")";
    }

    private static String counted(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
