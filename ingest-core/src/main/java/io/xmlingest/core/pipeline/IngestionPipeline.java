package io.xmlingest.core.pipeline;

import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.FileFailedException;
import io.xmlingest.core.error.IngestException;
import io.xmlingest.core.error.IoProblems;
import io.xmlingest.core.error.RecordRejectedException;
import io.xmlingest.core.page.Page;
import io.xmlingest.core.page.PageAssembler;
import io.xmlingest.core.page.PagePolicy;
import io.xmlingest.core.publish.PagePublisher;
import io.xmlingest.core.publish.PartlyPublished;
import io.xmlingest.core.split.DoctypePolicy;
import io.xmlingest.core.split.CompressedInput;
import io.xmlingest.core.split.FileNames;
import io.xmlingest.core.split.RecordSplitter;
import io.xmlingest.core.split.SplitPosition;
import io.xmlingest.core.split.RecordElements;
import io.xmlingest.core.split.StaxRecordSplitter;
import io.xmlingest.core.split.XmlLimits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Wires the stages for one file at a time: split, bind, key and serialize, page, publish. It is
 * the only class that knows them all. Not shared between threads.
 */
public final class IngestionPipeline {

    private final RecordElements recordElement;
    private final XmlLimits limits;
    private final PagePolicy pagePolicy;
    private final int maxPagesInFlight;
    private final int maxRejected;
    private final long decompressedMaxBytes;
    private final ConvertedRecords.Plan conversion;
    private final PagePublisher publisher;
    private final IngestListener listener;

    private IngestionPipeline(IngestConfig config, RecordModel model, PagePublisher publisher, IngestListener listener) {
        this.recordElement = model.elements();
        this.limits = limits(config);
        this.pagePolicy = new PagePolicy(config.get(IngestSettings.PAGE_MAX_RECORDS), config.get(IngestSettings.PAGE_MAX_BYTES));
        this.maxPagesInFlight = config.get(IngestSettings.PUBLISH_MAX_PAGES_IN_FLIGHT);
        this.maxRejected = config.get(IngestSettings.RECORD_MAX_REJECTED);
        this.decompressedMaxBytes = config.get(IngestSettings.DECOMPRESSED_MAX_BYTES);
        this.conversion = ConvertedRecords.Plan.of(config, model);
        this.publisher = publisher;
        this.listener = listener;
    }

    /** The XML limits the settings ask for. */
    public static XmlLimits limits(IngestConfig config) {
        return new XmlLimits(config.get(IngestSettings.XML_MAX_DEPTH), config.get(IngestSettings.XML_MAX_ATTRIBUTES),
                config.get(IngestSettings.XML_MAX_ATTRIBUTE_SIZE), config.get(IngestSettings.XML_MAX_TEXT_SIZE),
                DoctypePolicy.of(config.get(IngestSettings.XML_DOCTYPE)),
                config.get(IngestSettings.XML_MAX_ENTITY_EXPANSIONS), config.get(IngestSettings.XML_MAX_ENTITY_DEPTH),
                config.get(IngestSettings.XML_MAX_RECORD_SIZE), config.get(IngestSettings.REQUIRE_RECORDS));
    }

    /** Builds the pipeline, building the record model from the settings first. */
    public static IngestionPipeline create(IngestConfig config, PagePublisher publisher, IngestListener listener) {
        return create(config, model(config), publisher, listener);
    }

    public static IngestionPipeline create(IngestConfig config, RecordModel model, PagePublisher publisher,
                                           IngestListener listener) {
        return new IngestionPipeline(config, model, publisher, listener);
    }

    /** Builds the record model the settings name; errors name the setting. */
    public static RecordModel model(IngestConfig config) {
        return RecordModel.of(config);
    }

    /**
     * Ingests one file. Returns when every record is acknowledged; throws
     * {@link FileFailedException} (or another {@link IngestException}) if the file cannot be
     * finished, after waiting for the pages already handed over, which stay published.
     */
    public FileSummary ingest(Path file) {
        return ingest(file, size(file));
    }

    /** As {@link #ingest(Path)}, for a file that was {@code fileBytes} long when it was taken. */
    FileSummary ingest(Path file, long fileBytes) {
        long started = System.nanoTime();
        String name = file.toString();
        if (CompressedInput.isCompressed(file, name)) {
            Path copy = temporaryCopy(file, name);
            try {
                // Its identity is its content's, as the worker's is: the same XML plain or compressed is one file.
                return ingest(copy, name, FileIdentity.inflatedInto(file, name, copy, decompressedMaxBytes, fileBytes), fileBytes, started,
                        Long.MAX_VALUE);
            } finally {
                try {
                    Files.deleteIfExists(copy);
                } catch (IOException e) {
                    // in java.io.tmpdir, where what is left is the system's to clear
                }
            }
        }
        // A file still being written is hashed and read to the size it had here, as the worker does: what is published
        // under its file id is what that id was computed from.
        return ingest(file, name, FileIdentity.sha256(file, fileBytes), fileBytes, started, fileBytes);
    }

