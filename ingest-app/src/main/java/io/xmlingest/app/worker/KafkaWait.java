package io.xmlingest.app.worker;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.ObjLongConsumer;
import java.util.function.Supplier;

/**
 * What the worker's thread is waiting for Kafka to answer, and since when, for the health check's
 * thread to read. A Kafka client's blocking call gives up only after its own timeout, a minute by
 * default: until then nothing else would tell that Kafka is away.
 */
final class KafkaWait {

    static final String READING_CHECKPOINTS = "reading the checkpoint topic";

    private record Call(String what, long since) {
    }

    private final Runnable answered;
    private final ObjLongConsumer<String> took;
    private final LongSupplier nanoTime;
    private volatile Call call;

    /**
     * @param answered told each time Kafka has answered a call
     * @param took told what each call was and how long it took, answered or not; a call within a call
     *             is not told apart from the outer one
     */
    KafkaWait(Runnable answered, ObjLongConsumer<String> took) {
        this(answered, took, System::nanoTime);
    }

    /** @param nanoTime the clock, System.nanoTime but in tests */
    KafkaWait(Runnable answered, ObjLongConsumer<String> took, LongSupplier nanoTime) {
        this.answered = answered;
        this.took = took;
        this.nanoTime = nanoTime;
    }

    /**
     * Makes a call to Kafka, known as {@code what} while it waits.
     *
     * @param what what the worker is doing, said in the health check: "reading the checkpoint topic"
     */
    <T> T call(String what, Supplier<T> request) {
        T answer = waitFor(what, request);
        answered.run();
        return answer;
    }

    void call(String what, Runnable request) {
        call(what, () -> {
            request.run();
            return null;
        });
    }

    /**
     * A call whose return proves nothing: closing a client returns when Kafka answered, and also
     * when the client gave up waiting. Its wait is watched all the same.
     */
    void closing(String what, Runnable close) {
        waitFor(what, () -> {
            close.run();
            return null;
        });
    }

    private <T> T waitFor(String what, Supplier<T> request) {
        Call outer = call;
        // A call within a call is part of the outer one: the outer's start is when the wait began.
        long start = nanoTime.getAsLong();
        call = outer != null ? outer : new Call(what, start);
        try {
            return request.get();
        } finally {
            call = outer;
            if (outer == null) {
                took.accept(what, nanoTime.getAsLong() - start);
            }
        }
    }

    /** Kafka answered part of the call in progress (a read received some of what it reads): its wait starts anew. */
    void progress() {
        Call c = call;
        if (c != null) {
            call = new Call(c.what(), nanoTime.getAsLong());
        }
    }

    /** Why Kafka looks away: a call unanswered for at least {@code nanos}; else null. */
    String unansweredFor(long nanos) {
        Call c = call;
        if (c == null) {
            return null;
        }
        long waited = nanoTime.getAsLong() - c.since();
        return waited < nanos ? null
                : "has not answered for " + TimeUnit.NANOSECONDS.toSeconds(waited) + " s (" + c.what() + ")";
    }
}
