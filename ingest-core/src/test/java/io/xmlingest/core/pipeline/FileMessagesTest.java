package io.xmlingest.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xmlingest.core.checkpoint.Checkpoint;
import io.xmlingest.core.checkpoint.FileState;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.FileFailedException;
import io.xmlingest.core.publish.TopicNames;
import java.util.List;
import org.junit.jupiter.api.Test;

class FileMessagesTest {

    private static final TopicNames TOPICS = new TopicNames(List.of("t"), "t.dlq", "t.status", "t.checkpoints");

    private static JsonNode failed(ErrorLocation where) throws Exception {
        FileMessages messages = new FileMessages(TOPICS, "f.xml", "ab", "w1");
        Checkpoint c = new Checkpoint("ab", "f.xml", FileState.FAILED, 0, null, 0, 0, 0, "bad", -1);
        return new ObjectMapper().readTree(messages.failed(c, new FileFailedException("bad", where, null, null)).value());
    }

    @Test
    void aFailedEventHasAPositionOnlyWhereOneIsKnown() throws Exception {
        // An empty file's failure knows no record, line or offset: its event said "position":{}.
        assertThat(failed(ErrorLocation.ofFile("f.xml")).has("position")).isFalse();
        JsonNode at = failed(ErrorLocation.ofFile("f.xml").withPosition(3, 7, -1)).get("position");
        assertThat(at.get("line").asInt()).isEqualTo(3);
        assertThat(at.get("column").asInt()).isEqualTo(7);
    }
}
