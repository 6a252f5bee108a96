package io.xmlingest.app.http;

/**
 * Writes lines of the Prometheus text exposition format, version 0.0.4: the escaping rules and
 * number spelling live here and nowhere else.
 */
final class ExpositionWriter {

    private final StringBuilder out = new StringBuilder();

    void header(String name, String help, String type) {
        out.append("# HELP ").append(name).append(' ').append(escapeHelp(help)).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    void sample(String name, double value) {
        out.append(name).append(' ').append(format(value)).append('\n');
    }

    void sample(String name, String labelName, String labelValue, double value) {
        out.append(name).append('{').append(labelName).append("=\"").append(escapeLabelValue(labelValue))
                .append("\"} ").append(format(value)).append('\n');
    }

    String text() {
        return out.toString();
    }

    // HELP text escapes backslash and line feed only; a double quote is legal there as it stands.
    static String escapeHelp(String help) {
        return help.replace("\\", "\\\\").replace("\n", "\\n");
    }

    static String escapeLabelValue(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    static String format(double value) {
        if (Double.isNaN(value)) {
            return "NaN";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "+Inf" : "-Inf";
        }
        // Whole numbers read as counts ("42", not "42.0"); below 2^53 every one of them is exact.
        if (value == Math.rint(value) && Math.abs(value) < 0x1p53) {
            return Long.toString((long) value);
        }
        // Java's "1.0E-4" is a float Prometheus parses (Go's ParseFloat takes the exponent form).
        return Double.toString(value);
    }
}
