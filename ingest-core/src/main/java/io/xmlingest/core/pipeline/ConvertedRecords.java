package io.xmlingest.core.pipeline;

import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.FileFailedException;
import io.xmlingest.core.error.RecordRejectedException;
import io.xmlingest.core.error.RecordError;
import io.xmlingest.core.page.OutgoingRecord;
import io.xmlingest.core.split.CapturedRecord;
import io.xmlingest.core.split.RawRecord;
import io.xmlingest.core.split.RecordSplitter;
import io.xmlingest.core.split.ResumePoint;
import io.xmlingest.core.split.SplitPosition;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.xml.stream.XMLStreamException;

/**
 * A file's records, converted to messages on several threads and handed out in file order.
 *
 * <p>One thread reads the file: it finds each record and copies its events off the cursor (see
 * {@link CapturedRecord}), which is all the parsing there is. Binder threads, each with its own
 * unmarshaller and encoder, turn the copies into messages. The caller takes them in order with
 * {@link #next()}, while reading and binding go on, so a commit to Kafka no longer stops the file.
 *
 * <p>Or, with {@code bind.on=reader}, the reading thread binds each record straight off the cursor
 * and the caller writes its value as it takes it: no copy is made, and none crosses to another core.
 * On 2 cores that costs less CPU per record than the binder threads do (see the README's
 * performance section); with more, binder threads go further, as the one reading thread sets the pace.
 *
 * <p>What is in flight is bounded by a count of records and by the heap their copies hold (bound on
 * the reading thread, an estimate from their length, and the raw text kept for rejected ones); the
 * reader waits when either is reached, so memory does not grow with the file. With binder threads it
 * also waits while one batch per binder and one more wait for a binder to begin them, so that copies
 * are bound a few batches after they were made, while still in the caches. A fault that stops the
 * file is handed out in its place in the order, after every record before it.
 */
final class ConvertedRecords implements AutoCloseable {

    /**
     * One record, converted or rejected.
     *
     * @param start   where a reader could restart at this record, or null
     * @param message the message, or null when {@code rejected}
     */
    record Converted(SplitPosition position, ResumePoint start, OutgoingRecord message,
                     RecordRejectedException rejected, RawSource raw) {
    }

    /** The record's raw text, read only for a dead letter. */
    interface RawSource {
        RawRecord read(long maxBytes);
    }

    /**
     * How files are converted: the model, the number of binder threads and the bounds on what is
     * in flight, read from the settings once for every file.
     */
    record Plan(RecordModel model, long maxRequestSize, int binderThreads, boolean bindOnReader, int maxRecords,
                long maxHeap, int maxDepth, boolean dropUnmapped) {

        static Plan of(IngestConfig config, RecordModel model) {
            int threads = config.get(IngestSettings.BIND_THREADS);
            int processors = Runtime.getRuntime().availableProcessors();
            String on = config.get(IngestSettings.BIND_ON);
            int maxDepth = config.get(IngestSettings.XML_MAX_DEPTH);
            // The caller writes the values then, on a stack of whatever size it has; a record deeper than the
            // JVM's default stack takes needs the binder threads' stacks.
            boolean onReader = binderStackBytes(maxDepth) == 0 && (on.equals("reader")
                    || on.equals("auto") && processors <= IngestSettings.BIND_ON_READER_MAX_PROCESSORS);
            // Twice a page: the next page is read and bound while the last one is committed.
            return new Plan(model.withTopicsOf(config), config.get(IngestSettings.MAX_REQUEST_SIZE),
                    threads > 0 ? threads : processors, onReader,
                    2 * config.get(IngestSettings.PAGE_MAX_RECORDS), 2 * config.get(IngestSettings.PAGE_MAX_BYTES),
                    maxDepth,
                    "drop".equals(config.get(IngestSettings.RECORD_UNMAPPED_CONTENT)));
        }

        /** Starts reading {@code splitter}'s file; {@code maxRawBytes} bounds the raw text kept for a record rejected as it is read. */
        ConvertedRecords start(RecordSplitter splitter, String fileName, String fileId, long maxRawBytes) {
            return new ConvertedRecords(splitter, fileName, fileId,
                    () -> new RecordConverter(model, maxRequestSize, maxDepth, dropUnmapped), binderThreads,
                    bindOnReader, binderStackBytes(maxDepth), maxRecords, maxHeap, maxRawBytes);
        }
    }

