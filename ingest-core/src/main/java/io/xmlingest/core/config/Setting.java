package io.xmlingest.core.config;

import io.xmlingest.core.error.ConfigException;
import java.util.Locale;
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

    private Setting(String key, SettingType<T> type, T defaultValue, String doc, Function<T, String> validator) {
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

    /** The environment variable that sets this key: XMLINGEST_ then the key upper-cased, dots and dashes as underscores. */
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
