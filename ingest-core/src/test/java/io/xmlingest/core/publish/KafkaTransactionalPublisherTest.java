package io.xmlingest.core.publish;

import static org.assertj.core.api.Assertions.assertThat;

import io.xmlingest.core.page.OutgoingRecord;
import io.xmlingest.core.page.Page;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** How long a step counts as waiting for Kafka, on a producer double whose acknowledgements the test hands out. */
class KafkaTransactionalPublisherTest {

    private static final long MILLI = TimeUnit.MILLISECONDS.toNanos(1);

    /** A producer whose commit waits until the test lets it go, acknowledging only what the test completes. */
    private static final class HeldCommitProducer extends MockProducer<byte[], byte[]> {
        final CountDownLatch committing = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        HeldCommitProducer() {
            super(false, null, new ByteArraySerializer(), new ByteArraySerializer());
        }

        @Override
        public void commitTransaction() {
            committing.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            super.commitTransaction();
        }
    }

    @Test
    void aStepWaitsOnlyForAsLongAsNothingIsAcknowledged() throws Exception {
        HeldCommitProducer producer = new HeldCommitProducer();
        producer.initTransactions();
        KafkaTransactionalPublisher publisher = new KafkaTransactionalPublisher(producer, () -> false, t -> { });
        assertThat(publisher.waitingNanos()).as("before any step").isZero();

        publisher.send(page(3));
        assertThat(publisher.waitingNanos()).as("after the send returned").isZero();

        Thread commit = new Thread(() -> publisher.commit(List.of()));
        commit.start();
        assertThat(producer.committing.await(10, TimeUnit.SECONDS)).isTrue();
        Thread.sleep(60);
        assertThat(publisher.waitingNanos()).as("nothing acknowledged yet").isGreaterThanOrEqualTo(60 * MILLI);

        // Each acknowledgement starts the wait afresh.
        long before = publisher.waitingNanos();
        assertThat(producer.completeNext()).isTrue();
        long after = publisher.waitingNanos();
        assertThat(after).isLessThan(before);
        Thread.sleep(60);
        long waited = publisher.waitingNanos();
        assertThat(waited).isGreaterThanOrEqualTo(60 * MILLI);
        assertThat(producer.completeNext()).isTrue();
        assertThat(publisher.waitingNanos()).isLessThan(waited);
        assertThat(producer.completeNext()).isTrue();
        Thread.sleep(60);
        assertThat(publisher.waitingNanos()).as("since the last acknowledgement").isGreaterThanOrEqualTo(60 * MILLI);

        producer.release.countDown();
        commit.join(10_000);
        assertThat(commit.isAlive()).isFalse();
        assertThat(publisher.waitingNanos()).as("after the commit returned").isZero();
        assertThat(producer.history()).hasSize(3);
    }

    /**
     * The wait is dated from the acknowledgement, not from the look that finds it: a first look long after the last
     * acknowledgement (a health probe every 30 s, a broker gone for 20) found new ones and said Kafka was up.
     */
    @Test
    void aFirstLookLongAfterTheLastAcknowledgementSeesTheWholeWait() throws Exception {
        HeldCommitProducer producer = new HeldCommitProducer();
        producer.initTransactions();
        KafkaTransactionalPublisher publisher = new KafkaTransactionalPublisher(producer, () -> false, t -> { });
        publisher.send(page(3));
        Thread commit = new Thread(() -> publisher.commit(List.of()));
        commit.start();
        assertThat(producer.committing.await(10, TimeUnit.SECONDS)).isTrue();
        for (int i = 0; i < 3; i++) {
            assertThat(producer.completeNext()).isTrue();
        }
        Thread.sleep(100);
        assertThat(publisher.waitingNanos()).as("the first look").isGreaterThanOrEqualTo(100 * MILLI);
        producer.release.countDown();
        commit.join(10_000);
        assertThat(commit.isAlive()).isFalse();
    }

    private static Page page(int records) {
        List<OutgoingRecord> out = new java.util.ArrayList<>();
        for (int i = 0; i < records; i++) {
            out.add(new OutgoingRecord(i, ("k" + i).getBytes(StandardCharsets.UTF_8), ("{\"i\":" + i + "}").getBytes(StandardCharsets.UTF_8), "t"));
        }
        return new Page("f.xml", "0".repeat(64), 0, out, 0);
    }
}
