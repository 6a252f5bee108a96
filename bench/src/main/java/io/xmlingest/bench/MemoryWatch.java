package io.xmlingest.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * Memory as the JVM reports it, never as free-memory differences (which go negative when a GC
 * runs between two readings): the heap pools' peak usage, the largest heap still in use after
 * a full garbage collection (the live set, from GC notifications; after any collection if no full
 * one ran), the process's peak resident set
 * from the kernel, and bytes allocated by every thread.
 */
final class MemoryWatch {

    private final Set<String> heapPools = heapPoolNames();
    private final AtomicLong peakLive = new AtomicLong();
    private final AtomicLong peakLiveMajor = new AtomicLong();

    MemoryWatch() {
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener((notification, handback) -> {
                    if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
                        GarbageCollectionNotificationInfo info =
                                GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
                        long after = 0;
                        for (var e : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
                            if (heapPools.contains(e.getKey())) {
                                after += e.getValue().getUsed();
                            }
                        }
                        // After a minor collection the old generation still holds whatever died there since the
                        // last full one, so only a full collection tells what is really reachable.
                        if (info.getGcAction().contains("major")) {
                            peakLiveMajor.accumulateAndGet(after, Math::max);
                        }
                        peakLive.accumulateAndGet(after, Math::max);
                    }
                }, null, null);
            }
        }
    }

    /** The names of this JVM's heap pools, as a collection's usage before and after is keyed. */
    static Set<String> heapPoolNames() {
        Set<String> names = new HashSet<>();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                names.add(pool.getName());
            }
        }
        return names;
    }

    /** Forgets the peaks so far (after warm-up). */
    void reset() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
            }
        }
        peakLive.set(0);
        peakLiveMajor.set(0);
    }

    /** Sum of the heap pools' peak usage since the last reset: what the heap had to hold, garbage included. */
    long peakHeapUsed() {
        long sum = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                MemoryUsage peak = pool.getPeakUsage();
                sum += peak == null ? 0 : peak.getUsed();
            }
        }
        return sum;
    }

    /**
     * The largest heap in use right after a full garbage collection since the last reset, or after
     * any collection when no full one ran; 0 if none ran.
     */
    long peakLiveHeap() {
        long major = peakLiveMajor.get();
        return major > 0 ? major : peakLive.get();
    }

    /** Bytes allocated so far by all live threads of this JVM. */
    static long allocatedBytes() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (long b : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
            if (b > 0) {
                sum += b;
            }
        }
        return sum;
    }

    /** The process's peak resident set (VmHWM) in bytes, or -1 where /proc is not available. */
    static long maxRss() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (Exception e) {
            return -1;
        }
        return -1;
    }
}
