package io.xmlingest.core.checkpoint;

import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.FileFailedException;
import io.xmlingest.core.error.IngestException;
import java.util.Objects;

/**
 * A file's progress, committed in the same Kafka transaction as the records it counts, so the
 * two can never disagree. Everything before {@code nextRecordIndex} is published (as a record or
 * a dead letter); resuming starts reading at {@code resume} and skips records until
 * {@code nextRecordIndex}, which normally is the record that starts there.
 *
 * @param fileId          SHA-256 of the file's bytes: the file's identity
 * @param fileName        the file's name when it was claimed, for people
 * @param state           where the file stands
 * @param nextRecordIndex index of the first record not yet published
 * @param resume          where reading can restart, or null when there is nothing to resume
 * @param records         records published so far
 * @param deadLetters     dead letters published so far
 * @param pages           pages of records committed so far
 * @param reason          why the file failed, or null
 * @param shard           the shard of the file this is the progress of, or -1 for the whole file; the
 *                        counts and states of a shard's checkpoint are the shard's own
 * @param shards          for a whole file ingested in shards, how many it was cut into; else 0
 * @param bounds          for a shard, the byte range it was cut to, so that a failed shard can be taken up
 *                        again from its checkpoint alone; null for a whole file (and in checkpoints written
 *                        before shards kept their bounds)
 * @param failure         for a failed file or shard, its failure in parts (setting, position), so that a report
 *                        written from the checkpoint alone names them as one written in hand does; null
 *                        otherwise, and in checkpoints written before failures were kept so
 */
public record Checkpoint(String fileId, String fileName, FileState state, long nextRecordIndex, Position resume,
                         long records, long deadLetters, long pages, String reason, int shard, int shards,
                         Bounds bounds, Failure failure) {

    public Checkpoint {
        Objects.requireNonNull(fileId, "fileId");
        Objects.requireNonNull(fileName, "fileName");
        Objects.requireNonNull(state, "state");
    }

    /** A checkpoint of a file or shard that has not failed. */
    public Checkpoint(String fileId, String fileName, FileState state, long nextRecordIndex, Position resume,
                      long records, long deadLetters, long pages, String reason, int shard, int shards, Bounds bounds) {
        this(fileId, fileName, state, nextRecordIndex, resume, records, deadLetters, pages, reason, shard, shards, bounds,
                null);
    }

    /** A whole file's checkpoint. */
    public Checkpoint(String fileId, String fileName, FileState state, long nextRecordIndex, Position resume,
                      long records, long deadLetters, long pages, String reason) {
        this(fileId, fileName, state, nextRecordIndex, resume, records, deadLetters, pages, reason, -1, 0, null);
    }

    /** A checkpoint without a shard's bounds. */
    public Checkpoint(String fileId, String fileName, FileState state, long nextRecordIndex, Position resume,
                      long records, long deadLetters, long pages, String reason, int shard, int shards) {
        this(fileId, fileName, state, nextRecordIndex, resume, records, deadLetters, pages, reason, shard, shards, null);
    }

    /** A shard's checkpoint ({@code shard} &ge; 0), or a whole file's (-1). */
    public Checkpoint(String fileId, String fileName, FileState state, long nextRecordIndex, Position resume,
                      long records, long deadLetters, long pages, String reason, int shard) {
        this(fileId, fileName, state, nextRecordIndex, resume, records, deadLetters, pages, reason, shard, 0, null);
    }

    /** What this checkpoint is stored under: the file id, with the shard's number for a shard. */
    public String key() {
        return key(fileId, shard);
    }

    public static String key(String fileId, int shard) {
        return shard < 0 ? fileId : fileId + "/" + shard;
    }

    /**
     * A place in the file where a record starts, with what a reader needs to start there: the
     * bytes before the root element (the prolog, with any DOCTYPE) and the start tags of the
     * elements open around the record, with their namespace declarations.
     *
     * @param recordIndex  index of the record that starts at {@code byteOffset}
     * @param byteOffset   offset of that record's start tag
     * @param line         1-based line of that start tag, so positions after a resume are the file's own
     * @param column       1-based column of that start tag
     * @param prologEnd    byte offset where the root element starts
     * @param openElements start tags of the enclosing elements, outermost first, as XML text
     */
    public record Position(long recordIndex, long byteOffset, int line, int column, long prologEnd,
                           String openElements) {
    }

    /**
     * The byte range a shard was cut to, as its work order gave it.
     *
     * @param count how many shards the file was cut into
     * @param start where the shard's first record starts; null for the first shard
     * @param next  where the next shard's first record starts; null for the last shard
     */
    public record Bounds(int count, Position start, Position next) {
    }

    /**
     * What a file or shard failed of, in the parts a report and a failed event give.
     *
     * @param reason   the reason alone, without position or setting
     * @param setting  the setting that controls what was at fault, or null
     * @param location where, or null when the failure had no place in the file
     */
    public record Failure(String reason, String setting, ErrorLocation location) {

        public Failure {
            Objects.requireNonNull(reason, "reason");
        }

        public static Failure of(IngestException e) {
            return e == null ? null : new Failure(e.reason(), e.settingKey().orElse(null), e.location().orElse(null));
        }

        /** The failure again, with the message it had. */
        public FileFailedException toException() {
            return new FileFailedException(reason, location, setting, null);
        }
    }

    /**
     * True when this checkpoint says less is published than {@code other} does: it is an older
     * one of the same file. A file's progress never goes back (a failed file retried goes on from
     * where it failed), so of two checkpoints the one that counts more is the newer.
     */
    public boolean isBehind(Checkpoint other) {
        return nextRecordIndex < other.nextRecordIndex
                || (nextRecordIndex == other.nextRecordIndex && records + deadLetters < other.records + other.deadLetters);
    }

    /**
     * This finished checkpoint in progress again, where it stood, as its file or shard is taken up
     * again (a failed one, or a completed one that held no record): with its counts, so that a reader
     * holding the finished one does not take it for an older checkpoint and keep that.
     */
    public Checkpoint reopened() {
        return new Checkpoint(fileId, fileName, FileState.IN_PROGRESS, nextRecordIndex, resume, records, deadLetters,
                pages, null, shard, shards, bounds);
    }

    /**
     * Completed without one record or dead letter: mostly a record.element that matched nothing in
     * the file. Nothing of it was published, so a worker reads its content again when it is dropped again.
     */
    public boolean completedEmpty() {
        return state == FileState.COMPLETED && records + deadLetters == 0;
    }

    public boolean isFinished() {
        return state != FileState.IN_PROGRESS;
    }
}
