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
        CompletableFuture<Page> done = new CompletableFuture<>();
        AtomicInteger pending = new AtomicInteger(page.size());
        // Written by the producer's thread before its last decrement of pending, read after it.
        boolean[] acked = new boolean[page.size()];
        AtomicReference<IngestException> firstFailure = new AtomicReference<>();
        int at = 0;
        byte[] file = page.fileName().getBytes(StandardCharsets.UTF_8);
        byte[] fileId = page.fileId().getBytes(StandardCharsets.UTF_8);
        byte[] pageNumber = Long.toString(page.number()).getBytes(StandardCharsets.UTF_8);
        for (OutgoingRecord r : page.records()) {
            Header[] headers = {
                new RecordHeader(MessageHeaders.FILE, file),
                new RecordHeader(MessageHeaders.FILE_ID, fileId),
                new RecordHeader(MessageHeaders.RECORD_INDEX, Long.toString(r.index()).getBytes(StandardCharsets.UTF_8)),
                new RecordHeader(MessageHeaders.PAGE, pageNumber),
            };
            ProducerRecord<byte[], byte[]> message = new ProducerRecord<>(r.topic(), null, null, r.key(), r.value(),
                    java.util.Arrays.asList(headers));
            int slot = at++;
            try {
                producer.send(message, (metadata, error) -> {
                    if (error != null) {
                        firstFailure.compareAndSet(null, failure(error, page, r));
                    } else {
                        acked[slot] = true;
                    }
                    // Failed only once every record is answered: the others may be published, and are counted.
                    if (pending.decrementAndGet() == 0) {
                        IngestException failed = firstFailure.get();
                        if (failed == null) {
                            done.complete(page);
                        } else {
                            done.completeExceptionally(new PartlyPublished(taken(page, acked), failed));
                        }
                    }
                });
            } catch (RuntimeException e) {
                // Not sent, nor the records after it; those sent before are answered as they come.
                firstFailure.compareAndSet(null, failure(e, page, r));
                if (pending.addAndGet(-(page.size() - slot)) == 0) {
                    done.completeExceptionally(new PartlyPublished(taken(page, acked), firstFailure.get()));
                }
                break;
            }
        }
        return done;
    }

    private static Page taken(Page page, boolean[] acked) {
        List<OutgoingRecord> taken = new ArrayList<>();
        long bytes = 0;
        for (int i = 0; i < acked.length; i++) {
            if (acked[i]) {
                OutgoingRecord r = page.records().get(i);
                taken.add(r);
                bytes += r.size();
            }
        }
        return taken.isEmpty() ? null : new Page(page.fileName(), page.fileId(), page.number(), taken, bytes);
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
