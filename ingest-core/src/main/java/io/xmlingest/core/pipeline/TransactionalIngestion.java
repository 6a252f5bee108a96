package io.xmlingest.core.pipeline;

import io.xmlingest.core.checkpoint.Checkpoint;
import io.xmlingest.core.checkpoint.FileState;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ConfigException;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.FileFailedException;
import io.xmlingest.core.error.RecordRejectedException;
import io.xmlingest.core.page.Page;
import io.xmlingest.core.page.PageAssembler;
import io.xmlingest.core.page.PagePolicy;
import io.xmlingest.core.publish.Envelope;
import io.xmlingest.core.publish.TopicNames;
import io.xmlingest.core.publish.TransactionalPublisher;
import io.xmlingest.core.split.RawRecord;
import io.xmlingest.core.split.RecordSplitter;
import io.xmlingest.core.split.CompressedInput;
import io.xmlingest.core.split.ResumePoint;
import io.xmlingest.core.split.Shard;
import io.xmlingest.core.split.SplitPosition;
import io.xmlingest.core.split.RecordElements;
import io.xmlingest.core.split.StaxRecordSplitter;
import io.xmlingest.core.split.XmlLimits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Ingests a file exactly once: each commit is one transaction holding whole pages of records,
 * the dead letters of the records between them, the file's status events, and the checkpoint
 * that says where the next record starts. Whatever stops a run (a crash, a lost broker, a stop
 * request), the next run starts at the last checkpoint, by seeking to its byte offset; nothing
 * before it is read again, let alone bound or published.
 *
 * <p>A commit happens when a page has closed and the next record's start has been found, so the
 * checkpoint always names a real record start. Not shared between threads.
 */
public final class TransactionalIngestion {

    private final RecordElements recordElement;
    private final XmlLimits limits;
    private final PagePolicy pagePolicy;
    private final int maxRejected;
    private final long commitIntervalNanos;
    private final long maxRawBytes;
    private final long decompressedMaxBytes;
    private final ConvertedRecords.Plan conversion;
    private final TopicNames topics;
    private final String worker;

    public TransactionalIngestion(IngestConfig config, RecordModel model, String worker) {
        this.topics = checkSettings(config);
        this.recordElement = model.elements();
        this.limits = IngestionPipeline.limits(config);
        this.pagePolicy = new PagePolicy(config.get(IngestSettings.PAGE_MAX_RECORDS), config.get(IngestSettings.PAGE_MAX_BYTES));
        this.maxRejected = config.get(IngestSettings.RECORD_MAX_REJECTED);
        this.commitIntervalNanos = config.get(IngestSettings.COMMIT_INTERVAL_MS) * 1_000_000L;
        long maxRequest = config.get(IngestSettings.MAX_REQUEST_SIZE);
        this.maxRawBytes = maxRawBytes(maxRequest);
        this.decompressedMaxBytes = config.get(IngestSettings.DECOMPRESSED_MAX_BYTES);
        this.conversion = ConvertedRecords.Plan.of(config, model);
        this.worker = worker;
    }

    /**
     * What the worker's settings must be together: its topics, one per use, and
     * commit.interval.ms against the transaction timeout (see {@link #checkTimes}).
     *
     * @throws ConfigException naming the setting
     */
    public static TopicNames checkSettings(IngestConfig config) {
        TopicNames topics = TopicNames.of(config);
        checkTimes(config);
        checkRoom(config);
        return topics;
    }

    /** The least kafka.max.request.size the worker runs with; see {@link #checkRoom}. */
    static final long MIN_REQUEST_SIZE = 64 * 1024;

    /**
     * The worker's own messages must always fit the producer's limit: a dead letter, status event or checkpoint names
     * the file (a path of up to 4 KB, twice) and a reason (up to 1,000 characters, escaped), and one Kafka refused
     * could not even be replaced by the file's failure, which says as much: the worker retried it for ever as if Kafka
     * were down, and every other file waited.
     */
    static void checkRoom(IngestConfig config) {
        long size = config.get(IngestSettings.MAX_REQUEST_SIZE);
        if (size < MIN_REQUEST_SIZE) {
            throw new ConfigException(IngestSettings.MAX_REQUEST_SIZE.key(), IngestSettings.MAX_REQUEST_SIZE.key()
                    + " is " + size + " bytes, and the worker needs at least " + MIN_REQUEST_SIZE + " (64KiB): its dead "
                    + "letters, status events and checkpoints name the file and the reason, and must fit (records "
                    + "larger than the limit are still dead letters)");
        }
    }

