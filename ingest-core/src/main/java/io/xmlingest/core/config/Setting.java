package io.xmlingest.core.config;

import io.xmlingest.core.error.ConfigException;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One setting, declared once: key, type, default, documentation and validation. The config
 * table in the README is printed from these declarations, so docs and behaviour cannot drift.
 *
 * <p>A setting is either one key, or a family: every key under a prefix, such as the Kafka client
 * keys passed through as {@code kafka.client.*}, declared and documented once. A family's value is
 * the map from the key after the prefix to its text; each member is checked on its own, so an
 * error names the one key at fault.
 *
 * @param <T> the parsed value's type
 */
public final class Setting<T> {

    private final String key;
    private final SettingType<T> type;
    private final T defaultValue;
    private final String doc;
    private final Function<T, String> validator;
    private final Family family;

    /** What a family adds: a check of each member and which members' values are secret. */
    private record Family(BiFunction<String, String, String> check, Predicate<String> secret) {
    }

    private Setting(String key, SettingType<T> type, T defaultValue, String doc, Function<T, String> validator) {
        this(key, type, defaultValue, doc, validator, null);
    }

    private Setting(String key, SettingType<T> type, T defaultValue, String doc, Function<T, String> validator,
                    Family family) {
        this.family = family;
        this.key = Objects.requireNonNull(key);
        this.type = Objects.requireNonNull(type);
        this.defaultValue = defaultValue;
        this.doc = Objects.requireNonNull(doc);
        this.validator = validator == null ? v -> null : validator;
        if (family == null && (type == SettingType.INT || type == SettingType.LONG || type == SettingType.BYTES)
                && !(this.validator instanceof Validators.Rule)) {
            // The config table gives every number's range from its check; a check that cannot say it would leave a
            // number in the table with no bounds, where the code has some.
            throw new IllegalStateException(key + " is a number: its check must say its range (Validators.between, "
                    + "bytesBetween or rule)");
        }
        if (defaultValue != null) {
            String problem = this.validator.apply(defaultValue);
            if (problem != null) {
                throw new IllegalStateException("default of " + key + " is invalid: " + problem);
            }
        }
    }

    /** A setting with a default; {@code validator} returns null when the value is fine, else the reason. */
    public static <T> Setting<T> of(String key, SettingType<T> type, T defaultValue, String doc,
                                    Function<T, String> validator) {
        return new Setting<>(key, type, Objects.requireNonNull(defaultValue, key), doc, validator);
    }

    /** A setting the user must give; it has no default. */
    public static <T> Setting<T> required(String key, SettingType<T> type, String doc, Function<T, String> validator) {
        return new Setting<>(key, type, null, doc, validator);
    }

    /**
     * A family of settings: every key under {@code prefix}, which ends with '.'. {@code check} is given
     * the key after the prefix and the value, and returns null when they are fine, else the reason;
     * {@code secret} tells, by the key after the prefix, which values are never shown.
     */
    public static Setting<Map<String, String>> family(String prefix, String doc, BiFunction<String, String, String> check,
                                                      Predicate<String> secret) {
        if (!prefix.endsWith(".")) {
            throw new IllegalArgumentException("a family's prefix ends with '.': " + prefix);
        }
        return new Setting<>(prefix, MEMBERS, Map.of(), doc, null,
                new Family(Objects.requireNonNull(check), Objects.requireNonNull(secret)));
    }

    /** A family's value as text; only its type's name is ever printed, members are formatted one by one. */
    private static final SettingType<Map<String, String>> MEMBERS = new SettingType<>() {
        public String name() { return "string, per key"; }
        public Map<String, String> parse(String text) {
            throw new IllegalArgumentException("name a key under the prefix");
        }
    };

    /** The key; for a family, its prefix. */
    public String key() {
        return key;
    }

    /** The key as the documentation names it: for a family, the prefix and a placeholder for the rest. */
    public String documentedKey() {
        return family == null ? key : key + "<key>";
    }

    /** The environment variable as the documentation names it. */
    public String documentedEnvVar() {
        return family == null ? envVar() : envVar() + "<KEY>";
    }

    public boolean isFamily() {
        return family != null;
    }

    /** For a family, the key after the prefix when {@code fullKey} is one of its members. */
    public Optional<String> member(String fullKey) {
        return family != null && fullKey.length() > key.length() && fullKey.startsWith(key)
                ? Optional.of(fullKey.substring(key.length())) : Optional.empty();
    }

    /**
     * For a family, the member an environment variable sets: what follows the family's prefix,
     * lower-cased, with '_' for '.' (XMLINGEST_KAFKA_CLIENT_SASL_MECHANISM is kafka.client.sasl.mechanism).
     */
    public Optional<String> memberOfEnvVar(String name) {
        String prefix = envVar();
        return family != null && name.length() > prefix.length() && name.startsWith(prefix)
                ? Optional.of(name.substring(prefix.length()).toLowerCase(Locale.ROOT).replace('_', '.'))
                : Optional.empty();
    }

    /** True when the value of this setting, or of this member of a family, must never be shown. */
    public boolean isSecret(String member) {
        return family != null && family.secret().test(member);
    }

    /**
     * Checks one member of a family; the error names the full key, where it came from, and the
     * value unless it is secret.
     *
     * @param origin where the value came from, such as "environment variable XMLINGEST_KAFKA_CLIENT_ACKS"
     */
    public String parseMember(String member, String text, String origin) {
        String value = text == null ? "" : text.trim();
        String problem = family.check().apply(member, value);
        if (problem != null) {
            String shown = isSecret(member) ? IngestConfig.HIDDEN : "'" + text + "'";
            throw new ConfigException(key + member, "invalid setting " + key + member + "=" + shown + " (" + origin
                    + "): " + problem);
        }
        return value;
    }

    public SettingType<T> type() {
        return type;
    }

    public Optional<T> defaultValue() {
        return Optional.ofNullable(defaultValue);
    }

    public String doc() {
        return doc;
    }

    /** The values the setting's check lets through, in words, where the check can say (a range, a list). */
    public Optional<String> allowed() {
        return validator instanceof Validators.Rule<?> rule ? Optional.of(rule.allowed()) : Optional.empty();
    }

    /**
     * The environment variable that sets this key: XMLINGEST_ then the key upper-cased, dots and
     * dashes as underscores. For a family, the prefix every member's variable starts with.
     */
    public String envVar() {
        return envVarOf(key);
    }

    /** The environment variable of a key, declared or not (a renamed setting's old key, say). */
    static String envVarOf(String key) {
        return "XMLINGEST_" + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /** Parses and validates text from any source; the error names this key and the value. */
    public T parse(String text) {
        String trimmed = text == null ? "" : text.trim();
        T value;
        try {
            value = type.parse(trimmed);
        } catch (IllegalArgumentException e) {
            T nearest = type.nearest(trimmed);
            String narrower = nearest == null ? null : validator.apply(nearest);
            throw new ConfigException(key, "invalid value '" + text + "' for " + key + ": "
                    + (narrower != null ? narrower : e.getMessage()));
        }
        String problem = validator.apply(value);
        if (problem != null) {
            throw new ConfigException(key, "invalid value '" + text + "' for " + key + ": " + problem);
        }
        return value;
    }

    public String format(T value) {
        return type.format(value);
    }

    @Override
    public String toString() {
        return key;
    }
}
