package io.blit.queue.internal.segment;

import io.blit.queue.QueueCorruptedException;
import io.blit.queue.internal.error.QueueErrors;
import io.blit.queue.internal.format.RecordHeader;
import java.io.IOException;
import java.nio.file.Files;

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
 * {@link RecordHeader#compareAndExchange} avoids by loading the word first. Stateless (the two padding
 * fields below are never written).
 */
public final class MappedFaults {
    private static final String HOTSPOT_MESSAGE = "unsafe memory access";

    private MappedFaults() {
    }

    /**
     * Always false, never written: read by {@link #surfacePending()} so that javac keeps the method's padding
     * (a {@code static final} constant would let javac drop the dead branch and C2 inline the method).
     */
    private static boolean padding;
    /** Written only by the never-taken branch of {@link #surfacePending()}. */
    private static int[] paddingSink;

    /**
     * Throws, here and now, the {@link InternalError} of an access to mapped memory that faulted since the
     * thread's last safepoint poll, if any. Call it after a copy and before acting on it (stepping past a read
     * record, committing a written one). Costs a plain call and return: a JNI call, whose native-to-Java transition
     * delivers the fault too, costs ~20 ns a message more (docs/queue-design.md).
     *
     * <p>Why it works (HotSpot, JDK 25 sources): in JIT-compiled code a faulting access is skipped ("if the
     * instruction is a load it will return garbage", {@code SharedRuntime::handle_unsafe_access}) and the
     * signal handler calls {@code JavaThread::set_pending_unsafe_access_error}, which queues an
     * {@code UnsafeAccessErrorHandshake} on the thread itself and so ARMS its safepoint poll. The error is
     * raised at the next poll that is allowed to deliver an asynchronous exception:
     * {@code ThreadSafepointState::handle_polling_page_exception} delivers it at a compiled method's RETURN
     * poll ("check asyncs" true: execution continues as if the exception were thrown at the call site in the
     * caller), but never at a loop back-edge poll (it deoptimizes the frame instead); the interpreter delivers
     * it at its next poll or VM call. So a call that is never inlined does it: its own return poll throws the
     * error at the call site, i.e. inside the queue method's {@code try}, before the step or commit; a call C2
     * inlines has no return poll of its own, and the error would leave the queue method with its wrong payload
     * (measured, docs/queue-design.md). The opaque call also keeps C2 from moving the copy's memory accesses
     * past it.
     *
     * <p>Never inlined, without JVM flags: C2 inlines a hot call only if the callee's bytecode is at most
     * {@code FreqInlineSize} (325 bytes; C1: {@code MaxInlineSize}, 35), and counts the whole method, not the
     * path executed. This method's bytecode is 773 bytes, almost all of it a branch never taken (an
     * array initializer guarded by {@link #padding}); the executed path is one static load, a test and the
     * return. {@code MappedFaultsTest} fails if the bytecode shrinks below twice the limit, and
     * {@code TruncatedUnderMappingTest} fails if a JDK stops delivering the fault here.
     *
     * @throws InternalError the pending fault, if there is one
     */
    public static void surfacePending() {
        if (padding) { // never true: the bytecode below only makes the method too big to inline
            paddingSink = new int[] {
                1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
                33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48,
                49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64,
                65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80,
                81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96,
                97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112,
                113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128,
            };
        }
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
            surfacePending(); // a second fault (e.g. marking the claim ABANDONED) must not surface later
        } catch (InternalError again) {
            corrupt.addSuppressed(again);
        }
        return corrupt;
    }
}
