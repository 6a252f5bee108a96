package io.xmlingest.app.http;

import java.util.Map;
import java.util.function.Supplier;

/** Which path answers what; kept apart from the server so that it holds no sockets or threads. */
final class EndpointRouter {

    private final Map<String, Supplier<Response>> endpoints;

    EndpointRouter(Metrics metrics, Supplier<Health> health) {
        // Health is asked for on every probe, never cached: a probe must see the state of now.
        this.endpoints = Map.of(
                "/health", () -> {
                    Health now = health.get();
                    return fullHealth(now, now.up());
                },
                "/health/live", () -> {
                    Health now = health.get();
                    return new Response(status(now.live()), Response.JSON, HealthJson.liveness(now));
                },
                "/health/ready", () -> {
                    Health now = health.get();
                    return fullHealth(now, now.ready());
                },
                "/metrics", () -> new Response(200, Response.PROMETHEUS, metrics.scrape()));
    }

    Response route(String method, String path) {
        Supplier<Response> endpoint = endpoints.get(path);
        if (endpoint == null) {
            return Response.text(404, "nothing at " + path + "; try /health, /health/live, /health/ready or /metrics");
        }
        if (!method.equals("GET") && !method.equals("HEAD")) {
            return Response.text(405, method + " is not allowed on " + path + "; use GET or HEAD");
        }
        return endpoint.get();
    }

    private static Response fullHealth(Health health, boolean up) {
        return new Response(status(up), Response.JSON, HealthJson.full(health));
    }

    private static int status(boolean up) {
        return up ? 200 : 503;
    }
}