    /**
     * A transaction stays open at least commit.interval.ms, and Kafka aborts one open longer than
     * its timeout: the worker would lose every transaction, and report it as another worker
     * fencing it.
     */
    public static void checkTimes(IngestConfig config) {
        long interval = config.get(IngestSettings.COMMIT_INTERVAL_MS);
        int timeout = config.get(IngestSettings.TRANSACTION_TIMEOUT_MS);
        if (interval > timeout / 2) {
            throw new ConfigException(IngestSettings.COMMIT_INTERVAL_MS.key(), IngestSettings.COMMIT_INTERVAL_MS.key()
                    + " is " + interval + " ms, more than half of " + IngestSettings.TRANSACTION_TIMEOUT_MS.key() + " ("
                    + timeout + " ms): Kafka would abort transactions before their commit; lower the one or raise the other");
        }
    }

    /**
     * The longest raw record a dead letter carries: half of the producer's limit (escaping in JSON
     * can double the text), less 4 KiB for the rest of the message (a reason alone may take 2 KB
     * escaped). Under 8 KiB no raw record goes with it: it would put the dead letter itself, and
     * with it the file, at risk.
     */
    static long maxRawBytes(long maxRequestSize) {
        return Math.max(0, maxRequestSize / 2 - 4096);
    }

    public TopicNames topics() {
        return topics;
    }

    /**
     * Runs over the file from its checkpoint (or its start) until it completes, fails, or
     * {@code stop} says to stop, which is checked at every commit.
     *
     * @throws io.xmlingest.core.error.RetriableIngestException Kafka failed; what is committed stays, run again later
     */
    public FileOutcome ingest(FileJob job, TransactionalPublisher publisher, IngestListener listener, BooleanSupplier stop) {
        return new Run(job, publisher, listener).run(stop);
    }

    /**
     * Ends, as failed, a file whose content is gone: it changed under the worker part-way, and the
     * records committed of it stay. Its failed event and a failed checkpoint where it stood are
     * committed together, so a consumer waiting for the file's end is told instead of waiting for
     * ever; dropped again, the old content resumes from there, as any failed file does.
     *
     * @throws io.xmlingest.core.error.RetriableIngestException Kafka failed; nothing was committed
     */
    public Checkpoint abandon(Checkpoint at, FileFailedException reason, TransactionalPublisher publisher) {
        return fail(at, reason, publisher, List.of(), null);
    }

    /**
     * Marks a finished file in progress again, where it stood, as it is taken up again (dropped into
     * the inbox once more): one that failed, or one that completed holding no record. No event, only
     * its checkpoint, so that a stop before the new run's first commit leaves a file in progress, not
     * one that looks as if this run had ended it.
     *
     * @throws io.xmlingest.core.error.RetriableIngestException Kafka failed; nothing was committed
     */
    public Checkpoint reopen(Checkpoint finished, TransactionalPublisher publisher) {
        Checkpoint open = finished.reopened();
        publisher.commit(List.of(new FileMessages(topics, finished.fileName(), finished.fileId(), worker).checkpoint(open)));
        return open;
    }

    /**
     * Ends, as failed and without reading it, a file or shard the worker will not try again on its
     * own: it fails where its last checkpoint left it, or at its start when nothing of it was
     * committed (a file with its started event). A file dropped again resumes from there, as any
     * failed file does; a shard ends as a failed shard does (shard-failed), and its file fails once
     * the others have ended.
     *
     * @throws io.xmlingest.core.error.RetriableIngestException Kafka failed; nothing was committed
     */
    public Checkpoint setAside(FileJob job, FileFailedException reason, TransactionalPublisher publisher) {
        if (job.from() != null) {
            return fail(job.from(), reason, publisher, List.of(), job.shard());
        }
        // A shard's file was announced when it was cut. A compressed file's copy, if an attempt made it, gives its size.
        return fail(job.notStarted(), reason, publisher, job.shard() != null ? List.of()
                : List.of(new FileMessages(topics, job.name(), job.fileId(), worker).started(job.bytes(),
                        CompressedInput.copySize(job.path(), job.fileId()))), job.shard());
    }

