package io.xmlingest.app.worker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xmlingest.core.checkpoint.Checkpoint;
import io.xmlingest.core.checkpoint.FileState;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.FileFailedException;
import org.junit.jupiter.api.Test;

class FileReportTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aFileKnownToHaveFailedOnlyFromItsCheckpointReportsItsReasonAsTheError() throws Exception {
        // A worker that failed a file and died before moving it, or the sharing workers that ended it: before, the
        // report gave the reason as a free-text note, without the error object a failed file's report has.
        String reason = "XML is not readable: Unexpected close tag </b> [file x.xml, record index 7, line 9, column 3]";
        JsonNode failed = JSON.readTree(FileReport.ended("x.xml", "id1", 100,
                new Checkpoint("id1", "x.xml", FileState.FAILED, 7, null, 7, 0, 1, reason, -1, 1)));

        assertThat(failed.get("outcome").asText()).isEqualTo("failed");
        assertThat(failed.get("error").get("reason").asText()).isEqualTo(reason);
        assertThat(failed.get("error").get("message").asText()).isEqualTo(reason);
        assertThat(failed.get("records").asLong()).isEqualTo(7);
        assertThat(failed.has("note")).isFalse();

        JsonNode completed = JSON.readTree(FileReport.ended("y.xml", "id2", 100,
                new Checkpoint("id2", "y.xml", FileState.COMPLETED, 9, null, 9, 0, 1, null, -1, 1)));
        assertThat(completed.get("outcome").asText()).isEqualTo("completed");
        assertThat(completed.has("error")).isFalse();
    }

    @Test
    void aFailureKeptInPartsByTheCheckpointIsReportedWithItsSettingAndPosition() throws Exception {
        // Sharing workers end a file from its shards' checkpoints: its report named the setting and position only
        // inside the message, where a file failed in hand has them as fields.
        FileFailedException e = new FileFailedException("element nesting is deeper than 3",
                ErrorLocation.ofFile("x.xml").withRecordIndex(7).withPosition(9, 4, 312), "xml.max.depth", null);
        JsonNode error = JSON.readTree(FileReport.ended("x.xml", "id1", 100,
                new Checkpoint("id1", "x.xml", FileState.FAILED, 7, null, 7, 0, 1, e.getMessage(), -1, 2, null,
                        Checkpoint.Failure.of(e)))).get("error");

        assertThat(error.get("reason").asText()).isEqualTo("element nesting is deeper than 3");
        assertThat(error.get("setting").asText()).isEqualTo("xml.max.depth");
        assertThat(error.get("recordIndex").asLong()).isEqualTo(7);
        assertThat(error.get("line").asInt()).isEqualTo(9);
        assertThat(error.get("column").asInt()).isEqualTo(4);
        assertThat(error.get("byteOffset").asLong()).isEqualTo(312);
        assertThat(error.get("message").asText()).isEqualTo(e.getMessage());
    }
}
