package io.xmlingest.app.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MetricsTest {

    private final Metrics metrics = new Metrics();

    // Format: exactly what Prometheus expects to read.

    @Test
    void anEmptyRegistryScrapesToNothing() {
        assertThat(metrics.scrape()).isEmpty();
    }

    @Test
    void everyKindRendersHelpTypeAndSamplesInRegistrationOrder() {
        Counter files = metrics.counter("xmlingest_files_total", "Files ingested.");
        LabeledCounter rejected = metrics.counter("xmlingest_records_rejected_total", "Records rejected.", "reason");
        metrics.gauge("xmlingest_inbox_files", "Files waiting in the inbox.", () -> 3);
        metrics.gauge("xmlingest_file_progress_ratio", "Share of each file in flight read so far.", "file",
                () -> Map.of("b.xml", 0.25, "a.xml", 0.5));
        files.inc(2);
        rejected.labels("too_large").inc();
        rejected.labels("bad_decimal").inc(4);

        assertThat(metrics.scrape()).isEqualTo("""
                # HELP xmlingest_files_total Files ingested.
                # TYPE xmlingest_files_total counter
                xmlingest_files_total 2
                # HELP xmlingest_records_rejected_total Records rejected.
                # TYPE xmlingest_records_rejected_total counter
                xmlingest_records_rejected_total{reason="bad_decimal"} 4
                xmlingest_records_rejected_total{reason="too_large"} 1
                # HELP xmlingest_inbox_files Files waiting in the inbox.
                # TYPE xmlingest_inbox_files gauge
                xmlingest_inbox_files 3
                # HELP xmlingest_file_progress_ratio Share of each file in flight read so far.
                # TYPE xmlingest_file_progress_ratio gauge
                xmlingest_file_progress_ratio{file="a.xml"} 0.5
                xmlingest_file_progress_ratio{file="b.xml"} 0.25
                """);
    }

    @Test
    void aLabeledFamilyWithNoSeriesYetStillHasItsHeader() {
        metrics.counter("xmlingest_retries_total", "Retries.", "cause");

        assertThat(metrics.scrape()).isEqualTo("""
                # HELP xmlingest_retries_total Retries.
                # TYPE xmlingest_retries_total counter
                """);
    }

    @Test
    void labelValuesEscapeBackslashQuoteAndNewline() {
        metrics.counter("odd_total", "Odd labels.", "file").labels("C:\\in\\\"x\".xml\nnext").inc();

        assertThat(metrics.scrape()).contains("odd_total{file=\"C:\\\\in\\\\\\\"x\\\".xml\\nnext\"} 1\n");
    }

    @Test
    void helpEscapesBackslashAndNewlineButNotQuotes() {
        metrics.gauge("g", "a \"quoted\" C:\\path\nsecond line", () -> 1);

        assertThat(metrics.scrape()).startsWith("# HELP g a \"quoted\" C:\\\\path\\nsecond line\n# TYPE g gauge\n");
    }

    @Test
    void valuesAreSpelledAsPrometheusReadsThem() {
        List<Double> values = List.of(0.0, 42.0, -3.0, 0.75, 1e-4, Double.NaN,
                Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1e300);
        List<String> spelled = new ArrayList<>();
        for (double value : values) {
            spelled.add(ExpositionWriter.format(value));
        }
        assertThat(spelled).containsExactly("0", "42", "-3", "0.75", "1.0E-4", "NaN", "+Inf", "-Inf", "1.0E300");
    }

    @Test
    void gaugesAreReadAtEachScrape() {
        double[] inbox = {1};
        metrics.gauge("inbox_files", "Inbox.", () -> inbox[0]);
        assertThat(metrics.scrape()).endsWith("inbox_files 1\n");

        inbox[0] = 7;
        assertThat(metrics.scrape()).endsWith("inbox_files 7\n");
    }

    @Test
    void labeledGaugeSeriesFollowTheSuppliedMap() {
        Map<String, Double> inFlight = new LinkedHashMap<>(Map.of("a.xml", 0.1));
        metrics.gauge("progress", "Progress.", "file", () -> inFlight);
        assertThat(metrics.scrape()).contains("progress{file=\"a.xml\"} 0.1\n");

        inFlight.clear();
        assertThat(metrics.scrape()).doesNotContain("a.xml");
    }

    // Counting: exact under contention, and never down.

    @Test
    void wholeAndFractionalAmountsAddUp() {
        Counter seconds = metrics.counter("busy_seconds_total", "Seconds busy.");
        seconds.add(0.25);
        seconds.add(0.5);
        seconds.inc();

        assertThat(seconds.value()).isEqualTo(1.75);
        assertThat(metrics.scrape()).endsWith("busy_seconds_total 1.75\n");
    }

    @Test
    void countersAccumulateAcrossThreads() throws Exception {
        Counter records = metrics.counter("records_total", "Records.");
        LabeledCounter pages = metrics.counter("pages_total", "Pages.", "topic");
        int threads = 8;
        int perThread = 20_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            done.add(pool.submit(() -> {
                go.await();
                for (int i = 0; i < perThread; i++) {
                    records.inc();
                    // Looked up each time on purpose: first use races between threads.
                    pages.labels("persons").inc();
                }
                return null;
            }));
        }
        go.countDown();
        for (Future<?> f : done) {
            f.get(30, TimeUnit.SECONDS);
        }
        pool.shutdown();

        assertThat(records.value()).isEqualTo(threads * perThread);
        assertThat(pages.labels("persons").value()).isEqualTo(threads * perThread);
        assertThat(metrics.scrape()).contains("pages_total{topic=\"persons\"} 160000\n");
    }

    @Test
    void aLabelValueAlwaysGivesTheSameCounter() {
        LabeledCounter rejected = metrics.counter("rejected_total", "Rejected.", "reason");

        assertThat(rejected.labels("x")).isSameAs(rejected.labels("x")).isNotSameAs(rejected.labels("y"));
    }

    @Test
    void countersNeverGoDown() {
        Counter c = metrics.counter("c_total", "C.");

        assertThatThrownBy(() -> c.inc(-1)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
        assertThatThrownBy(() -> c.add(-0.5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> c.add(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThat(c.value()).isZero();
    }

    // Validation: mistakes fail at registration, with the offending name.

    @Test
    void counterNamesMustEndWithTotal() {
        assertThatThrownBy(() -> metrics.counter("xmlingest_files", "Files."))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("xmlingest_files").hasMessageContaining("_total");
        assertThatThrownBy(() -> metrics.counter("xmlingest_files", "Files.", "topic"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "1up_total", "has-dash_total", "has space_total", "ünicode_total"})
    void metricNamesMustMatchTheFormat(String name) {
        assertThatThrownBy(() -> metrics.counter(name, "Help."))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'" + name + "'");
        assertThatThrownBy(() -> metrics.gauge(name, "Help.", () -> 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void colonsAndUnderscoresAreAllowedAnywhereInANameTheFormatAllows() {
        metrics.gauge(":a_b:c9", "Help.", () -> 0);
        metrics.counter("_x_total", "Help.");

        assertThat(metrics.scrape()).contains(":a_b:c9 0\n", "_x_total 0\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "1st", "has-dash", "__reserved", "with:colon"})
    void labelNamesMustMatchTheFormat(String label) {
        assertThatThrownBy(() -> metrics.counter("c_total", "Help.", label))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'" + label + "'");
        assertThatThrownBy(() -> metrics.gauge("g", "Help.", label, Map::of))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aNameCanBeRegisteredOnlyOnceWhateverItsKind() {
        metrics.counter("files_total", "Files.");

        assertThatThrownBy(() -> metrics.counter("files_total", "Again."))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("files_total");
        assertThatThrownBy(() -> metrics.counter("files_total", "Again.", "topic"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> metrics.gauge("files_total", "Again.", () -> 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("counter");
        assertThat(metrics.scrape()).contains("# HELP files_total Files.\n").doesNotContain("Again.");
    }

    @Test
    void aGaugeThatFailsIsNamedInTheError() {
        metrics.gauge("broken", "Broken.", () -> {
            throw new IllegalStateException("inbox gone");
        });

        assertThatThrownBy(metrics::scrape)
                .hasMessageContaining("broken").hasMessageContaining("inbox gone");
    }
}
