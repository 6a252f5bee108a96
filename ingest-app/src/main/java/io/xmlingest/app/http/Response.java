package io.xmlingest.app.http;

/** An answer to one request, decided before any byte is written. */
record Response(int status, String contentType, String body) {

    static final String JSON = "application/json; charset=utf-8";
    static final String TEXT = "text/plain; charset=utf-8";
    static final String PROMETHEUS = "text/plain; version=0.0.4; charset=utf-8";

    static Response text(int status, String body) {
        return new Response(status, TEXT, body + "\n");
    }
}
