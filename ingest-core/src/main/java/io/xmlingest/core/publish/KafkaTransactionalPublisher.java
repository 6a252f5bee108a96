package io.xmlingest.core.publish;

import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.FileFailedException;
import io.xmlingest.core.error.RetriableIngestException;
import io.xmlingest.core.page.OutgoingRecord;
import io.xmlingest.core.page.Page;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * One Kafka transaction per commit: the pages' records, sent as each page closes, then the
 * messages that go with them (dead letters, status events, the checkpoint). The producer's
 * transactional id is stable per worker, so a restarted worker fences its crashed predecessor and
 * aborts whatever that one left open: a consumer reading committed data never sees half a page.
 */
public final class KafkaTransactionalPublisher implements TransactionalPublisher {

    private final Producer<byte[], byte[]> producer;
    private final BooleanSupplier giveUp;
    private final Consumer<String> trouble;
    private final AtomicReference<Failure> failure = new AtomicReference<>();
    private boolean spent;
    private boolean open;
    /** System.nanoTime when the step in progress began; 0 when none is. */
    private volatile long stepSince;
    /**
     * System.nanoTime of the last acknowledgement, 0 before the first, written on the producer's own
     * thread as each comes: a clock read there costs some 20 ns a record. Dated instead by the look
     * that found new acknowledgements, a first look long into an outage saw progress "now" and said
     * Kafka was up; dated only at every 16th, acknowledgements that came slowly looked like none.
     */
    private volatile long progressAt;

    /**
     * @param producer          a transactional producer whose transactions are initialised
     * @param giveUp            checked between attempts at a commit that timed out: true stops retrying
     * @param trouble           told why a commit is being retried, and null once it succeeds
     */
    public KafkaTransactionalPublisher(Producer<byte[], byte[]> producer, BooleanSupplier giveUp,
                                       Consumer<String> trouble) {
        this.producer = producer;
        this.giveUp = giveUp;
        this.trouble = trouble;
    }

    @Override
    public void send(Page page) {
        attempt(() -> {
            begin();
            sendRecords(page);
        });
    }

    @Override
    public void commit(List<Envelope> with) {
        attempt(() -> {
            begin();
            for (Envelope e : with) {
                List<Header> headers = new ArrayList<>(e.headers().size());
                for (Map.Entry<String, String> h : e.headers().entrySet()) {
                    headers.add(new RecordHeader(h.getKey(), h.getValue().getBytes(StandardCharsets.UTF_8)));
                }
                // A dead letter Kafka can never take (a topic with a smaller max.message.bytes) fails its file
                // like a record would; as a Kafka outage it was retried for ever. Status events, checkpoints and
                // work orders are small, and sharing workers do not expect their commits to fail a file.
                String index = e.headers().get(MessageHeaders.RECORD_INDEX);
                String fileName = index == null ? null : e.headers().get(MessageHeaders.FILE);
                long recordIndex = index == null ? -1 : Long.parseLong(index);
                long size = (e.key() == null ? 0 : e.key().length) + (e.value() == null ? 0 : e.value().length);
                producer.send(new ProducerRecord<>(e.topic(), e.partition(), null, e.key(), e.value(), headers),
                        (m, error) -> {
                            if (error != null) {
                                failure.compareAndSet(null, new Failure(error, fileName, recordIndex, size, e.topic()));
                            } else {
                                acknowledged();
                            }
                        });
            }
            commitWithRetry();
            open = false;
            failure.set(null);
        });
    }

    private void begin() {
        if (spent) {
            // Kafka's trouble (an abort that failed after a refused record): retried on a new session, like any other,
            // rather than stopping the worker as an error of its own, to be counted against the file in hand.
            throw new RetriableIngestException("the Kafka session failed before (aborting a transaction); opening "
                    + "a new one", null, null, null);
        }
        if (!open) {
            producer.beginTransaction();
            open = true;
        }
    }

