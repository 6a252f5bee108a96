package io.xmlingest.app.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.xmlingest.app.AppSettings;
import io.xmlingest.core.error.ConfigException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The worker's {@code /health}, {@code /health/live}, {@code /health/ready} and {@code /metrics}
 * over HTTP. Requests are answered on two threads of their own, so a slow scrape never holds up
 * the worker, and every thread is a daemon, so the endpoints never keep the JVM alive.
 */
public final class HttpEndpoints implements AutoCloseable {

    private static final int THREADS = 2;

    private final HttpServer server;
    private final ExecutorService executor;

    private HttpEndpoints(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /**
     * Listens and answers until closed.
     *
     * @param port 0 picks a free one; see {@link #port()}
     * @throws ConfigException if the address cannot be bound (naming http.port, or http.host when no port of it can)
     */
    public static HttpEndpoints start(String host, int port, Metrics metrics, Supplier<Health> health) {
        EndpointRouter router = new EndpointRouter(metrics, health);
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(host, port), 0);
        } catch (IOException e) {
            // Another port (or none) is the fix, so it is a setting's fault, reported before anything is done: the
            // host's, when no port of it can be listened on (it was put down to http.port).
            throw new ConfigException(listensOn(host) ? AppSettings.HTTP_PORT.key() : AppSettings.HTTP_HOST.key(),
                    "cannot listen for /health and /metrics on " + host + ":" + port + ": " + e.getMessage());
        }
        ExecutorService executor = Executors.newFixedThreadPool(THREADS, daemonThreads());
        server.setExecutor(executor);
        server.createContext("/", exchange -> answer(exchange, router));
        HttpEndpoints endpoints = new HttpEndpoints(server, executor);
        try {
            startOnDaemonThread(server, executor);
        } catch (RuntimeException e) {
            endpoints.close();
            throw e;
        }
        return endpoints;
    }

    /** Whether some port of {@code host} can be listened on: whether it is an address of this machine. */
    private static boolean listensOn(String host) {
        try (java.net.ServerSocket probe = new java.net.ServerSocket()) {
            probe.bind(new InetSocketAddress(host, 0));
            return true;
        } catch (IOException | IllegalArgumentException e) {
            return false;
        }
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** Stops at once: requests in flight are cut off, since nothing waits on them at shutdown. */
    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    // The JDK server's dispatcher thread inherits daemon status from the thread that calls
    // start() and offers no setting for it, so start() is called from one of our daemon threads.
    private static void startOnDaemonThread(HttpServer server, ExecutorService executor) {
        boolean interrupted = false;
        try {
            var started = executor.submit(server::start);
            while (true) {
                try {
                    started.get();
                    return;
                } catch (InterruptedException e) {
                    // Starting takes milliseconds; finish it rather than leave a half-started server.
                    interrupted = true;
                }
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("HTTP endpoints did not start: " + e.getCause(), e.getCause());
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void answer(HttpExchange exchange, EndpointRouter router) throws IOException {
        try {
            String path = exchange.getRequestURI().getPath();
            Response response;
            try {
                response = router.route(exchange.getRequestMethod(), path);
            } catch (RuntimeException e) {
                response = Response.text(500, "could not answer " + path + ": " + e);
            }
            send(exchange, response);
        } finally {
            exchange.close();
        }
    }

    private static void send(HttpExchange exchange, Response response) throws IOException {
        byte[] body = response.body().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", response.contentType());
        if (response.status() == 405) {
            exchange.getResponseHeaders().set("Allow", "GET, HEAD");
        }
        // To the JDK server a length of 0 means "chunked"; -1 means "no body", which is what an
        // empty body or any HEAD response is.
        boolean noBody = body.length == 0 || exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(response.status(), noBody ? -1 : body.length);
        if (!noBody) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    private static ThreadFactory daemonThreads() {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, "xmlingest-http-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
