package io.blit.replication;

import io.aeron.Image;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.FrameDescriptor;
import io.aeron.logbuffer.Header;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntPredicate;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Reassembles fragmented Aeron messages within fixed bounds, in place of Aeron's {@code FragmentAssembler} (which
 * keeps a growing buffer per sending Aeron session, before anything is known of the sender, and never frees it):
 *
 * <ul>
 *   <li>only the fragments of Aeron sessions {@code admits} accepts are assembled; a first fragment of any other is
 *       counted once ({@link DropReason#FOREIGN}) and its message dropped, nothing allocated;</li>
 *   <li>a message is assembled in one of {@code slots} buffers of {@code maxMessage} bytes, each allocated when
 *       first used and reused after: at most {@code slots * maxMessage} bytes, whoever sends what. A message that
 *       grows beyond {@code maxMessage} is dropped and counted once ({@link DropReason#MALFORMED}); its further
 *       fragments, and any fragment that does not continue a message in progress (a gap, a middle without a
 *       first), are dropped without a count, a log line or an allocation. When every slot is busy, a new first
 *       fragment takes the slot whose message started first ({@link DropReason#OVER_LIMIT});</li>
 *   <li>a slot whose Aeron session's image went away is released: {@link #onUnavailableImage} (Aeron's client thread)
 *       notes it, the polling thread releases it at its next fragment.</li>
 * </ul>
 *
 * Unfragmented messages pass to the delegate as Aeron delivers them. {@link #onFragment} belongs to the one thread
 * that polls the subscription; {@link #onUnavailableImage} may be called from any thread.
 */
final class BoundedAssembler implements FragmentHandler {
    /** How a dropped message is counted: the reason and the header of the fragment that made it drop. */
    interface Drops {
        void count(DropReason reason, Header header);
    }

    private final FragmentHandler delegate;
    private final IntPredicate admits;
    private final Drops drops;
    private final int maxMessage;
    private final UnsafeBuffer[] buffers;
    /** Per slot: its Aeron session, the bytes so far, where its next fragment must start, when it began. */
    private final int[] sessions;
    private final boolean[] busy;
    private final int[] lengths;
    private final int[] nextTermOffsets;
    private final long[] begun;
    private final AtomicLong imagesGone = new AtomicLong();
    private long imagesSwept;
    private long beginCount;
    private Subscription subscription;

    BoundedAssembler(FragmentHandler delegate, IntPredicate admits, Drops drops, int slots, int maxMessage) {
        this.delegate = delegate;
        this.admits = admits;
        this.drops = drops;
        this.maxMessage = maxMessage;
        this.buffers = new UnsafeBuffer[slots];
        this.sessions = new int[slots];
        this.busy = new boolean[slots];
        this.lengths = new int[slots];
        this.nextTermOffsets = new int[slots];
        this.begun = new long[slots];
    }

    /** The subscription polled through this assembler, whose images a released slot is checked against. */
    void pollsFor(Subscription subscription) {
        this.subscription = subscription;
    }

    /** Aeron's unavailable-image handler: the image's slot is released by the polling thread. */
    void onUnavailableImage(Image image) {
        imagesGone.incrementAndGet();
    }

    @Override
    public void onFragment(DirectBuffer buffer, int offset, int length, Header header) {
        byte flags = header.flags();
        if ((flags & FrameDescriptor.UNFRAGMENTED) == FrameDescriptor.UNFRAGMENTED) {
            delegate.onFragment(buffer, offset, length, header);
            return;
        }
        releaseGoneImages();
        int session = header.sessionId();
        int slot;
        if ((flags & FrameDescriptor.BEGIN_FRAG_FLAG) != 0) {
            if (!admits.test(session)) {
                drops.count(DropReason.FOREIGN, header);
                return;
            }
            slot = slotOf(session);
            if (slot < 0) {
                slot = take(header);
            }
            busy[slot] = true;
            sessions[slot] = session;
            lengths[slot] = 0;
            begun[slot] = ++beginCount;
        } else {
            slot = slotOf(session);
            if (slot < 0) {
                return; // the rest of a message dropped already, or never begun
            }
            if (header.termOffset() != nextTermOffsets[slot]) {
                busy[slot] = false; // a gap: the message cannot be whole
                return;
            }
        }
        if (lengths[slot] + length > maxMessage) {
            busy[slot] = false;
            drops.count(DropReason.MALFORMED, header);
            return;
        }
        if (buffers[slot] == null) {
            buffers[slot] = new UnsafeBuffer(new byte[maxMessage]);
        }
        buffers[slot].putBytes(lengths[slot], buffer, offset, length);
        lengths[slot] += length;
        nextTermOffsets[slot] = header.nextTermOffset();
        if ((flags & FrameDescriptor.END_FRAG_FLAG) != 0) {
            busy[slot] = false;
            delegate.onFragment(buffers[slot], 0, lengths[slot], header);
        }
    }

    private int slotOf(int session) {
        for (int slot = 0; slot < sessions.length; slot++) {
            if (busy[slot] && sessions[slot] == session) {
                return slot;
            }
        }
        return -1;
    }

    /** A free slot, or the one whose message began first (its message dropped and counted). */
    private int take(Header header) {
        int oldest = 0;
        for (int slot = 0; slot < sessions.length; slot++) {
            if (!busy[slot]) {
                return slot;
            }
            if (begun[slot] < begun[oldest]) {
                oldest = slot;
            }
        }
        drops.count(DropReason.OVER_LIMIT, header);
        return oldest;
    }

    private void releaseGoneImages() {
        long gone = imagesGone.get();
        if (gone == imagesSwept || subscription == null) {
            return;
        }
        imagesSwept = gone;
        for (int slot = 0; slot < sessions.length; slot++) {
            if (busy[slot] && subscription.imageBySessionId(sessions[slot]) == null) {
                busy[slot] = false;
            }
        }
    }
}
