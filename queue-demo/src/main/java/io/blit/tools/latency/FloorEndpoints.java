package io.blit.tools.latency;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Sender and receiver of {@link MessageKind#FLOOR}: the harness without a queue. Each message is the smallest thing
 * that can carry it between two threads or processes: its intended send time and its sequence written into one
 * 64-byte slot of a small ring in a shared memory-mapped file ({@value #FILE_NAME} in the run's directory), the
 * sequence last with a release store; the receiver polls the next slot's sequence with an acquire load. One cache
 * line moves per message, no record header, no claim, no copy of a payload, no file roll.
 *
 * <p>What it is for: measured with the same send loop (intended times, coordinated omission accounted), the same
 * receive loop, the same clock and the same machine as the queue kinds, its percentiles are what the harness and
 * the machine cost by themselves (waking up at the intended time, two {@link System#nanoTime()} reads, one cache
 * line from core to core). A queue kind's figures minus the floor's are what the queue adds.
 *
 * <p>Not a queue: the ring has {@value #SLOTS} slots (4 MiB; 0.65 s at 100,000 msg/s), so a receiver more than that
 * many messages behind would find its slot overwritten; it then fails with an {@link IllegalStateException} instead
 * of reporting wrong figures.
 * Each endpoint maps the file in a confined arena of the thread that opened it and is used only by that thread.
 */
final class FloorEndpoints {
    static final String FILE_NAME = "floor.ring";
    static final int SLOTS = 1 << 16;
    private static final int SLOT_BYTES = 64;
    private static final long FILE_BYTES = (long) SLOTS * SLOT_BYTES;
    /** Slot layout: the sequence plus one (0 = never written) at 0, the intended send time at 8. */
    private static final long MARK = 0;
    private static final long INTENDED = 8;
    private static final long PAGE = 4096;
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private FloorEndpoints() {
    }

    /** Bytes carried per message: the sequence mark and the intended time. */
    static long payloadBytes() {
        return 2 * Long.BYTES;
    }

    private static long slot(long sequence) {
        return (sequence & (SLOTS - 1)) * SLOT_BYTES;
    }

    /** Maps the ring in {@code dir}, creating both (zeros) if absent; both sides may race to create them. */
    private static MemorySegment map(Path dir, Arena arena) {
        Path file = dir.resolve(FILE_NAME);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir + " for the floor ring", e);
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            if (channel.size() < FILE_BYTES) {
                channel.write(ByteBuffer.allocate(1), FILE_BYTES - 1); // extends the file with zeros
            }
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, FILE_BYTES, arena);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot map the floor ring " + file, e);
        }
    }

    static final class Sender implements MessageSender {
        private final Arena arena = Arena.ofConfined();
        private final MemorySegment ring;

        Sender(Path dir) {
            ring = map(dir, arena);
        }

        /** Writes the ring's first word of every page, as 0, before any send: the ring is still all zeros then. */
        @Override
        public void pretouch(long bytes) {
            for (long page = 0; page < Math.min(bytes, FILE_BYTES); page += PAGE) {
                ring.set(ValueLayout.JAVA_LONG, page, 0L);
            }
        }

        @Override
        public void send(long sequence, long intendedNanos) {
            long at = slot(sequence);
            ring.set(ValueLayout.JAVA_LONG, at + INTENDED, intendedNanos);
            LONG.setRelease(ring, at + MARK, sequence + 1);
        }

        @Override
        public void close() {
            arena.close();
        }
    }

    static final class Receiver implements MessageReceiver {
        private final Arena arena = Arena.ofConfined();
        private final MemorySegment ring;
        private long next;
        private long sequence = -1;
        private long intended;

        Receiver(Path dir) {
            ring = map(dir, arena);
        }

        /**
         * @throws IllegalStateException if the slot of the next message already holds a later one (the sender
         *                               lapped this receiver)
         */
        @Override
        public void pretouch(long bytes) {
            long sum = 0;
            for (long page = 0; page < Math.min(bytes, FILE_BYTES); page += PAGE) {
                sum += ring.get(ValueLayout.JAVA_LONG, page);
            }
            if (sum != 0) {
                throw new IllegalStateException("the floor ring in use before the run: it must be new");
            }
        }

        @Override
        public boolean poll() {
            long at = slot(next);
            long mark = (long) LONG.getAcquire(ring, at + MARK);
            if (mark != next + 1) {
                if (mark > next + 1) {
                    throw new IllegalStateException("the floor ring of " + SLOTS + " slots was overrun: message "
                            + (mark - 1) + " is in the slot of message " + next + " (the receiver fell behind)");
                }
                return false;
            }
            intended = ring.get(ValueLayout.JAVA_LONG, at + INTENDED);
            sequence = next++;
            return true;
        }

        @Override
        public long sequence() {
            return sequence;
        }

        @Override
        public long intendedNanos() {
            return intended;
        }

        /** The floor carries only the sequence and the intended time, both checked by the receive loop. */
        @Override
        public void verify(long sequence) {
            if (sequence != this.sequence) {
                throw new IllegalStateException("floor message " + sequence + " checked, but " + this.sequence
                        + " was read last");
            }
        }

        @Override
        public void close() {
            arena.close();
        }
    }
}
