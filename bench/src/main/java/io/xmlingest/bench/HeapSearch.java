package io.xmlingest.bench;

/**
 * The smallest -Xmx at which a strategy still completes, by bisection between a heap known to
 * fail and one known to work, to within 5% (or 8 MB).
 *
 * @param smallestOk the smallest heap, in MB, that completed; -1 if even the largest tried failed
 * @param largestFailed the largest heap, in MB, that failed; 0 if none failed
 */
public record HeapSearch(long size, int smallestOk, int largestFailed, int attempts) {

    interface Attempt {
        boolean completes(int heapMb) throws Exception;
    }

    static HeapSearch run(long size, int maxMb, Attempt attempt) throws Exception {
        int attempts = 1;
        if (!attempt.completes(maxMb)) {
            return new HeapSearch(size, -1, maxMb, attempts);
        }
        int ok = maxMb;
        int fail = 0;
        int lo = 8;
        attempts++;
        if (attempt.completes(lo)) {
            return new HeapSearch(size, lo, 0, attempts);
        }
        fail = lo;
        while (ok - fail > Math.max(8, ok / 20)) {
            int mid = (ok + fail) / 2;
            attempts++;
            if (attempt.completes(mid)) {
                ok = mid;
            } else {
                fail = mid;
            }
        }
        return new HeapSearch(size, ok, fail, attempts);
    }
}
