package io.xmlingest.core.publish;

import static org.assertj.core.api.Assertions.assertThat;

import io.xmlingest.core.error.FileFailedException;
import io.xmlingest.core.page.OutgoingRecord;
import io.xmlingest.core.page.Page;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** A page one record of which Kafka refuses, on a producer double whose answers the test gives. */
class KafkaPagePublisherTest {

    private final MockProducer<byte[], byte[]> producer =
            new MockProducer<>(false, null, new ByteArraySerializer(), new ByteArraySerializer());

    @Test
    void aPageFailsOnceEveryRecordIsAnsweredAndSaysWhatKafkaTookOfIt() {
        CompletableFuture<Page> done = new KafkaPagePublisher(producer).publish(page(4));
        assertThat(producer.completeNext()).isTrue();
        assertThat(producer.errorNext(new RecordTooLargeException(
                "The request included a message larger than the max message size the server will accept."))).isTrue();
        // Before, the page failed here, and the records after the refused one were published without being counted.
        assertThat(done).as("two records not answered yet").isNotDone();
        assertThat(producer.completeNext()).isTrue();
        assertThat(producer.completeNext()).isTrue();

        assertThat(done).isCompletedExceptionally();
        PartlyPublished partly = failure(done);
        assertThat(partly.taken()).get().extracting(Page::records).asList()
                .extracting(r -> ((OutgoingRecord) r).index()).containsExactly(0L, 2L, 3L);
        assertThat(partly.failure()).isInstanceOf(FileFailedException.class);
        // The broker's limit is the topic's: naming kafka.max.request.size sent people to the wrong setting.
        assertThat(partly.failure().getMessage()).contains("record of ", " bytes is too large for topic t: the broker "
                + "refused it (", "its limit is the topic's max.message.bytes", "record index 1");
        assertThat(partly.failure().settingKey()).isEmpty();
    }

    @Test
    void theProducersOwnLimitNamesItsSetting() {
        CompletableFuture<Page> done = new KafkaPagePublisher(producer).publish(page(1));
        producer.errorNext(new RecordTooLargeException("The message is 2000000 bytes when serialized which is larger "
                + "than 1048576, which is the value of the max.request.size configuration."));
        PartlyPublished partly = failure(done);
        assertThat(partly.taken()).isEmpty();
        assertThat(partly.failure().getMessage()).contains("is too large to publish");
        assertThat(partly.failure().settingKey()).contains("kafka.max.request.size");
    }

    /** The real producer reports a metadata or buffer timeout through the callback, on the caller's thread. */
    private static final class RefusingAtOnce extends MockProducer<byte[], byte[]> {
        final java.util.concurrent.atomic.AtomicInteger sends = new java.util.concurrent.atomic.AtomicInteger();
        final int refuseFrom;
        final boolean alsoThrow;

        RefusingAtOnce(int refuseFrom, boolean alsoThrow) {
            super(false, null, new ByteArraySerializer(), new ByteArraySerializer());
            this.refuseFrom = refuseFrom;
            this.alsoThrow = alsoThrow;
        }

        @Override
        public synchronized java.util.concurrent.Future<org.apache.kafka.clients.producer.RecordMetadata> send(
                org.apache.kafka.clients.producer.ProducerRecord<byte[], byte[]> record,
                org.apache.kafka.clients.producer.Callback callback) {
            if (sends.getAndIncrement() < refuseFrom) {
                return super.send(record, callback);
            }
            callback.onCompletion(null, new org.apache.kafka.common.errors.TimeoutException(
                    "Topic t not present in metadata after 60000 ms."));
            if (alsoThrow) {
                throw new org.apache.kafka.common.KafkaException("thrown as well, after the callback");
            }
            return java.util.concurrent.CompletableFuture.failedFuture(new IllegalStateException("refused"));
        }
    }

    @Test
    void aRecordRefusedAtOnceStopsThePageWithoutSendingTheRest() {
        RefusingAtOnce refusing = new RefusingAtOnce(0, false);
        CompletableFuture<Page> done = new KafkaPagePublisher(refusing).publish(page(5));
        // Before, the other four were sent too, each waiting out max.block.ms (a minute) to fail the same way.
        assertThat(refusing.sends).hasValue(1);
        PartlyPublished partly = failure(done);
        assertThat(partly.taken()).isEmpty();
        assertThat(partly.failure()).isInstanceOf(io.xmlingest.core.error.RetriableIngestException.class)
                .hasMessageContaining("record index 0");
    }

    @Test
    void aRecordAnsweredTwiceCountsOnceAndThePageWaitsForTheOthers() {
        RefusingAtOnce refusing = new RefusingAtOnce(1, true);
        CompletableFuture<Page> done = new KafkaPagePublisher(refusing).publish(page(3));
        assertThat(refusing.sends).hasValue(2);
        // Counted twice, the refused record had made the page look answered while record 0 was still in flight.
        assertThat(done).isNotDone();
        assertThat(refusing.completeNext()).isTrue();
        PartlyPublished partly = failure(done);
        assertThat(partly.taken()).get().extracting(Page::size).isEqualTo(1);
        assertThat(partly.failure()).hasMessageContaining("record index 1");
    }

    @Test
    void aPageEveryRecordOfWhichIsTakenCompletes() {
        CompletableFuture<Page> done = new KafkaPagePublisher(producer).publish(page(2));
        producer.completeNext();
        assertThat(done).isNotDone();
        producer.completeNext();
        assertThat(done.join().size()).isEqualTo(2);
    }

    private static PartlyPublished failure(CompletableFuture<Page> done) {
        try {
            done.join();
        } catch (CompletionException e) {
            assertThat(e.getCause()).isInstanceOf(PartlyPublished.class);
            return (PartlyPublished) e.getCause();
        }
        throw new AssertionError("the page did not fail");
    }

    private static Page page(int records) {
        List<OutgoingRecord> out = new ArrayList<>();
        long bytes = 0;
        for (int i = 0; i < records; i++) {
            OutgoingRecord r = new OutgoingRecord(i, ("k" + i).getBytes(StandardCharsets.UTF_8),
                    ("{\"i\":" + i + "}").getBytes(StandardCharsets.UTF_8), "t");
            out.add(r);
            bytes += r.size();
        }
        return new Page("f.xml", "0".repeat(64), 0, out, bytes);
    }
}
