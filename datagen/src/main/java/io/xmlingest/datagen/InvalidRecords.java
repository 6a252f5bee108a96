package io.xmlingest.datagen;

/**
 * Which records datagen writes invalid on request, and how. The choice is a pure function of
 * seed and index, so a test can know which records must become dead letters without reading the
 * file, for ten million records as cheaply as for ten. Every fault keeps the document
 * well-formed: only the record fails to bind.
 */
public final class InvalidRecords {
    private InvalidRecords() {
    }

    /** The kinds of fault, one chosen for each invalid record by the same hash. */
    public enum Fault {
        /** Text where a decimal belongs. */
        TEXT_IN_NUMBER,
        /** A date that does not exist. */
        IMPOSSIBLE_DATE,
        /** A required element left out. */
        MISSING_REQUIRED,
        /** An element the schema does not have. */
        UNKNOWN_ELEMENT
    }

    /** True if record {@code index} (0-based) is written invalid. */
    public static boolean isInvalid(long index, long seed, double rate) {
        if (rate <= 0) {
            return false;
        }
        return (mix(seed, index) >>> 11) * 0x1.0p-53 < rate;
    }

    /** The fault record {@code index} gets when it is invalid. */
    public static Fault fault(long index, long seed) {
        return Fault.values()[(int) ((mix(seed, index) & 0x7FF) % Fault.values().length)];
    }

    /** Applies the fault to a record's XML text, as the marshaller wrote it. */
    static String apply(Fault fault, String xml) {
        String broken = switch (fault) {
            case TEXT_IN_NUMBER -> xml.replaceFirst("<salary>[^<]*</salary>", "<salary>n/a</salary>");
            case IMPOSSIBLE_DATE -> xml.replaceFirst("<birthDate>[^<]*</birthDate>", "<birthDate>1970-13-45</birthDate>");
            case MISSING_REQUIRED -> xml.replaceFirst("<email>[^<]*</email>", "");
            case UNKNOWN_ELEMENT -> xml.replaceFirst("</firstName>", "</firstName><nickname>x</nickname>");
        };
        if (broken.equals(xml)) {
            throw new IllegalStateException("fault " + fault + " found nothing to change in " + xml);
        }
        return broken;
    }

    /** SplitMix64's finaliser over seed and index: well spread, and the same on every JVM. */
    private static long mix(long seed, long index) {
        long z = seed * 0x9E3779B97F4A7C15L + index + 0x632BE59BD9B4E019L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
