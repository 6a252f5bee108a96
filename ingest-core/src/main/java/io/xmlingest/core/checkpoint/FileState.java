package io.xmlingest.core.checkpoint;

/** Where a file's ingestion stands, as its last committed checkpoint says. */
public enum FileState {
    /** Some pages are committed; the checkpoint says where the rest starts. */
    IN_PROGRESS,
    /** Every record is committed, with the completed status event. */
    COMPLETED,
    /** The file stopped at a fault; the records before it are committed, and the checkpoint says where the fault's record starts. */
    FAILED
}