    /**
     * Where a compressed file's plain copy goes: java.io.tmpdir, deleted after the file, and at
     * exit if Ctrl-C or SIGTERM ends the command first. Inflating and hashing it count in the
     * identify phase.
     */
    private static Path temporaryCopy(Path file, String name) {
        Path copy;
        try {
            // The name only helps a person find it; cut, as the worker cuts its copy's, so a long one still fits.
            copy = Files.createTempFile("xmlingest-", "-" + FileNames.fit(file.getFileName().toString(), "", 100) + ".xml");
        } catch (IOException e) {
            throw new FileFailedException("cannot make the compressed file's inflated copy in "
                    + System.getProperty("java.io.tmpdir") + " (java.io.tmpdir): " + IoProblems.why(e),
                    ErrorLocation.ofFile(name), null, e);
        }
        copy.toFile().deleteOnExit();
        copy.resolveSibling(copy.getFileName() + ".part").toFile().deleteOnExit();
        return copy;
    }

    private FileSummary ingest(Path file, String name, String fileId, long fileBytes, long started, long end) {
        long identified = System.nanoTime();
        // Progress is measured in what is read: for a compressed file, its inflated copy.
        Run run = new Run(name, fileId, Math.min(size(file), end));
        // Closed in reverse: the reader stops before the file it reads is closed.
        try (RecordSplitter splitter = StaxRecordSplitter.open(file, name, recordElement, limits, end);
             ConvertedRecords records = conversion.start(splitter, name, fileId, 0)) {
            run.records = records;
            ConvertedRecords.Converted converted;
            while ((converted = records.next()) != null) {
                run.record(converted);
            }
            run.pages.finish().ifPresent(run::submit);
            run.drain(0);
            PassedOver.warn(name, recordElement, splitter.passedOver());
        } catch (IngestException e) {
            run.drainQuietly();
            throw e;
        }
        long elapsed = System.nanoTime() - started;
        ConvertedRecords r = run.records;
        return new FileSummary(name, fileId, run.recordCount, run.rejected, run.pageCount, run.messageBytes, fileBytes,
                elapsed, new PhaseTimes(identified - started, r.scanNanos(), r.bindNanos(), r.serializeNanos(),
                run.publish));
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw FileFailedException.unreadable(file.toString(), e);
        }
    }

    /** The state of one file's ingestion. */
    private final class Run {
        final String name;
        final String fileId;
        /** The size of what is read, which progress is measured against. */
        final long readBytes;
        final PageAssembler pages;
        final ArrayDeque<CompletableFuture<Page>> inFlight = new ArrayDeque<>();
        ConvertedRecords records;
        long recordCount;
        long rejected;
        long pageCount;
        long messageBytes;
        long publish;

        Run(String name, String fileId, long readBytes) {
            this.name = name;
            this.fileId = fileId;
            this.readBytes = readBytes;
            this.pages = new PageAssembler(name, fileId, pagePolicy);
        }

        void record(ConvertedRecords.Converted converted) {
            SplitPosition pos = converted.position();
            if (converted.message() == null) {
                reject(converted.rejected(),
                        new ErrorLocation(name, pos.recordIndex(), pos.line(), pos.column(), pos.byteOffset()));
                return;
            }
            long t3 = System.nanoTime();
            pages.add(converted.message()).forEach(this::submit);
            publish += System.nanoTime() - t3;
        }

        void reject(RecordRejectedException e, ErrorLocation where) {
            rejected++;
            listener.rejected(e);
            if (rejected > maxRejected) {
                throw new FileFailedException("too many rejected records: " + rejected + " exceed the limit of "
                        + maxRejected + "; the last: " + e.reason(), FileFailedException.atFaultOf(e, where),
                        IngestSettings.RECORD_MAX_REJECTED.key(), e);
            }
        }

        void submit(Page page) {
            inFlight.add(publisher.publish(page));
            drain(maxPagesInFlight);
        }

        /** Waits until at most {@code allowed} pages are unacknowledged; fails fast on a failed page. */
        void drain(int allowed) {
            long t = System.nanoTime();
            while (!inFlight.isEmpty() && (inFlight.size() > allowed || inFlight.peek().isDone())) {
                Page page = await(inFlight.poll());
                recordCount += page.size();
                pageCount++;
                messageBytes += page.bytes();
                listener.acknowledged(page, records == null ? -1 : records.bytesRead(), readBytes);
            }
            if (allowed == 0) {
                publish += System.nanoTime() - t;
            }
        }

        /** Without a transaction, the records Kafka took of a failed page are published: the listener counts them. */
        private void tookPart(PartlyPublished partly) {
            partly.taken().ifPresent(p -> listener.acknowledged(p, records == null ? -1 : records.bytesRead(), readBytes));
        }

        /** After a fault: waits for the pages in flight, and tells the listener of those Kafka took. */
        void drainQuietly() {
            while (!inFlight.isEmpty()) {
                try {
                    Page page = inFlight.poll().get();
                    listener.acknowledged(page, records == null ? -1 : records.bytesRead(), readBytes);
                } catch (ExecutionException e) {
                    // The first failure is the one reported; what Kafka took of a failed page counts all the same.
                    if (e.getCause() instanceof PartlyPublished partly) {
                        tookPart(partly);
                    }
                } catch (CancellationException e) {
                    // nothing of it to count
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }

        private Page await(CompletableFuture<Page> future) {
            try {
                return future.join();
            } catch (CompletionException e) {
                if (e.getCause() instanceof PartlyPublished partly) {
                    tookPart(partly);
                    throw partly.failure();
                }
                if (e.getCause() instanceof IngestException ie) {
                    throw ie;
                }
                throw new FileFailedException("publishing failed: " + e.getCause(), ErrorLocation.ofFile(name), null, e);
            }
        }
    }
}