    /**
     * Stack a binder thread needs to convert a model record nested {@code maxDepth} levels deep: JAXB,
     * the required-value check and the encoder each recurse once per level, about 650 bytes a level
     * in all with a recursive model (measured), so twice that is asked for in case of larger frames.
     * 0, the JVM's default (1 MB on 64-bit Linux), covers xml.max.depth's default; the stack is only
     * reserved, and a record that deep is what makes it resident.
     */
    static long binderStackBytes(int maxDepth) {
        long needed = (long) maxDepth * STACK_PER_LEVEL;
        return needed <= DEFAULT_STACK ? 0 : needed;
    }

    private static final long STACK_PER_LEVEL = 2 * 1024;
    private static final long DEFAULT_STACK = 1024 * 1024;

    /**
     * Records travel in batches: handing each record over on its own woke a sleeping thread per
     * record, which cost more than binding it (28 us of CPU per record against 14 in one thread).
     */
    static final int BATCH_RECORDS = 64;
    private static final Batch END = new Batch(0);
    private static final long POLL_MS = 50;

    private final RecordSplitter splitter;
    private final String fileName;
    private final String fileId;
    private final BlockingQueue<Batch> ordered;
    private final BlockingQueue<Batch> work = new LinkedBlockingQueue<>();
    private final Semaphore heapBudget;
    /**
     * Batches handed to the binders and not yet begun: one per binder and one more. A copy bound
     * within a few batches of being made is still in the caches; one bound two thousand records
     * later (as far as the bound on records in flight let the reader run ahead) is fetched from
     * memory again: on one thread, copying and binding took 9.4 us of CPU per record that way
     * against 7.1 (the bench's CpuPerRecord, variant distance). Binders still run ahead of the
     * caller up to that bound, which is what keeps them busy while a commit stops it.
     */
    private final Semaphore unstarted;
    private final int budgetKiB;
    private final long maxRawBytes;
    private final List<RecordConverter> converters = new ArrayList<>();
    /** With bind.on=reader, the reading thread's, which binds; null when binder threads convert. */
    private final RecordConverter readerConverter;
    /** With bind.on=reader, the caller's, which writes the values in {@link #next()}. */
    private final RecordConverter callerConverter;
    private final List<Thread> threads = new ArrayList<>();
    private final Thread reader;
    private volatile boolean closed;
    /** An Error that struck the reader, kept in case handing it on fails as well. */
    private volatile Error readerError;
    private volatile long scanNanos;
    private volatile long bytesRead;
    private Batch current;
    private int taken;

    /**
     * Starts reading at once.
     *
     * @param maxRecords  most records in flight between the reader and the caller
     * @param maxHeap     about how much heap the records in flight may hold; one larger record is let through alone
     * @param maxRawBytes longest raw text kept for a record rejected while it was read
     */
    ConvertedRecords(RecordSplitter splitter, String fileName, String fileId, Supplier<RecordConverter> converter,
                     int binderThreads, boolean bindOnReader, long binderStackBytes, int maxRecords, long maxHeap,
                     long maxRawBytes) {
        this.splitter = splitter;
        this.fileName = fileName;
        this.fileId = fileId;
        this.ordered = new ArrayBlockingQueue<>(Math.max(2, maxRecords / BATCH_RECORDS));
        this.budgetKiB = (int) Math.max(1, Math.min(Integer.MAX_VALUE, maxHeap / 1024));
        this.heapBudget = new Semaphore(budgetKiB);
        this.unstarted = new Semaphore(binderThreads + 1);
        this.maxRawBytes = maxRawBytes;
        for (int i = 0; i < (bindOnReader ? 0 : binderThreads); i++) {
            RecordConverter c = converter.get();
            converters.add(c);
            threads.add(daemon("xmlingest-bind-" + i, binderStackBytes, () -> bindLoop(c)));
        }
        this.readerConverter = bindOnReader ? converter.get() : null;
        this.callerConverter = bindOnReader ? converter.get() : null;
        if (bindOnReader) {
            converters.add(readerConverter);
            converters.add(callerConverter);
        }
        reader = daemon("xmlingest-read", bindOnReader ? binderStackBytes : 0, this::readLoop);
        threads.add(reader);
        threads.forEach(Thread::start);
    }

