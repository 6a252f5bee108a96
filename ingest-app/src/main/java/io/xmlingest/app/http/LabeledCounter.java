package io.xmlingest.app.http;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentSkipListMap;

/** A counter family split by one label, such as records rejected per reason. */
public final class LabeledCounter {

    private final String name;
    // Sorted so that a scrape lists the series in the same order every time.
    private final ConcurrentSkipListMap<String, Counter> children = new ConcurrentSkipListMap<>();

    LabeledCounter(String name) {
        this.name = name;
    }

    /** The counter for one label value, created on first use; keep it rather than look it up per event. */
    public Counter labels(String value) {
        Objects.requireNonNull(value, () -> "label value of counter " + name);
        return children.computeIfAbsent(value, v -> new Counter());
    }

    Map<String, Counter> children() {
        return children;
    }
}