    /**
     * Runs a step of the transaction. A record Kafka can never take fails its file and aborts the
     * transaction, and the publisher can go on; anything else spends the publisher.
     */
    private void attempt(Runnable step) {
        stepSince = System.nanoTime();
        try {
            step.run();
        } catch (KafkaException e) {
            Failure f = failure.get();
            Exception cause = f != null ? f.error : e;
            if (cause instanceof RecordTooLargeException && f != null && f.fileName != null) {
                abortQuietly();
                failure.set(null);
                boolean broker = RecordTooLarge.byTheBroker(cause);
                throw new FileFailedException("message of " + f.size + " bytes to " + f.topic + " is too large"
                        + (broker ? ": " + RecordTooLarge.brokerLimit(cause) : " to publish: " + cause.getMessage()),
                        ErrorLocation.ofFile(f.fileName).withRecordIndex(f.recordIndex),
                        broker ? null : IngestSettings.MAX_REQUEST_SIZE.key(), cause);
            }
            spent = true;
            throw new RetriableIngestException("committing to Kafka failed: " + cause, null, null, cause);
        } finally {
            stepSince = 0;
        }
    }

    /**
     * Measured from the step's start or from the last acknowledgement (see {@link #progressAt}),
     * whichever is later: a stall is seen after this long without an acknowledgement, whenever it is
     * looked at.
     */
    @Override
    public long waitingNanos() {
        long since = stepSince;
        if (since == 0) {
            return 0;
        }
        long now = System.nanoTime();
        long progress = progressAt;
        // nanoTime is compared by differences only: its values may be negative.
        long from = progress != 0 && progress - since > 0 ? progress : since;
        return Math.max(1, now - from);
    }

    private void acknowledged() {
        long now = System.nanoTime();
        progressAt = now == 0 ? 1 : now;
    }

    /**
     * A commit that timed out may still complete, so it is retried on the same producer, as
     * Kafka documents, for as long as Kafka is away (the producer's batches never expire either).
     * Giving up on the producer and opening a new one instead was seen, after a broker restart, to
     * leave a batch of the abandoned transaction to be committed by its successor: a page twice.
     */
    private void commitWithRetry() {
        while (true) {
            try {
                producer.commitTransaction();
                trouble.accept(null);
                return;
            } catch (TimeoutException e) {
                if (giveUp.getAsBoolean()) {
                    throw e;
                }
                trouble.accept("a commit is waiting for Kafka: " + e.getMessage());
            }
        }
    }

    /** The callbacks keep the index and size of a record, not its bytes, which are free to go once sent. */
    private void sendRecords(Page page) {
        String fileName = page.fileName();
        byte[] file = fileName.getBytes(StandardCharsets.UTF_8);
        byte[] fileId = page.fileId().getBytes(StandardCharsets.UTF_8);
        byte[] pageNumber = Long.toString(page.number()).getBytes(StandardCharsets.UTF_8);
        for (OutgoingRecord r : page.records()) {
            List<Header> headers = List.of(
                    new RecordHeader(MessageHeaders.FILE, file),
                    new RecordHeader(MessageHeaders.FILE_ID, fileId),
                    new RecordHeader(MessageHeaders.RECORD_INDEX, Long.toString(r.index()).getBytes(StandardCharsets.UTF_8)),
                    new RecordHeader(MessageHeaders.PAGE, pageNumber));
            long index = r.index();
            long size = r.size();
            producer.send(new ProducerRecord<>(r.topic(), null, null, r.key(), r.value(), headers), (m, error) -> {
                if (error != null) {
                    failure.compareAndSet(null, new Failure(error, fileName, index, size, r.topic()));
                } else {
                    acknowledged();
                }
            });
        }
    }

    /** The first send of the open transaction that failed, and the record it carried, if any. */
    private record Failure(Exception error, String fileName, long recordIndex, long size, String topic) {
    }

    private void abortQuietly() {
        try {
            producer.abortTransaction();
        } catch (KafkaException e) {
            spent = true;
        }
        open = false;
    }

    /**
     * Waits a while for requests in flight even when this publisher failed: a request of an
     * abandoned transaction should be answered or refused before a successor begins its own.
     */
    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }
}
