package io.xmlingest.core.config;

import io.xmlingest.core.error.ConfigException;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Predicate;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * One setting, declared once: key, type, default, documentation and validation. The config
 * table in the README is printed from these declarations, so docs and behaviour cannot drift.
 *
 * @param <T> the parsed value's type
 */
public final class Setting<T> {

    private final String key;
    private final SettingType<T> type;
    private final T defaultValue;
    private final String doc;
    private final Function<T, String> validator;
    private final BiFunction<String, String, String> entryValidator;
    private final Predicate<String> secret;

    private Setting(String key, SettingType<T> type, T defaultValue, String doc, Function<T, String> validator) {
        this(key, type, defaultValue, doc, validator, null, k -> false);
    }

    private Setting(String key, SettingType<T> type, T defaultValue, String doc, Function<T, String> validator,
                    BiFunction<String, String, String> entryValidator, Predicate<String> secret) {
        this.entryValidator = entryValidator;
        this.secret = secret;
        this.key = Objects.requireNonNull(key);
        this.type = Objects.requireNonNull(type);
        this.defaultValue = defaultValue;
        this.doc = Objects.requireNonNull(doc);
        this.validator = validator == null ? v -> null : validator;
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

    /**
     * A family of settings under one prefix, such as {@code kafka.client.}: any key after the
     * prefix, each value validated on its own by {@code entryValidator} (key after the prefix,
     * value; null when fine). The value is the map of entries, empty by default.
     *
     * @param secret true for the keys (after the prefix) whose values must never be printed
     */
    public static Setting<Map<String, String>> prefixed(String prefix, String doc,
                                                        BiFunction<String, String, String> entryValidator,
                                                        Predicate<String> secret) {
        if (!prefix.endsWith(".")) {
            throw new IllegalArgumentException("a prefix ends with '.': " + prefix);
        }
        return new Setting<>(prefix, SettingType.ENTRIES, Map.of(), doc, v -> null, entryValidator, secret);
    }

    /** True for a family declared with {@link #prefixed}: its key is the prefix. */
    public boolean isPrefix() {
        return entryValidator != null;
    }

    /** True when the value of {@code entryKey} (after the prefix) must be masked wherever settings are shown. */
    public boolean isSecret(String entryKey) {
        return secret.test(entryKey);
    }

    /** The environment variable name of one entry of a family, or the prefix of all of them with an empty key. */
    public String envVar(String entryKey) {
        return envVar() + entryKey.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /** The entry key (after the prefix) an environment variable of this family sets: dots for underscores. */
    public String entryKeyOfEnvVar(String name) {
        return name.substring(envVar().length()).toLowerCase(Locale.ROOT).replace('_', '.');
    }

    /** Validates one entry of a family; the error names the full key and the value. */
    public String parseEntry(String entryKey, String text) {
        String value = text == null ? "" : text.trim();
        String problem = entryKey.isEmpty() ? "no key after the prefix " + key : entryValidator.apply(entryKey, value);
        if (problem != null) {
            throw new ConfigException(key + entryKey, "invalid setting " + key + entryKey + ": " + problem);
        }
        return value;
    }

    /** A setting the user must give; it has no default. */
    public static <T> Setting<T> required(String key, SettingType<T> type, String doc, Function<T, String> validator) {
        return new Setting<>(key, type, null, doc, validator);
    }

    public String key() {
        return key;
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

    /**
     * The environment variable that sets this key: XMLINGEST_ then the key upper-cased, dots and
     * dashes as underscores; for a family, the prefix of its variables (ending in _).
     */
    public String envVar() {
        return "XMLINGEST_" + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /** Parses and validates text from any source; the error names this key and the value. */
    public T parse(String text) {
        String trimmed = text == null ? "" : text.trim();
        T value;
        try {
            value = type.parse(trimmed);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(key, "invalid value '" + text + "' for " + key + ": " + e.getMessage());
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
