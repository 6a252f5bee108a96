package io.xmlingest.app.worker;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CountedTest {

    @Test
    void oneIsSingularAndEveryOtherCountPlural() {
        assertThat(Counted.of(1, "dead letter")).isEqualTo("1 dead letter");
        assertThat(Counted.of(0, "dead letter")).isEqualTo("0 dead letters");
        assertThat(Counted.of(2_000_000, "record")).isEqualTo("2000000 records");
    }
}
