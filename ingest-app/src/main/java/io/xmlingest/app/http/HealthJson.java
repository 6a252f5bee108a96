package io.xmlingest.app.http;

import java.util.Map;

/** The JSON bodies of the health endpoints; small enough not to need a JSON library. */
final class HealthJson {

    private HealthJson() {
    }

    static String full(Health health) {
        StringBuilder json = new StringBuilder("{\"status\":").append(status(health.up()))
                .append(",\"live\":").append(health.live())
                .append(",\"ready\":").append(health.ready())
                .append(",\"checks\":{");
        String separator = "";
        for (Map.Entry<String, String> check : health.checks().entrySet()) {
            json.append(separator).append(string(check.getKey())).append(':').append(string(check.getValue()));
            separator = ",";
        }
        return json.append("}}").toString();
    }

    static String liveness(Health health) {
        return "{\"status\":" + status(health.live()) + "}";
    }

    private static String status(boolean up) {
        return up ? "\"UP\"" : "\"DOWN\"";
    }

    // Check messages often carry exception text, so quotes, backslashes and control characters
    // are to be expected, not just tolerated.
    static String string(String value) {
        if (value == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
