package io.xmlingest.core.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.FileFailedException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class CheckpointCodecTest {

    @Test
    void aFailureKeepsItsPartsSoThatItsMessageCanBeMadeAgainFromTheCheckpointAlone() {
        FileFailedException e = new FileFailedException("element nesting is deeper than 3",
                ErrorLocation.ofFile("x.xml").withRecordIndex(7).withPosition(9, 4, 312), "xml.max.depth", null);
        Checkpoint failed = new Checkpoint("id1", "x.xml", FileState.FAILED, 7, null, 7, 0, 1, e.getMessage(), 2, 0, null,
                Checkpoint.Failure.of(e));

        Checkpoint read = CheckpointCodec.decode(CheckpointCodec.encode(failed));

        assertThat(read).isEqualTo(failed);
        assertThat(read.failure().setting()).isEqualTo("xml.max.depth");
        assertThat(read.failure().toException().getMessage()).isEqualTo(e.getMessage());
    }

    /** A reason cut to its first 1,000 characters is not cut again, which counted what was left wrongly. */
    @Test
    void aLongReasonMadeAgainFromTheCheckpointReadsAsItDid() {
        FileFailedException e = new FileFailedException("x".repeat(1500), ErrorLocation.ofFile("x.xml"), null, null);
        Checkpoint.Failure kept = CheckpointCodec.decode(CheckpointCodec.encode(new Checkpoint("id1", "x.xml",
                FileState.FAILED, 0, null, 0, 0, 0, e.getMessage(), -1, 0, null, Checkpoint.Failure.of(e)))).failure();

        assertThat(kept.toException().getMessage()).isEqualTo(e.getMessage()).contains("(500 more characters)");
    }

    @Test
    void aFailureWithoutAPlaceStaysWithoutOneAndACheckpointWrittenBeforeFailuresWereKeptHasNone() {
        Checkpoint unplaced = new Checkpoint("id1", "x.xml", FileState.FAILED, 0, null, 0, 0, 0, "no", -1, 0, null,
                new Checkpoint.Failure("no", null, null));
        assertThat(CheckpointCodec.decode(CheckpointCodec.encode(unplaced))).isEqualTo(unplaced);

        String older = "{\"fileId\":\"id1\",\"file\":\"x.xml\",\"state\":\"FAILED\",\"nextRecordIndex\":3,\"records\":3,"
                + "\"deadLetters\":0,\"pages\":1,\"reason\":\"broken [file x.xml, record index 3]\"}";
        Checkpoint read = CheckpointCodec.decode(older.getBytes(StandardCharsets.UTF_8));
        assertThat(read.failure()).isNull();
        assertThat(read.reason()).isEqualTo("broken [file x.xml, record index 3]");
    }
}
