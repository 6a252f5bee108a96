package io.xmlingest.app.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HttpEndpointsTest {

    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Metrics metrics = new Metrics();
    private final AtomicReference<Health> health = new AtomicReference<>(
            new Health(true, true, Map.of("kafka", "UP", "inbox", "UP")));
    private HttpEndpoints endpoints;

    @AfterEach
    void close() {
        if (endpoints != null) {
            endpoints.close();
        }
    }

    @ParameterizedTest(name = "live={0} ready={1}")
    @CsvSource({
        "true,  true,  200, 200, 200, UP",
        "true,  false, 503, 200, 503, DOWN",
        "false, true,  503, 503, 200, DOWN",
        "false, false, 503, 503, 503, DOWN",
    })
    void statusCodesFollowLivenessAndReadiness(boolean live, boolean ready,
            int healthCode, int liveCode, int readyCode, String status) throws Exception {
        Map<String, String> checks = new LinkedHashMap<>();
        checks.put("kafka", ready ? "UP" : "DOWN: no broker at localhost:9092");
        checks.put("inbox", "UP");
        health.set(new Health(live, ready, checks));
        start();

        HttpResponse<String> all = get("/health");
        assertThat(all.statusCode()).isEqualTo(healthCode);
        assertThat(all.headers().firstValue("Content-Type")).hasValue("application/json; charset=utf-8");
        JsonNode body = JSON.readTree(all.body());
        assertThat(body.get("status").asText()).isEqualTo(status);
        assertThat(body.get("live").asBoolean()).isEqualTo(live);
        assertThat(body.get("ready").asBoolean()).isEqualTo(ready);
        assertThat(body.get("checks").get("kafka").asText()).isEqualTo(checks.get("kafka"));
        assertThat(body.get("checks").get("inbox").asText()).isEqualTo("UP");

        HttpResponse<String> liveness = get("/health/live");
        assertThat(liveness.statusCode()).isEqualTo(liveCode);
        assertThat(liveness.body()).isEqualTo(live ? "{\"status\":\"UP\"}" : "{\"status\":\"DOWN\"}");

        HttpResponse<String> readiness = get("/health/ready");
        assertThat(readiness.statusCode()).isEqualTo(readyCode);
        assertThat(readiness.body()).isEqualTo(all.body());
    }

    @Test
    void healthJsonKeepsCheckOrderAndEscapesMessages() throws Exception {
        Map<String, String> checks = new LinkedHashMap<>();
        checks.put("kafka", "DOWN: \"Timed out\" at C:\\x\n\tcaused by \u0001");
        checks.put("inbox", "UP");
        health.set(new Health(true, false, checks));
        start();

        String body = get("/health").body();

        assertThat(body).isEqualTo("{\"status\":\"DOWN\",\"live\":true,\"ready\":false,\"checks\":{"
                + "\"kafka\":\"DOWN: \\\"Timed out\\\" at C:\\\\x\\n\\tcaused by \\u0001\",\"inbox\":\"UP\"}}");
        assertThat(JSON.readTree(body).get("checks").get("kafka").asText()).isEqualTo(checks.get("kafka"));
    }

    @Test
    void healthIsAskedForOnEveryProbe() throws Exception {
        start();
        assertThat(get("/health/ready").statusCode()).isEqualTo(200);

        health.set(new Health(true, false, Map.of("kafka", "DOWN: gone")));
        assertThat(get("/health/ready").statusCode()).isEqualTo(503);
    }

    @Test
    void metricsAreServedInThePrometheusTextFormat() throws Exception {
        metrics.counter("xmlingest_records_total", "Records published.").inc(12);
        start();

        HttpResponse<String> response = get("/metrics");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        assertThat(response.body()).isEqualTo(metrics.scrape()).contains("\nxmlingest_records_total 12\n");
    }

    @Test
    void anEmptyRegistryGivesAnEmptyBody() throws Exception {
        start();

        HttpResponse<String> response = get("/metrics");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEmpty();
    }

    @Test
    void headAnswersLikeGetWithoutABody() throws Exception {
        metrics.counter("xmlingest_records_total", "Records published.");
        start();

        HttpResponse<String> response = send("HEAD", "/metrics");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        assertThat(response.body()).isEmpty();
    }

    @Test
    void aPortInUseIsASettingToChangeNamedInOneLine() {
        start();
        int taken = endpoints.port();
        // Before, an UncheckedIOException: exit 1 and a 29-line stack trace.
        assertThatThrownBy(() -> HttpEndpoints.start("127.0.0.1", taken, metrics, health::get))
                .isInstanceOf(io.xmlingest.core.error.ConfigException.class)
                .hasMessageStartingWith("cannot listen for /health and /metrics on 127.0.0.1:" + taken + ": ")
                .hasMessageEndingWith("(setting: http.port)");
        // An address that is not this machine's: no port helps, so it is http.host's fault, not http.port's.
        assertThatThrownBy(() -> HttpEndpoints.start("192.0.2.1", 0, metrics, health::get))
                .isInstanceOf(io.xmlingest.core.error.ConfigException.class)
                .hasMessageStartingWith("cannot listen for /health and /metrics on 192.0.2.1:0: ")
                .hasMessageEndingWith("(setting: http.host)");
    }

    @Test
    void unknownPathsAreNotFound() throws Exception {
        start();

        for (String path : new String[] {"/", "/nope", "/health/", "/healthz", "/metrics/x", "/health/live/x"}) {
            assertThat(get(path).statusCode()).as(path).isEqualTo(404);
        }
        assertThat(send("POST", "/nope").statusCode()).isEqualTo(404);
    }

    @Test
    void otherMethodsAreNotAllowed() throws Exception {
        start();

        for (String method : new String[] {"POST", "PUT", "DELETE"}) {
            HttpResponse<String> response = send(method, "/metrics");
            assertThat(response.statusCode()).as(method).isEqualTo(405);
            assertThat(response.headers().firstValue("Allow")).hasValue("GET, HEAD");
        }
        assertThat(send("POST", "/health").statusCode()).isEqualTo(405);
    }

    @Test
    void aQueryStringDoesNotChangeTheEndpoint() throws Exception {
        start();

        assertThat(get("/health/live?verbose=1").statusCode()).isEqualTo(200);
    }

    @Test
    void aFailingHealthSupplierGivesAServerError() throws Exception {
        endpoints = HttpEndpoints.start("127.0.0.1", 0, metrics, () -> {
            throw new IllegalStateException("checker broke");
        });

        HttpResponse<String> response = get("/health");

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(response.body()).contains("/health").contains("checker broke");
    }

    @Test
    void aSlowScrapeDoesNotHoldUpHealthProbes() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch scraping = new CountDownLatch(1);
        metrics.gauge("slow", "A gauge that takes its time.", () -> {
            scraping.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return 1;
        });
        start();

        CompletableFuture<HttpResponse<String>> scrape = CLIENT.sendAsync(request("GET", "/metrics"),
                HttpResponse.BodyHandlers.ofString());
        assertThat(scraping.await(10, TimeUnit.SECONDS)).as("scrape started").isTrue();
        try {
            assertThat(get("/health/live").statusCode()).isEqualTo(200);
        } finally {
            release.countDown();
        }
        assertThat(scrape.get(10, TimeUnit.SECONDS).body()).contains("slow 1\n");
    }

    @Test
    void noThreadItStartsKeepsTheJvmAlive() throws Exception {
        Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
        start();
        get("/health");
        get("/metrics");

        Set<Thread> started = new HashSet<>(Thread.getAllStackTraces().keySet());
        started.removeAll(before);
        // The HTTP client's own threads are not ours to judge.
        started.removeIf(t -> t.getName().startsWith("HttpClient"));

        assertThat(started).isNotEmpty().allSatisfy(t -> assertThat(t.isDaemon()).as(t.getName()).isTrue());
    }

    @Test
    void closeStopsListeningAtOnce() throws Exception {
        start();
        int port = endpoints.port();
        assertThat(port).isPositive();

        long began = System.nanoTime();
        endpoints.close();
        endpoints = null;

        // Far above a close's milliseconds, so a loaded machine does not fail it; what it catches is a stop that waits
        // out a grace delay (HttpServer.stop(N) may wait all N seconds with nothing in flight).
        assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(Duration.ofSeconds(10));
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
                .timeout(Duration.ofSeconds(5)).build();
        assertThatThrownBy(() -> CLIENT.send(request, HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(IOException.class);
    }

    @Test
    void aPortInUseIsReportedWithTheAddress() {
        start();
        int taken = endpoints.port();

        assertThatThrownBy(() -> HttpEndpoints.start("127.0.0.1", taken, metrics, health::get))
                .hasMessageContaining("127.0.0.1:" + taken);
    }

    private void start() {
        endpoints = HttpEndpoints.start("127.0.0.1", 0, metrics, health::get);
    }

    private HttpResponse<String> get(String path) throws Exception {
        return send("GET", path);
    }

    private HttpResponse<String> send(String method, String path) throws Exception {
        return CLIENT.send(request(method, path), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest request(String method, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + endpoints.port() + path))
                .timeout(Duration.ofSeconds(10))
                .method(method, HttpRequest.BodyPublishers.noBody())
                .build();
    }
}
