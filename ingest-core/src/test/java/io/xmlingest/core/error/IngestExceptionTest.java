package io.xmlingest.core.error;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class IngestExceptionTest {

    @Test
    void aReasonQuotingAHugeValueIsCutAndSaysHowMuchWasLeftOut() {
        String reason = "record does not bind: not a number: " + "9".repeat(1_200_000);
        RecordRejectedException e = new RecordRejectedException(reason, new ErrorLocation("f.xml", 3, 4, 5, 6), null,
                "xml.max.text.size");

        assertThat(e.reason()).hasSize(IngestException.MAX_REASON_CHARS + " (1199036 more characters)".length() + 3)
                .startsWith("record does not bind: not a number: 999").endsWith("999... (1199036 more characters)");
        // Where and which setting still follow the shortened reason.
        assertThat(e.getMessage()).startsWith(e.reason()).endsWith("[file f.xml, record index 3, line 4, column 5, "
                + "byte offset 6] (setting: xml.max.text.size)");
        assertThat(new RecordRejectedException("short", null, null).reason()).isEqualTo("short");
    }

    @Test
    void aCutNeverSplitsASurrogatePair() {
        String reason = "x".repeat(IngestException.MAX_REASON_CHARS - 1) + "\uD83D\uDE00" + "y".repeat(10);

        assertThat(new RecordRejectedException(reason, null, null).reason())
                .isEqualTo("x".repeat(IngestException.MAX_REASON_CHARS - 1) + "... (12 more characters)");
    }
}
