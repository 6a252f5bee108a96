package io.xmlingest.core.publish;

import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.FileFailedException;
import io.xmlingest.core.error.IngestException;
import io.xmlingest.core.error.RetriableIngestException;
import io.xmlingest.core.page.OutgoingRecord;
import io.xmlingest.core.page.Page;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Publishes each record of a page as one Kafka message. Sends are asynchronous; every send's
 * result is checked, and the page's future fails with the first failed record, named by file,
 * record index and the setting that governs the fault.
 */
public final class KafkaPagePublisher implements PagePublisher {

    private final Producer<byte[], byte[]> producer;

    public KafkaPagePublisher(Producer<byte[], byte[]> producer) {
        this.producer = producer;
    }

    /** Creates the record topics if needed, waits for their leaders, and opens an idempotent producer. */
    public static KafkaPagePublisher open(IngestConfig config) {
        List<String> topics = List.copyOf(new LinkedHashSet<>(config.get(IngestSettings.TOPIC)));
        int partitions = config.get(IngestSettings.TOPIC_PARTITIONS);
        int replication = config.get(IngestSettings.TOPIC_REPLICATION_FACTOR);
        KafkaTopics.ensure(KafkaClientSettings.admin(config), topics.stream()
                .map(t -> KafkaTopics.spec(t, partitions, replication, Map.of())).toList(),
                Duration.ofMillis(config.get(IngestSettings.TOPIC_READY_TIMEOUT_MS)));
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(KafkaClientSettings.producer(config));
        // Fetch the topics' metadata now, so the first page does not wait on it.
        topics.forEach(producer::partitionsFor);
        return new KafkaPagePublisher(producer);
    }

    @Override
    public CompletableFuture<Page> publish(Page page) {
        Answers answers = new Answers(page);
        byte[] file = page.fileName().getBytes(StandardCharsets.UTF_8);
        byte[] fileId = page.fileId().getBytes(StandardCharsets.UTF_8);
        byte[] pageNumber = Long.toString(page.number()).getBytes(StandardCharsets.UTF_8);
        List<OutgoingRecord> records = page.records();
        for (int slot = 0; slot < records.size(); slot++) {
            OutgoingRecord r = records.get(slot);
            Header[] headers = {
                new RecordHeader(MessageHeaders.FILE, file),
                new RecordHeader(MessageHeaders.FILE_ID, fileId),
                new RecordHeader(MessageHeaders.RECORD_INDEX, Long.toString(r.index()).getBytes(StandardCharsets.UTF_8)),
                new RecordHeader(MessageHeaders.PAGE, pageNumber),
            };
            ProducerRecord<byte[], byte[]> message = new ProducerRecord<>(r.topic(), null, null, r.key(), r.value(),
                    java.util.Arrays.asList(headers));
            int at = slot;
            try {
                producer.send(message, (metadata, error) -> answers.answer(at, error == null ? null : failure(error, page, r)));
            } catch (RuntimeException e) {
                // Thrown, the record may still have been queued, and then its callback answers it too: once counts.
                answers.answer(at, failure(e, page, r));
            }
            if (answers.failed()) {
                // The producer reports most refusals through the callback, on this thread: sending the rest would
                // only wait for each (a metadata or buffer timeout is max.block.ms apiece) to fail the same way.
                answers.unsent(at + 1);
                break;
            }
        }
        return answers.done;
    }

    /**
     * The answer for each record of a page, each taken once (a record can be answered both by a
     * send that threw and by its callback): the page completes when all are in, and fails then,
     * with what Kafka took of it, if any failed.
     */
    private static final class Answers {
        private static final int TAKEN = 1;
        private static final int REFUSED = 2;

        final CompletableFuture<Page> done = new CompletableFuture<>();
        private final Page page;
        private final AtomicIntegerArray state;
        private final AtomicInteger pending;
        private final AtomicReference<IngestException> firstFailure = new AtomicReference<>();

        Answers(Page page) {
            this.page = page;
            this.state = new AtomicIntegerArray(page.size());
            this.pending = new AtomicInteger(page.size());
        }

        /** @param failure null when Kafka took the record */
        void answer(int slot, IngestException failure) {
            if (failure != null) {
                firstFailure.compareAndSet(null, failure);
            }
            if (state.compareAndSet(slot, 0, failure == null ? TAKEN : REFUSED) && pending.decrementAndGet() == 0) {
                complete();
            }
        }

        boolean failed() {
            return firstFailure.get() != null;
        }

        /** The records from {@code from} on were never sent: nothing will answer them. */
        void unsent(int from) {
            int gone = 0;
            for (int i = from; i < state.length(); i++) {
                if (state.compareAndSet(i, 0, REFUSED)) {
                    gone++;
                }
            }
            if (gone > 0 && pending.addAndGet(-gone) == 0) {
                complete();
            }
        }

        private void complete() {
            IngestException failed = firstFailure.get();
            if (failed == null) {
                done.complete(page);
                return;
            }
            List<OutgoingRecord> taken = new ArrayList<>();
            long bytes = 0;
            for (int i = 0; i < state.length(); i++) {
                if (state.get(i) == TAKEN) {
                    OutgoingRecord r = page.records().get(i);
                    taken.add(r);
                    bytes += r.size();
                }
            }
            done.completeExceptionally(new PartlyPublished(taken.isEmpty() ? null
                    : new Page(page.fileName(), page.fileId(), page.number(), taken, bytes), failed));
        }
    }

    private IngestException failure(Throwable error, Page page, OutgoingRecord r) {
        ErrorLocation where = ErrorLocation.ofFile(page.fileName()).withRecordIndex(r.index());
        String what = "publishing to topic " + r.topic() + " failed: " + error;
        if (error instanceof RecordTooLargeException && RecordTooLarge.byTheBroker(error)) {
            return new FileFailedException("record of " + r.size() + " bytes is too large for topic " + r.topic() + ": "
                    + RecordTooLarge.brokerLimit(error), where, null, error);
        }
        if (error instanceof RecordTooLargeException) {
            return new FileFailedException("record of " + r.size() + " bytes is too large to publish: " + error.getMessage(),
                    where, IngestSettings.MAX_REQUEST_SIZE.key(), error);
        }
        if (error instanceof RetriableException || error instanceof org.apache.kafka.common.errors.TimeoutException) {
            return new RetriableIngestException(what, where, IngestSettings.DELIVERY_TIMEOUT_MS.key(), error);
        }
        return new FileFailedException(what, where, null, error);
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(30));
    }
}