    /** @param shard the shard that fails, or null for the whole file */
    private Checkpoint fail(Checkpoint at, FileFailedException reason, TransactionalPublisher publisher,
                            List<Envelope> before, Shard shard) {
        Checkpoint failed = new Checkpoint(at.fileId(), at.fileName(), FileState.FAILED, at.nextRecordIndex(), at.resume(),
                at.records(), at.deadLetters(), at.pages(), reason.getMessage(), at.shard(), at.shards(),
                shard == null ? at.bounds() : Positions.bounds(shard), Checkpoint.Failure.of(reason));
        FileMessages messages = new FileMessages(topics, at.fileName(), at.fileId(), worker);
        List<Envelope> all = new ArrayList<>(before);
        all.add(shard == null ? messages.failed(failed, reason) : messages.shardEnded(failed, shard, reason));
        all.add(messages.checkpoint(failed));
        publisher.commit(all);
        return failed;
    }

    private final class Run {
        final FileJob job;
        final TransactionalPublisher publisher;
        final IngestListener listener;
        final FileMessages messages;
        final PageAssembler pages;
        /** Pages sent in the open transaction, and their records. */
        long pagesSent;
        long recordsSent;
        long lastCommit = System.nanoTime();
        /**
         * A resumed file commits after its first record, in a page of its own: a restarted worker
         * shows that it is moving again as soon as it can, instead of after a page of cold code.
         */
        boolean resumedAwaitingFirstCommit;
        /** The last record closed a page: a commit now leaves no page half full. */
        boolean pageClosed;
        /** The publisher refused and aborted the open transaction. */
        boolean aborted;
        final List<Envelope> extras = new ArrayList<>();
        final long started = System.nanoTime();
        RecordSplitter splitter;
        ConvertedRecords records;
        boolean startedCommitted;
        Checkpoint last;
        ResumePoint lastStart;
        long handled;
        long pendingDeadLetters;
        long publish;
        long spentScan;
        /** Inflating a compressed file, counted in the identify phase with its hash (as ingest counts it). */
        long inflateNanos;
        long spentInflate;
        /** The size of what is read: the file's, or its inflated copy's; progress is measured against it. */
        long inputBytes;
        /** The inflated copy's size for a compressed file, told in its status events; -1 for a plain one. */
        long inflatedBytes = -1;
        long spentPublish;
        long spentBind;
        long spentSerialize;

        Run(FileJob job, TransactionalPublisher publisher, IngestListener listener) {
            this.job = job;
            this.publisher = publisher;
            this.listener = listener;
            this.messages = new FileMessages(topics, job.name(), job.fileId(), worker);
            this.last = job.from() != null ? job.from() : job.notStarted();
            this.handled = last.nextRecordIndex();
            this.inputBytes = job.bytes();
            this.startedCommitted = job.from() != null;
            this.resumedAwaitingFirstCommit = job.from() != null;
            this.pages = new PageAssembler(job.name(), job.fileId(), pagePolicy, last.pages());
        }

        /**
         * A new file's started event, once its inflated size is known; a shard's file was announced
         * when it was cut into shards, and a resumed file's is committed already.
         */
        private void announce() {
            if (job.from() == null && job.shard() == null && !announced) {
                extras.add(0, messages.started(job.bytes(), inflatedBytes));
                announced = true;
            }
        }

        private boolean announced;

        FileOutcome run(BooleanSupplier stop) {
            try {
                splitter = open(stop);
                if (splitter == null) {
                    return outcome(FileOutcome.Ending.STOPPED, null); // asked to stop while inflating: nothing sent yet
                }
                announce();
                records = conversion.start(splitter, job.name(), job.fileId(), maxRawBytes);
                ConvertedRecords.Converted converted;
                while ((converted = records.next()) != null) {
                    SplitPosition pos = converted.position();
                    ResumePoint here = converted.start();
                    if (commitDue()) {
                        // Everything before this record goes, the open page too: a page closed by its byte
                        // bound leaves a record in the open page, and the checkpoint must not pass over it.
                        pages.finish().ifPresent(this::send);
                        commit(FileState.IN_PROGRESS, here, pos.recordIndex(), null);
                        if (stop.getAsBoolean()) {
                            return outcome(FileOutcome.Ending.STOPPED, null);
                        }
                    }
                    lastStart = here;
                    record(converted);
                }
                pages.finish().ifPresent(this::send);
                commit(FileState.COMPLETED, null, handled, null);
                return outcome(FileOutcome.Ending.COMPLETED, null);
            } catch (FileFailedException e) {
                if (aborted) {
                    return refused(e);
                }
                // The records before the fault are valid and are published; the fault is reported with them.
                announce();
                try {
                    pages.finish().ifPresent(this::send);
                    commit(FileState.FAILED, lastStart, handled, e);
                } catch (FileFailedException refused) {
                    return refused(refused);
                }
                return outcome(FileOutcome.Ending.FAILED, e);
            } finally {
                // The reader goes first: it is the splitter's only user while it runs.
                if (records != null) {
                    records.close();
                }
                if (splitter != null) {
                    splitter.close();
                    PassedOver.warn(job.name(), recordElement, splitter.passedOver());
                }
            }
        }