    private static Thread daemon(String name, long stackBytes, Runnable body) {
        Thread t = new Thread(null, body, name, stackBytes);
        t.setDaemon(true);
        return t;
    }

    /**
     * The next record in file order, once converted; null after the last.
     *
     * @throws FileFailedException where the file stopped being readable, after every record before the fault
     */
    Converted next() {
        while (current == null || taken == current.size) {
            if (current == END) {
                return null;
            }
            if (current != null && current.failure != null) {
                if (current.failure instanceof Error e) {
                    throw e;
                }
                throw (RuntimeException) current.failure;
            }
            current = take();
            taken = 0;
        }
        Item item = current.items[taken++];
        if (item.bound != null) {
            convert(callerConverter, item);
            item.bound = null;
        }
        if (item.error != null) {
            if (item.error instanceof RuntimeException r) {
                throw r;
            }
            throw (Error) item.error;
        }
        return new Converted(item.position, item.start, item.message, item.rejected, item::raw);
    }

    private Batch take() {
        Batch batch;
        try {
            batch = ordered.poll(POLL_MS, TimeUnit.MILLISECONDS);
            while (batch == null) {
                if (!reader.isAlive()) {
                    // What the reader handed on before it ended is in the queue by now.
                    batch = ordered.poll();
                    if (batch == null) {
                        Error first = readerError;
                        throw first != null ? first : stopped("reading thread");
                    }
                    break;
                }
                batch = ordered.poll(POLL_MS, TimeUnit.MILLISECONDS);
            }
            if (batch.size > 0 && batch.hasEvents) {
                while (!batch.done.await(POLL_MS, TimeUnit.MILLISECONDS)) {
                    if (threads.stream().noneMatch(t -> t != reader && t.isAlive()) && batch.done.getCount() > 0) {
                        throw stopped("binder threads");
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the next record", e);
        }
        heapBudget.release(batch.cost);
        return batch;
    }

    /**
     * A thread of this file ended without handing on what ended it: another error while it handed
     * on the first, most likely (out of memory twice). Waiting on would hang the worker with the file
     * in hand, so this stops the file as the first error would have.
     */
    private Error stopped(String which) {
        return new InternalError("the " + which + " of file " + fileName + " ended without handing on why (another "
                + "error while it handled the first one, most likely; the log has the thread's stack trace)");
    }

    /** Time the reader spent finding and copying records, in nanoseconds. */
    long scanNanos() {
        return scanNanos;
    }

    long bindNanos() {
        long sum = 0;
        for (RecordConverter c : converters) {
            sum += c.bindNanos;
        }
        return sum;
    }

    long serializeNanos() {
        long sum = 0;
        for (RecordConverter c : converters) {
            sum += c.serializeNanos;
        }
        return sum;
    }

    /** Bytes the reader has taken from the file: for progress. */
    long bytesRead() {
        return bytesRead;
    }

    /** Stops the threads and waits for them; records still in flight are dropped (they were never published). */
    @Override
    public void close() {
        closed = true;
        ordered.clear();
        for (Thread t : threads) {
            if (t != reader) {
                // A binder waiting for work that will not come (a reader that could not hand on its end) ends now.
                t.interrupt();
            }
        }
        for (Thread t : threads) {
            try {
                t.join(TimeUnit.SECONDS.toMillis(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void readLoop() {
        Batch batch = new Batch(BATCH_RECORDS);
        SplitPosition reading = null;
        try {
            while (!closed) {
                long t0 = System.nanoTime();
                if (!splitter.next()) {
                    scanNanos += System.nanoTime() - t0;
                    if (submit(batch)) {
                        hand(END);
                    }
                    return;
                }
                SplitPosition position = splitter.position();
                reading = position;
                ResumePoint start = splitter.resumePoint();
                Item item = new Item(position, start);
                if (readerConverter != null) {
                    long b0 = System.nanoTime();
                    bind(batch, item);
                    t0 += System.nanoTime() - b0; // binding is the bind phase's, not the scan's
                } else {
                    try {
                        item.events = splitter.capture();
                        batch.cost += costOf(item.events.heapSize());
                        batch.hasEvents = true;
                    } catch (RecordRejectedException e) {
                        item.rejected = e;
                        item.rawText = splitter.raw(maxRawBytes);
                    }
                }
                if (item.rawText != null && item.rawText.xml() != null) {
                    batch.cost += costOf(2L * item.rawText.xml().length());
                }
                batch.items[batch.size++] = item;
                if (item.error != null) {
                    // An Error binding on the reading thread stops reading, as one while reading does; the record
                    // hands it out in its place.
                    if (submit(batch)) {
                        hand(Batch.failed(item.error));
                    }
                    return;
                }
                reading = null; // an error from here on is in the file between records, not in this one
                scanNanos += System.nanoTime() - t0;
                bytesRead = splitter.bytesRead();
                // A batch also closes at a quarter of the budget, so that large records still flow.
                if (batch.size == BATCH_RECORDS || batch.cost >= budgetKiB / 4) {
                    if (!submit(batch)) {
                        return;
                    }
                    batch = new Batch(BATCH_RECORDS);
                }
            }
        } catch (FileFailedException e) {
            if (submit(batch)) {
                hand(Batch.failed(e));
            }
        } catch (RuntimeException e) {
            if (submit(batch)) {
                hand(Batch.failed(new FileFailedException("cannot read the file: " + e, ErrorLocation.ofFile(fileName),
                        null, e)));
            }
        } catch (Error e) {
            // Not the file's fault, as in a binder (out of memory reading a large record with too small a heap, say):
            // it stops the file in hand as an error, after the records before it, and whoever runs the file decides.
            readerError = e; // first, for the caller to find should handing it on fail too
            SplitPosition p = reading;
            Error error = RecordError.placed(e, () -> "while reading " + (p == null ? ErrorLocation.ofFile(fileName)
                    : locate(p)));
            if (submit(batch)) {
                hand(Batch.failed(error));
            }
        } finally {
            for (int i = 0; i < converters.size(); i++) {
                work.add(END);
            }
        }
    }

    private int costOf(long heapBytes) {
        return (int) Math.min(budgetKiB, heapBytes / 1024 + 1);
    }

    /** Hands a batch to the binders and the caller; false once closed. */
    private boolean submit(Batch batch) {
        if (batch.size == 0) {
            return !closed;
        }
        batch.cost = Math.min(batch.cost, budgetKiB);
        if (!reserve(batch.cost)) {
            return false;
        }
        if (batch.hasEvents) {
            if (!untilClosed(() -> unstarted.tryAcquire(POLL_MS, TimeUnit.MILLISECONDS))) {
                return false;
            }
            work.add(batch);
        }
        return hand(batch);
    }

    private boolean reserve(int cost) {
        return untilClosed(() -> heapBudget.tryAcquire(cost, POLL_MS, TimeUnit.MILLISECONDS));
    }

    private boolean hand(Batch batch) {
        return untilClosed(() -> ordered.offer(batch, POLL_MS, TimeUnit.MILLISECONDS));
    }

    /** One wait of at most {@link #POLL_MS}: true when it got what it waited for. */
    private interface Wait {
        boolean once() throws InterruptedException;
    }

    /** Waits in short steps, so that {@link #close()} is noticed; false once closed. */
    private boolean untilClosed(Wait wait) {
        try {
            while (!closed) {
                if (wait.once()) {
                    return true;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    private void bindLoop(RecordConverter converter) {
        while (true) {
            Batch batch;
            try {
                batch = work.take();
            } catch (InterruptedException e) {
                return;
            }
            if (batch == END) {
                return;
            }
            unstarted.release();
            try {
                for (int i = 0; i < batch.size && !closed; i++) {
                    Item item = batch.items[i];
                    try {
                        convert(converter, item);
                    } catch (Throwable t) {
                        // Another error while the first was handled (out of memory again): the record keeps the
                        // first, and the thread goes on, so that no record of the batch is left unconverted.
                        if (item.error == null) {
                            item.error = t;
                        }
                    }
                }
            } finally {
                // Whatever happened, the caller waiting for this batch must not wait for ever.
                batch.done.countDown();
            }
        }
    }

    /**
     * Binds the record straight off the file's cursor, on the reading thread: no copy is made, so
     * none crosses to another core; the caller writes the value as it takes the record.
     *
     * @throws FileFailedException where the record's XML stops the file, as a copy would have
     */
    private void bind(Batch batch, Item item) {
        SplitPosition p = item.position;
        try {
            item.bound = readerConverter.bind(splitter.record(), p.recordIndex(), locate(p), fileId);
            item.source = splitter.rawLater();
            // What a record holds once bound and written is about its text as UTF-16, twice.
            batch.cost += costOf(4 * item.source.chars());
        } catch (RecordRejectedException e) {
            RecordRejectedException tooLarge = splitter.restTooLarge();
            item.rejected = tooLarge != null ? tooLarge : e;
            item.rawText = splitter.raw(maxRawBytes);
        } catch (FileFailedException e) {
            // The parser's fault, told by the splitter as it tells a fault met while copying a record.
            throw e.getCause() instanceof XMLStreamException x ? splitter.fault(x) : e;
        } catch (Error e) {
            place(item, e);
        }
    }

    /** Keeps an Error with its record, named where it struck; the first one, should naming it fail too. */
    private void place(Item item, Error e) {
        item.error = e; // first, as wrapping it may run out of memory too
        try {
            item.error = RecordError.placed(e, () -> "while converting " + locate(item.position));
        } catch (Throwable again) {
            // Out of memory again while describing it: the record keeps the first.
        }
    }

    private void convert(RecordConverter converter, Item item) {
        if (item.bound == null && item.events == null) {
            return;
        }
        SplitPosition p = item.position;
        try {
            item.message = item.bound != null ? converter.encode(item.bound, p.recordIndex(), locate(p), fileName)
                    : converter.convert(item.events.reader(), p.recordIndex(), locate(p), fileName, fileId);
        } catch (RecordRejectedException e) {
            item.rejected = e;
        } catch (Error e) {
            place(item, e);
        } catch (RuntimeException e) {
            item.error = e;
        }
    }

    private ErrorLocation locate(SplitPosition p) {
        return new ErrorLocation(fileName, p.recordIndex(), p.line(), p.column(), p.byteOffset());
    }

    /**
     * Up to {@link #BATCH_RECORDS} consecutive records. Written by the reader before it is queued,
     * then by one binder before {@code done} opens; read by the caller after that.
     */
    private static final class Batch {
        final Item[] items;
        final CountDownLatch done = new CountDownLatch(1);
        int size;
        int cost;
        boolean hasEvents;
        /** What stops the file here: a FileFailedException, or an Error let through. */
        Throwable failure;

        Batch(int capacity) {
            this.items = new Item[capacity];
        }

        static Batch failed(Throwable e) {
            Batch b = new Batch(0);
            b.failure = e;
            return b;
        }
    }

    /** One record of a batch. */
    private static final class Item {
        final SplitPosition position;
        final ResumePoint start;
        CapturedRecord events;
        /** Set when the reading thread bound the record, with where its raw text is. */
        RecordConverter.Bound bound;
        RawRecord.Source source;
        OutgoingRecord message;
        RecordRejectedException rejected;
        Throwable error;
        RawRecord rawText;

        Item(SplitPosition position, ResumePoint start) {
            this.position = position;
            this.start = start;
        }

        RawRecord raw(long maxBytes) {
            if (rawText != null) {
                // Read as the record was refused, up to the longest kept; a caller may ask for less.
                return rawText.xml() == null || rawText.byteLength() <= maxBytes ? rawText
                        : new RawRecord(rawText.byteOffset(), rawText.byteLength(), null);
            }
            return source != null ? source.read(maxBytes) : events.raw(maxBytes);
        }
    }
}
