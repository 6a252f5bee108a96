package io.xmlingest.core.config;

import io.xmlingest.core.error.ConfigException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Effective settings: immutable, every value parsed and validated. Sources are layered with
 * command-line flags over environment variables over a config file over the declared defaults.
 */
public final class IngestConfig {

    /** Where an effective value came from, in precedence order (highest first). */
    public enum Source { FLAG, ENVIRONMENT, FILE, DEFAULT }

    private final Map<String, Setting<?>> declared;
    private final Map<String, Object> values;
    private final Map<String, Source> sources;

    private IngestConfig(Map<String, Setting<?>> declared, Map<String, Object> values, Map<String, Source> sources) {
        this.declared = declared;
        this.values = values;
        this.sources = sources;
    }

    /**
     * Resolves the declared settings from the given layers. Keys not declared are an error that
     * names the key (a misspelt setting must not be ignored).
     *
     * @param env the process environment; only XMLINGEST_* variables are read
     */
    public static IngestConfig resolve(Collection<Setting<?>> settings, Map<String, String> flags,
                                       Map<String, String> env, Map<String, String> file) {
        Map<String, Setting<?>> declared = new LinkedHashMap<>();
        settings.forEach(s -> declared.put(s.key(), s));
        Map<String, Setting<?>> byEnv = new LinkedHashMap<>();
        settings.forEach(s -> byEnv.put(s.envVar(), s));
        rejectUnknown(declared, flags.keySet(), "flag");
        rejectUnknown(declared, file.keySet(), "config file key");
        for (String name : env.keySet()) {
            if (name.startsWith("XMLINGEST_") && !byEnv.containsKey(name)) {
                throw new ConfigException(name, "unknown environment variable " + name
                        + "; known: " + String.join(", ", byEnv.keySet()));
            }
        }
        Map<String, Object> values = new LinkedHashMap<>();
        Map<String, Source> sources = new LinkedHashMap<>();
        for (Setting<?> s : settings) {
            String raw;
            Source source;
            if (flags.containsKey(s.key())) {
                raw = flags.get(s.key());
                source = Source.FLAG;
            } else if (env.containsKey(s.envVar())) {
                raw = env.get(s.envVar());
                source = Source.ENVIRONMENT;
            } else if (file.containsKey(s.key())) {
                raw = file.get(s.key());
                source = Source.FILE;
            } else {
                source = Source.DEFAULT;
                raw = null;
            }
            if (raw != null) {
                values.put(s.key(), s.parse(raw));
            } else if (s.defaultValue().isPresent()) {
                values.put(s.key(), s.defaultValue().get());
            }
            sources.put(s.key(), source);
        }
        return new IngestConfig(Collections.unmodifiableMap(declared), Collections.unmodifiableMap(values),
                Collections.unmodifiableMap(sources));
    }

    /** Only flags and defaults: for tests and embedding. */
    public static IngestConfig of(Collection<Setting<?>> settings, Map<String, String> flags) {
        return resolve(settings, flags, Map.of(), Map.of());
    }

    /** The value of a declared setting; a required setting without a value is an error naming it. */
    public <T> T get(Setting<T> setting) {
        if (!declared.containsKey(setting.key())) {
            throw new IllegalArgumentException(setting.key() + " is not declared in this configuration");
        }
        @SuppressWarnings("unchecked")
        T value = (T) values.get(setting.key());
        if (value == null) {
            throw new ConfigException(setting.key(), "missing required setting " + setting.key()
                    + " (flag, environment variable " + setting.envVar() + " or config file)");
        }
        return value;
    }

    public <T> Optional<T> find(Setting<T> setting) {
        @SuppressWarnings("unchecked")
        T value = (T) values.get(setting.key());
        return Optional.ofNullable(value);
    }

    public Source sourceOf(Setting<?> setting) {
        return sources.get(setting.key());
    }

    /** A copy with one more layer of flags on top; the result is validated like the original. */
    public IngestConfig with(Map<String, String> flags) {
        Map<String, String> merged = new LinkedHashMap<>();
        for (Setting<?> s : declared.values()) {
            if (values.containsKey(s.key()) && sources.get(s.key()) != Source.DEFAULT) {
                merged.put(s.key(), format(s));
            }
        }
        merged.putAll(flags);
        return of(declared.values(), merged);
    }

    private <T> String format(Setting<T> s) {
        @SuppressWarnings("unchecked")
        T value = (T) values.get(s.key());
        return s.format(value);
    }

    private static void rejectUnknown(Map<String, Setting<?>> declared, Collection<String> keys, String what) {
        List<String> unknown = new ArrayList<>();
        for (String k : keys) {
            if (!declared.containsKey(k)) {
                unknown.add(k);
            }
        }
        if (!unknown.isEmpty()) {
            String k = unknown.get(0);
            throw new ConfigException(k, "unknown " + what + " " + k + closest(k, declared.keySet()));
        }
    }

    private static String closest(String key, Collection<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : known) {
            int d = distance(key, candidate);
            if (d < bestDistance) {
                bestDistance = d;
                best = candidate;
            }
        }
        return best != null && bestDistance <= Math.max(2, key.length() / 3) ? "; did you mean " + best + "?" : "";
    }

    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
