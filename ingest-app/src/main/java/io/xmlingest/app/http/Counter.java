package io.xmlingest.app.http;

import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * A value that only goes up, safe to bump from any number of threads without contention.
 * Whole counts and fractional amounts (seconds) are kept apart so that a count stays exact past
 * 2^53, where a double would start dropping increments.
 */
public final class Counter {

    private final LongAdder whole = new LongAdder();
    private final DoubleAdder fractional = new DoubleAdder();

    Counter() {
    }

    public void inc() {
        whole.increment();
    }

    public void inc(long amount) {
        if (amount < 0) {
            throw new IllegalArgumentException("a counter only goes up; got inc(" + amount + ")");
        }
        whole.add(amount);
    }

    /** For totals that are not whole numbers, such as seconds spent. */
    public void add(double amount) {
        // The negated test also catches NaN, which would poison the total for good.
        if (!(amount >= 0)) {
            throw new IllegalArgumentException("a counter only goes up; got add(" + amount + ")");
        }
        fractional.add(amount);
    }

    public double value() {
        return whole.sum() + fractional.sum();
    }
}