        /**
         * Kafka refused part of the open transaction (a record over the topic's own size limit) and
         * it was aborted: commit the failure alone, pointing where the last commit left off, so a
         * retry publishes what was refused.
         */
        private FileOutcome refused(FileFailedException refused) {
            aborted = false;
            pagesSent = 0;
            recordsSent = 0;
            extras.clear();
            pendingDeadLetters = 0;
            if (!startedCommitted && job.shard() == null) {
                extras.add(messages.started(job.bytes(), inflatedBytes));
            }
            commit(FileState.FAILED, null, last.nextRecordIndex(), refused);
            return outcome(FileOutcome.Ending.FAILED, refused);
        }

        /** The splitter, or null when asked to stop before it could begin. */
        private RecordSplitter open(BooleanSupplier stop) {
            Checkpoint from = job.from();
            ResumePoint at = job.shard() == null ? null : job.shard().start();
            if (from != null && from.resume() != null) {
                at = Positions.resumePoint(from.resume());
            }
            long next = last.nextRecordIndex();
            Path input = readable(stop);
            if (input == null) {
                return null;
            }
            // A file read as it was dropped is read as far as its identity goes (job.bytes(), what was hashed): one still
            // being written has grown since. A compressed file's plain copy is written whole before it is hashed.
            long end = input.equals(job.path()) && job.bytes() >= 0 ? job.bytes() : Long.MAX_VALUE;
            StaxRecordSplitter splitter;
            if (at == null) {
                splitter = StaxRecordSplitter.open(input, job.name(), recordElement, limits, end);
                // Without a position to seek to, the records already published are scanned past, never bound.
                splitter.skip(next);
            } else {
                splitter = StaxRecordSplitter.resume(input, job.name(), recordElement, limits, at, next, end);
            }
            if (job.shard() != null) {
                splitter.stopBefore(job.shard().endRecordIndex());
            }
            return splitter;
        }

        /**
         * The file, or a compressed file's plain copy beside it ({@link CompressedInput#copyBeside}),
         * made once: a restart finds it whole and resumes in it; whoever moves the file on deletes it.
         * A shard reads the copy its file was cut in, made by the worker that took the file from the
         * inbox: inflating it again here could race the other shards' workers. Null when asked to stop
         * while inflating.
         */
        private Path readable(BooleanSupplier stop) {
            if (!CompressedInput.isCompressed(job.path(), job.name())) {
                return job.path();
            }
            Path copy = CompressedInput.copyBeside(job.path(), job.fileId());
            if (job.shard() != null && !Files.isRegularFile(copy)) {
                throw new FileFailedException("its plain copy " + copy.getFileName() + ", which the file was cut in, "
                        + "is not beside it any more (deleted by hand?); once the file has failed, drop it into the inbox "
                        + "again: its failed shards resume in a new copy", ErrorLocation.ofFile(job.name()), null, null);
            }
            if (!Files.isRegularFile(copy)) {
                long t0 = System.nanoTime();
                long inflated = CompressedInput.inflate(job.path(), job.name(), copy, decompressedMaxBytes, stop, null,
                        job.bytes() >= 0 ? job.bytes() : Long.MAX_VALUE);
                inflateNanos = System.nanoTime() - t0;
                if (inflated < 0) {
                    return null;
                }
            }
            try {
                inputBytes = Files.size(copy);
                inflatedBytes = inputBytes;
            } catch (IOException e) {
                throw FileFailedException.unreadable(job.name(), e);
            }
            return copy;
        }

        /**
         * A transaction is committed as a page closes, once it has been open for the commit
         * interval (so pages stay whole): a commit costs Kafka several writes whatever its size, and committed every page
         * it held back a fast file (issue 6's measurements: about 10 ms per 1,000-record commit).
         * Dead letters alone commit at a page's count, so what waits in memory stays bounded.
         */
        private boolean commitDue() {
            return (pageClosed && System.nanoTime() - lastCommit >= commitIntervalNanos)
                    || pendingDeadLetters >= pagePolicy.maxRecords()
                    || (resumedAwaitingFirstCommit && handled > last.nextRecordIndex());
        }

        private void send(Page page) {
            toKafka(() -> publisher.send(page));
            pagesSent++;
            recordsSent += page.size();
        }

