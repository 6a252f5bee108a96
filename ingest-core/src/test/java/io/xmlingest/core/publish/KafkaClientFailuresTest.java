package io.xmlingest.core.publish;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.NoSuchFileException;
import org.apache.kafka.common.KafkaException;
import org.junit.jupiter.api.Test;

class KafkaClientFailuresTest {

    @Test
    void theReasonsLeaveOutKafkasWrappersAndSayEachCauseOnce() {
        Throwable notMade = new KafkaException("Failed to construct kafka producer",
                new KafkaException("Failed to create new NetworkClient",
                        new KafkaException("Failed to load SSL keystore /no/ts.p12 of type JKS",
                                new NoSuchFileException("/no/ts.p12"))));
        assertThat(KafkaClientFailures.failedToConstruct(notMade)).isTrue();
        assertThat(KafkaClientFailures.reasons(notMade))
                .isEqualTo("Failed to load SSL keystore /no/ts.p12 of type JKS (NoSuchFileException)");
    }

    @Test
    void aFailureThatIsNoWrapperLeadsItsReasons() {
        Throwable away = new KafkaException("Timed out waiting for a node", new java.io.IOException("refused"));
        assertThat(KafkaClientFailures.failedToConstruct(away)).isFalse();
        assertThat(KafkaClientFailures.reasons(away)).isEqualTo("Timed out waiting for a node: refused");
        assertThat(KafkaClientFailures.reasons(new KafkaException("Failed to construct kafka consumer")))
                .isEqualTo("org.apache.kafka.common.KafkaException: Failed to construct kafka consumer");
        assertThat(KafkaClientFailures.reasons(new org.apache.kafka.common.errors.WakeupException()))
                .isEqualTo("org.apache.kafka.common.errors.WakeupException");
    }
}
