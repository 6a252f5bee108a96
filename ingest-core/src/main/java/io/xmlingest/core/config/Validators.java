package io.xmlingest.core.config;

import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/** Reusable checks for {@link Setting} declarations; each returns null when the value is fine, else the reason. */
public final class Validators {
    private Validators() {
    }

    public static <N extends Number> Function<N, String> between(long min, long max) {
        return v -> v.longValue() < min || v.longValue() > max
                ? "must be between " + min + " and " + max : null;
    }

    public static Function<String, String> oneOf(String... allowed) {
        List<String> values = Arrays.asList(allowed);
        return v -> values.contains(v) ? null : "must be one of " + String.join(", ", values);
    }

    public static Function<String, String> notBlank() {
        return v -> v.isBlank() ? "must not be empty" : null;
    }

    public static Function<String, String> any() {
        return v -> null;
    }
}
