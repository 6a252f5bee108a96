package io.xmlingest.app.http;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What the worker says about itself: live (the process is not stuck; restart it if false) and
 * ready (it can take work now), with one line per dependency such as {@code "kafka" -> "DOWN: ..."}.
 *
 * @param checks kept in the caller's order, so the JSON reads the same on every probe
 */
public record Health(boolean live, boolean ready, Map<String, String> checks) {

    public Health {
        Objects.requireNonNull(checks, "checks");
        checks = Collections.unmodifiableMap(new LinkedHashMap<>(checks));
    }

    public boolean up() {
        return live && ready;
    }
}
