package io.blit.queue.internal;

import io.blit.queue.QueueCorruptedException;
import java.io.IOException;
import java.nio.file.Files;
import java.util.zip.Adler32;

/**
 * Translates the error HotSpot raises when an access to a mapped file faults (SIGBUS: the file was
 * truncated under the mapping by another process, or its storage failed) into a
 * {@link QueueCorruptedException} naming the file and the record's offset.
 *
 * <p>What HotSpot does (measured on JDK 25, docs/queue-design.md, "Truncation under a live mapping"): for an
 * access through {@code Unsafe}, a {@code MemorySegment} accessor or VarHandle, or {@code MemorySegment.copy},
 * interpreted or JIT-compiled, the faulting access yields an unspecified value and an asynchronous
 * {@link InternalError} ("a fault occurred in an unsafe memory access operation") is thrown at the thread's
 * next safepoint poll or VM transition, which in every case measured was before the queue method returned.
 * Exception: an interpreted {@code compareAndExchange} faults inside the VM and crashes it, which
 * {@link RecordHeader#compareAndExchange} avoids by loading the word first. Stateless.
 */
public final class MappedFaults {
    private static final String HOTSPOT_MESSAGE = "unsafe memory access";

    private MappedFaults() {
    }

    /**
     * Throws, here and now, the {@link InternalError} of an access to mapped memory that faulted since the
     * thread's last safepoint poll, if any. Call it after a copy and before acting on it (stepping past a read
     * record, committing a written one).
     *
     * <p>Why: in JIT-compiled code the faulting access is skipped ("if the instruction is a load it will return
     * garbage", HotSpot's {@code SharedRuntime::handle_unsafe_access}) and the error is delivered at a later
     * poll; measured on JDK 25, compiled queue methods returned normally, a wrong payload in hand, and the
     * error arrived in the caller. The return from a native method processes pending asynchronous exceptions,
     * so one JNI call delivers it inside the queue's own {@code try}: {@link Adler32#update(int)}, the cheapest
     * JDK native found that C2 does not intrinsify (a pure C function, no VM entry; about half the cost of
     * {@code Thread.holdsLock}, docs/queue-design.md has the numbers). {@code TruncatedUnderMappingTest} fails
     * if a JDK stops delivering the fault here.
     *
     * @param probe the caller's own checksum object (its value is meaningless; not shared between threads,
     *              so that the call writes no shared cache line)
     * @throws InternalError the pending fault, if there is one
     */
    public static void surfacePending(Adler32 probe) {
        probe.update(0);
    }

    /**
     * True if {@code error} is HotSpot's report of a faulting access to mapped memory.
     */
    public static boolean isMappedFault(InternalError error) {
        String message = error.getMessage();
        return message != null && message.contains(HOTSPOT_MESSAGE);
    }

    /**
     * The exception for a fault while accessing the record at {@code position} of {@code file} (the position
     * the cursor was at when the error arrived: the faulting record or, the error being asynchronous, the one
     * after it).
     *
     * @throws InternalError {@code error} itself if it is not a mapped-memory fault, or {@code file} is null
     */
    public static QueueCorruptedException translate(InternalError error, MappedSegment file, long position, boolean writing) {
        if (file == null || !isMappedFault(error)) {
            throw error;
        }
        long size;
        try {
            size = Files.size(file.info().file());
        } catch (IOException gone) {
            size = -1;
        }
        QueueCorruptedException corrupt = QueueErrors.faultUnderMapping(file.info().file(), position, size,
                file.size(), writing, error);
        try {
            surfacePending(new Adler32()); // a second fault (e.g. marking the claim ABANDONED) must not surface later
        } catch (InternalError again) {
            corrupt.addSuppressed(again);
        }
        return corrupt;
    }
}
