package io.xmlingest.app.worker;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * What the worker's thread is waiting for Kafka to answer, and since when, for the health check's
 * thread to read. A Kafka client's blocking call gives up only after its own timeout, a minute by
 * default: until then nothing else would tell that Kafka is away.
 */
final class KafkaWait {

    private record Call(String what, long since) {
    }

    private final Runnable answered;
    private volatile Call call;

    /** @param answered told each time Kafka has answered a call */
    KafkaWait(Runnable answered) {
        this.answered = answered;
    }

    /**
     * Makes a call to Kafka, known as {@code what} while it waits.
     *
     * @param what what the worker is doing, said in the health check: "reading the checkpoint topic"
     */
    <T> T call(String what, Supplier<T> request) {
        Call outer = call;
        // A call within a call is part of the outer one: the outer's start is when the wait began.
        call = outer != null ? outer : new Call(what, System.nanoTime());
        try {
            T answer = request.get();
            answered.run();
            return answer;
        } finally {
            call = outer;
        }
    }

    void call(String what, Runnable request) {
        call(what, () -> {
            request.run();
            return null;
        });
    }

    /** Why Kafka looks away: a call unanswered for at least {@code nanos}; else null. */
    String unansweredFor(long nanos) {
        Call c = call;
        if (c == null) {
            return null;
        }
        long waited = System.nanoTime() - c.since();
        return waited < nanos ? null
                : "has not answered for " + TimeUnit.NANOSECONDS.toSeconds(waited) + " s (" + c.what() + ")";
    }
}
