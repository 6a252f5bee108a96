package io.xmlingest.core.config;

import io.xmlingest.core.error.ConfigException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Effective settings: immutable, every value parsed and validated. Sources are layered with
 * command-line flags over environment variables over a config file over the declared defaults;
 * for a family of settings ({@link Setting#family}), key by key.
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
     * names the key (a misspelt setting must not be ignored); a key under a family's prefix is a
     * member of that family, checked by it.
     *
     * @param env the process environment; only XMLINGEST_* variables are read
     */
    public static IngestConfig resolve(Collection<Setting<?>> settings, Map<String, String> flags,
                                       Map<String, String> env, Map<String, String> file) {
        Map<String, Setting<?>> declared = new LinkedHashMap<>();
        settings.forEach(s -> declared.put(s.key(), s));
        List<Setting<?>> families = settings.stream().filter(Setting::isFamily).toList();
        for (Setting<?> s : settings) {
            Optional<Setting<?>> shadowing = families.stream().filter(f -> f.member(s.key()).isPresent()).findFirst();
            if (shadowing.isPresent()) {
                throw new IllegalStateException(s.key() + " is declared under the family " + shadowing.get().key());
            }
        }
        Map<String, Setting<?>> byEnv = new LinkedHashMap<>();
        settings.stream().filter(s -> !s.isFamily()).forEach(s -> byEnv.put(s.envVar(), s));
        rejectUnknown(declared, families, flags.keySet(), "setting");
        rejectUnknown(declared, families, file.keySet(), "config file key");
        for (String name : env.keySet()) {
            if (name.startsWith("XMLINGEST_") && !byEnv.containsKey(name)
                    && families.stream().noneMatch(f -> f.memberOfEnvVar(name).isPresent())) {
                for (Map.Entry<String, String> r : RENAMED.entrySet()) {
                    if (Setting.envVarOf(r.getKey()).equals(name)) {
                        throw new ConfigException(r.getValue(), "environment variable " + name + " was renamed "
                                + Setting.envVarOf(r.getValue()) + " (setting " + r.getValue() + "): use that name");
                    }
                }
                // The whole list ran past the length a reason keeps, so it was cut off mid-list.
                String near = closest(name, byEnv.keySet());
                throw new ConfigException(name, "unknown environment variable " + name + (near.isEmpty()
                        ? "; each setting's variable is in the table 'config --doc' prints" + families.stream()
                                .map(f -> ", and " + f.documentedEnvVar() + " passes " + f.key())
                                .collect(Collectors.joining()) : near));
            }
        }
        Map<String, Object> values = new LinkedHashMap<>();
        Map<String, Source> sources = new LinkedHashMap<>();
        for (Setting<?> s : settings) {
            if (s.isFamily()) {
                resolveFamily(s, flags, env, file, values, sources);
                continue;
            }
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
                try {
                    values.put(s.key(), s.parse(raw));
                } catch (ConfigException e) {
                    // A value from the environment or a file is not in sight on the command line: say where it is.
                    throw source == Source.FLAG ? e : new ConfigException(s.key(), e.reason() + " (from "
                            + (source == Source.ENVIRONMENT ? "the environment variable " + s.envVar() : "the --config file")
                            + ")");
                }
            } else if (s.defaultValue().isPresent()) {
                values.put(s.key(), s.defaultValue().get());
            }
            sources.put(s.key(), source);
        }
        return new IngestConfig(Collections.unmodifiableMap(declared), Collections.unmodifiableMap(values),
                Collections.unmodifiableMap(sources));
    }

    /**
     * Each member of a family takes its value from the highest layer that has it; members are
     * recorded with their own source under their full key, the family under its prefix with the
     * highest source of any member.
     */
    private static void resolveFamily(Setting<?> family, Map<String, String> flags, Map<String, String> env,
                                      Map<String, String> file, Map<String, Object> values, Map<String, Source> sources) {
        Map<String, String> members = new TreeMap<>();
        Map<String, Source> memberSources = new TreeMap<>();
        file.forEach((k, v) -> family.member(k).ifPresent(m -> {
            members.put(m, family.parseMember(m, v, "config file"));
            memberSources.put(m, Source.FILE);
        }));
        env.forEach((k, v) -> family.memberOfEnvVar(k).ifPresent(m -> {
            members.put(m, family.parseMember(m, v, "environment variable " + k));
            memberSources.put(m, Source.ENVIRONMENT);
        }));
        flags.forEach((k, v) -> family.member(k).ifPresent(m -> {
            members.put(m, family.parseMember(m, v, "flag"));
            memberSources.put(m, Source.FLAG);
        }));
        values.put(family.key(), Collections.unmodifiableMap(members));
        memberSources.forEach((m, source) -> sources.put(family.key() + m, source));
        sources.put(family.key(), memberSources.values().stream().min(Comparator.naturalOrder()).orElse(Source.DEFAULT));
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

    /** Shown instead of a secret value, as Kafka's clients show their passwords. */
    public static final String HIDDEN = "[hidden]";

    /** One effective setting as it may be printed: secrets are already {@link #HIDDEN}. */
    public record Shown(String key, String text, Source source) {
    }

    /**
     * Every effective value as text, in declaration order, with where it came from; each member of
     * a family on its own line, and secret values hidden. What any printout of settings should use.
     */
    public List<Shown> shown() {
        List<Shown> out = new ArrayList<>();
        for (Setting<?> s : declared.values()) {
            if (s.isFamily()) {
                @SuppressWarnings("unchecked")
                Map<String, String> members = (Map<String, String>) values.get(s.key());
                members.forEach((m, v) -> out.add(new Shown(s.key() + m, s.isSecret(m) ? HIDDEN : v,
                        sources.get(s.key() + m))));
            } else {
                out.add(new Shown(s.key(), values.containsKey(s.key()) ? format(s) : "(not set)", sources.get(s.key())));
            }
        }
        return out;
    }

    /** A copy with one more layer of flags on top; the result is validated like the original. */
    public IngestConfig with(Map<String, String> flags) {
        Map<String, String> merged = new LinkedHashMap<>();
        for (Setting<?> s : declared.values()) {
            if (s.isFamily()) {
                @SuppressWarnings("unchecked")
                Map<String, String> members = (Map<String, String>) values.get(s.key());
                members.forEach((m, v) -> merged.put(s.key() + m, v));
            } else if (values.containsKey(s.key()) && sources.get(s.key()) != Source.DEFAULT) {
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

    private static void rejectUnknown(Map<String, Setting<?>> declared, List<Setting<?>> families,
                                      Collection<String> keys, String what) {
        List<String> unknown = new ArrayList<>();
        for (String k : keys) {
            if (!declared.containsKey(k) && families.stream().noneMatch(f -> f.member(k).isPresent())) {
                unknown.add(k);
            }
        }
        if (!unknown.isEmpty()) {
            String k = unknown.get(0);
            if (RENAMED.containsKey(k)) {
                throw new ConfigException(k, what + " " + k + " was renamed " + RENAMED.get(k) + ": use that name");
            }
            throw new ConfigException(k, "unknown " + what + " " + k + closest(k, declared.keySet()));
        }
    }

    /**
     * Settings that had another name, old to new: a deployment configured with the old name is
     * told the new one, not only that the old is unknown.
     */
    static final Map<String, String> RENAMED = Map.of("file.gzip.max.bytes", "file.decompressed.max.bytes");

    /** "; did you mean X?" for the known name nearest to {@code key}, or nothing when none is near. */
    static String closest(String key, Collection<String> known) {
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
