package io.blit.core.internal;

import java.lang.foreign.MemorySegment;

/**
 * Decides whether a copy may address a segment's memory directly instead of through the
 * {@link MemorySegment} accessors.
 *
 * <p>Why: each accessor re-checks bounds, liveness and the owner thread, and on JDK 25 eighteen such
 * checks cost more than the copy itself (docs/copy-engine.md). Checking once is enough exactly when
 * nothing can invalidate the memory during the copy: a native segment confined to the calling thread
 * can be closed only by that thread, which is busy copying. Shared, global and automatic arenas (any
 * thread, or the GC, may end them) and heap segments keep the per-access checks.
 *
 * <p>The checks throw what the FFM API throws for the same misuse, with the same messages, before
 * anything is copied.
 */
public final class ConfinedAccess {
    /** Never started, so it owns no arena: a segment it cannot access is confined to some other thread. */
    private static final Thread NO_THREAD = Thread.ofPlatform().unstarted(() -> { });

    private ConfinedAccess() {
    }

    /**
     * True if {@code segment} is native, confined to the calling thread and alive, so that its address
     * may be used directly for this call (bounds are the caller's to check). False for segments that
     * need per-access checks.
     *
     * @throws WrongThreadException   if the segment is confined to another thread
     * @throws IllegalStateException  if the segment is confined to this thread and closed
     * @throws IllegalArgumentException if {@code forWrite} and the segment is read-only
     */
    public static boolean addressable(MemorySegment segment, boolean forWrite) {
        if (!segment.isNative() || segment.isAccessibleBy(NO_THREAD)) {
            return false;
        }
        if (forWrite && segment.isReadOnly()) {
            throw new IllegalArgumentException("Attempt to write a read-only segment");
        }
        if (!segment.isAccessibleBy(Thread.currentThread())) {
            throw new WrongThreadException("Attempted access outside owning thread");
        }
        if (!segment.scope().isAlive()) {
            throw new IllegalStateException("Already closed");
        }
        return true;
    }
}
