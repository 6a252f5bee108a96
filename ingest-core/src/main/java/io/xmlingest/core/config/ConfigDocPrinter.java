package io.xmlingest.core.config;

import java.util.Collection;

/** Prints the README's config table from the declarations, so the documentation cannot drift from the code. */
public final class ConfigDocPrinter {
    private ConfigDocPrinter() {
    }

    public static String markdownTable(Collection<Setting<?>> settings) {
        StringBuilder s = new StringBuilder();
        s.append("| key | environment variable | type | default | description |\n");
        s.append("|---|---|---|---|---|\n");
        for (Setting<?> setting : settings) {
            s.append("| `").append(setting.documentedKey()).append("` | `").append(setting.documentedEnvVar()).append("` | ")
                    .append(setting.type().name()).append(setting.allowed().map(a -> ", " + a).orElse("")).append(" | ")
                    .append(defaultText(setting)).append(" | ")
                    .append(setting.doc().replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;"))
                    .append(" |\n");
        }
        return s.toString();
    }

    private static <T> String defaultText(Setting<T> setting) {
        return setting.defaultValue()
                .map(v -> {
                    String text = setting.format(v);
                    if (setting.isFamily()) {
                        return "(none)";
                    }
                    return text.isEmpty() ? "(empty)" : "`" + text + "`";
                })
                .orElse("(required)");
    }
}
