package io.xmlingest.core.split;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RecordParentsTest {

    private static boolean beside(RecordParents parents, String... path) {
        for (String name : path) {
            parents.enter("urn:x", name);
        }
        boolean beside = parents.besideRecords();
        for (int i = 0; i < path.length; i++) {
            parents.leave();
        }
        return beside;
    }

    private static void recordUnder(RecordParents parents, String... path) {
        for (String name : path) {
            parents.enter("urn:x", name);
        }
        parents.recordStarts();
        for (int i = 0; i < path.length; i++) {
            parents.leave();
        }
    }

    @Test
    void aPathIsBesideRecordsOnceARecordWasFoundUnderItAndNoOtherIs() {
        RecordParents parents = new RecordParents();
        assertThat(beside(parents, "catalog", "items")).isFalse();
        recordUnder(parents, "catalog", "items");
        recordUnder(parents, "catalog", "items");
        recordUnder(parents, "catalog", "archive", "items");
        recordUnder(parents, "catalog", "aisles");
        assertThat(beside(parents, "catalog", "items")).isTrue();
        assertThat(beside(parents, "catalog", "archive", "items")).isTrue();
        assertThat(beside(parents, "catalog", "aisles")).isTrue();
        assertThat(beside(parents, "catalog", "meta")).isFalse();
        assertThat(beside(parents, "catalog")).isFalse();
        assertThat(beside(parents, "items")).isFalse();
        // The local name and the namespace are told apart: {urn:x}catalog/{urn:x}items is not {urn:y}items.
        parents.enter("urn:x", "catalog");
        parents.enter("urn:y", "items");
        assertThat(parents.besideRecords()).isFalse();
    }

    @Test
    void pastAThousandParentPathsFurtherOnesAreNotKeptAndTheFirstOnesStay() {
        RecordParents parents = new RecordParents();
        for (int i = 0; i < 1500; i++) {
            recordUnder(parents, "root", "wrap" + i);
        }
        for (int i = 0; i < 1000; i++) {
            assertThat(beside(parents, "root", "wrap" + i)).as("wrap%d", i).isTrue();
        }
        for (int i = 1000; i < 1500; i++) {
            assertThat(beside(parents, "root", "wrap" + i)).as("wrap%d", i).isFalse();
        }
    }
}
