package io.xmlingest.core.error;

/** A setting is missing, unknown or invalid. The message names the key and the value at fault. */
public final class ConfigException extends IngestException {
    public ConfigException(String settingKey, String reason) {
        super(reason, null, settingKey, null);
    }
}