        private void record(ConvertedRecords.Converted converted) {
            SplitPosition pos = converted.position();
            ErrorLocation where = new ErrorLocation(job.name(), pos.recordIndex(), pos.line(), pos.column(), pos.byteOffset());
            if (converted.message() != null) {
                List<Page> closed = pages.add(converted.message());
                closed.forEach(this::send);
                pageClosed = !closed.isEmpty();
            } else {
                RecordRejectedException e = converted.rejected();
                listener.rejected(e);
                RawRecord raw = converted.raw().read(maxRawBytes);
                extras.add(messages.deadLetter(e, pos.recordIndex(), raw));
                pendingDeadLetters++;
                if (last.deadLetters() + pendingDeadLetters > maxRejected) {
                    handled = pos.recordIndex() + 1;
                    throw new FileFailedException("too many rejected records: " + (last.deadLetters() + pendingDeadLetters)
                            + " exceed the limit of " + maxRejected + "; the last: " + e.reason(),
                            FileFailedException.atFaultOf(e, where),
                            IngestSettings.RECORD_MAX_REJECTED.key(), e);
                }
            }
            handled = pos.recordIndex() + 1;
        }

        /**
         * Commits what is pending with a checkpoint. {@code nextIndex} is the first record not
         * handled; {@code next} is where reading can restart: the start of that record, or of an
         * earlier one (after a fault, the last record start seen), from which the reader skips on.
         */
        private void commit(FileState state, ResumePoint next, long nextIndex, FileFailedException failure) {
            Checkpoint.Position resume = state == FileState.COMPLETED ? null
                    : next == null ? last.resume()
                    : Positions.of(next);
            Checkpoint checkpoint = new Checkpoint(job.fileId(), job.name(), state, nextIndex, resume,
                    last.records() + recordsSent, last.deadLetters() + pendingDeadLetters,
                    last.pages() + pagesSent, failure == null ? null : failure.getMessage(), job.shardIndex(), 0,
                    Positions.bounds(job.shard()), Checkpoint.Failure.of(failure));
            List<Envelope> with = new ArrayList<>(extras);
            if (state != FileState.IN_PROGRESS && job.shard() != null) {
                with.add(messages.shardEnded(checkpoint, job.shard(), failure));
            } else if (state == FileState.COMPLETED) {
                with.add(messages.completed(checkpoint, job.bytes(), inflatedBytes, passedOver()));
            } else if (state == FileState.FAILED) {
                with.add(messages.failed(checkpoint, failure));
            }
            with.add(messages.checkpoint(checkpoint));
            toKafka(() -> publisher.commit(with));
            lastCommit = System.nanoTime();
            pageClosed = false;
            resumedAwaitingFirstCommit = false;
            pagesSent = 0;
            recordsSent = 0;
            extras.clear();
            startedCommitted = true;
            pendingDeadLetters = 0;
            last = checkpoint;
            listener.committed(checkpoint, bytesRead(), inputBytes, spentSinceLast());
        }

        /**
         * Times a call to the publisher. A refusal means the publisher aborted the transaction: nothing
         * sent since the last commit is published.
         */
        private void toKafka(Runnable call) {
            long t0 = System.nanoTime();
            try {
                call.run();
            } catch (FileFailedException e) {
                aborted = true;
                throw e;
            } finally {
                publish += System.nanoTime() - t0;
            }
        }

        private Map<String, Long> passedOver() {
            return splitter == null ? Map.of() : splitter.passedOver();
        }

        private long bytesRead() {
            return records != null ? records.bytesRead() : splitter == null ? 0 : splitter.bytesRead();
        }

        private long scanNanos() {
            return records == null ? 0 : records.scanNanos();
        }

        private PhaseTimes spentSinceLast() {
            long scan = scanNanos();
            long bind = records == null ? 0 : records.bindNanos();
            long serialize = records == null ? 0 : records.serializeNanos();
            PhaseTimes spent = new PhaseTimes(inflateNanos - spentInflate, scan - spentScan, bind - spentBind,
                    serialize - spentSerialize, publish - spentPublish);
            spentInflate = inflateNanos;
            spentScan = scan;
            spentBind = bind;
            spentSerialize = serialize;
            spentPublish = publish;
            return spent;
        }

        private FileOutcome outcome(FileOutcome.Ending ending, FileFailedException failure) {
            PhaseTimes phases = new PhaseTimes(inflateNanos, scanNanos(), records == null ? 0 : records.bindNanos(),
                    records == null ? 0 : records.serializeNanos(), publish);
            return new FileOutcome(ending, last, failure, bytesRead(), System.nanoTime() - started, phases, passedOver());
        }
    }
}
