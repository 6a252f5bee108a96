package io.xmlingest.app.http;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The worker's metrics, rendered in the Prometheus text format (0.0.4) on each scrape. Counters
 * are updated by the worker as things happen; gauges are read from their suppliers only when
 * scraped, so they cost nothing between scrapes. Registration is rare and locks; updates never do.
 */
public final class Metrics {

    private static final Pattern METRIC_NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

    private record Family(String name, String help, String type, Consumer<ExpositionWriter> samples) {
    }

    private final Map<String, Family> families = new LinkedHashMap<>();

    /** @param name must end with {@code _total}, as Prometheus names counters */
    public Counter counter(String name, String help) {
        Counter counter = new Counter();
        register(counterName(name), help, "counter", out -> out.sample(name, counter.value()));
        return counter;
    }

    /** A counter per value of one label; see {@link LabeledCounter#labels}. */
    public LabeledCounter counter(String name, String help, String labelName) {
        LabeledCounter counter = new LabeledCounter(name);
        String label = labelName(name, labelName);
        register(counterName(name), help, "counter", out -> counter.children()
                .forEach((value, child) -> out.sample(name, label, value, child.value())));
        return counter;
    }

    /** A value read at scrape time, such as the number of files waiting in the inbox. */
    public void gauge(String name, String help, DoubleSupplier value) {
        Objects.requireNonNull(value, () -> "supplier of gauge " + name);
        register(name, help, "gauge", out -> out.sample(name, read(name, value::getAsDouble)));
    }

    /**
     * Values per label read at scrape time, such as the progress of each file in flight; a label
     * value missing from the map has no series in that scrape.
     */
    public void gauge(String name, String help, String labelName, Supplier<Map<String, Double>> values) {
        Objects.requireNonNull(values, () -> "supplier of gauge " + name);
        String label = labelName(name, labelName);
        register(name, help, "gauge", out -> {
            // Sorted, as the supplier's map may be a HashMap whose order changes from scrape to scrape.
            Map<String, Double> series = new TreeMap<>(read(name, values));
            series.forEach((value, sample) -> out.sample(name, label, value, Objects.requireNonNull(
                    sample, () -> "gauge " + name + " has no value for " + label + "=" + value)));
        });
    }

    /** Every metric in registration order, as the body of a {@code /metrics} response. */
    public String scrape() {
        List<Family> snapshot;
        synchronized (families) {
            snapshot = new ArrayList<>(families.values());
        }
        // Rendered outside the lock: a slow gauge must not hold up a registration.
        ExpositionWriter out = new ExpositionWriter();
        for (Family family : snapshot) {
            out.header(family.name(), family.help(), family.type());
            family.samples().accept(out);
        }
        return out.text();
    }

    private void register(String name, String help, String type, Consumer<ExpositionWriter> samples) {
        Objects.requireNonNull(help, () -> "help of metric " + name);
        if (name == null || !METRIC_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("metric name '" + name + "' must match " + METRIC_NAME);
        }
        synchronized (families) {
            if (families.containsKey(name)) {
                throw new IllegalArgumentException("metric '" + name + "' is already registered (as a "
                        + families.get(name).type() + ")");
            }
            families.put(name, new Family(name, help, type, samples));
        }
    }

    private static String counterName(String name) {
        if (name != null && !name.endsWith("_total")) {
            throw new IllegalArgumentException("counter name '" + name + "' must end with _total");
        }
        return name;
    }

    private static String labelName(String metric, String label) {
        // Names starting with __ are reserved for Prometheus itself.
        if (label == null || !LABEL_NAME.matcher(label).matches() || label.startsWith("__")) {
            throw new IllegalArgumentException("label name '" + label + "' of metric '" + metric
                    + "' must match " + LABEL_NAME + " and not start with __");
        }
        return label;
    }

    private static <T> T read(String name, Supplier<T> supplier) {
        try {
            return supplier.get();
        } catch (RuntimeException e) {
            throw new IllegalStateException("gauge " + name + " could not be read: " + e, e);
        }
    }
}
