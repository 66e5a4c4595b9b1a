package io.blit.tools.latency;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.QueueOptions;
import io.blit.queue.Tailer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * {@link MessageKind#NORMAL}: {@link NormalBookUpdate}s as the usual Java user sends them — built as objects,
 * written with a new {@link ObjectOutputStream} per message (each message must be readable on its own, so no
 * stream state is shared between messages) into a reused byte buffer, appended as a raw payload, read back into a
 * reused byte array and decoded with a new {@link ObjectInputStream}. The consumer's receive time is taken after
 * decoding, as for the trivially copyable kinds (after their block copy into the object).
 */
final class SerializedBookEndpoints {
    /** Largest payload accepted by the receiver; a NormalBookUpdate is well under 1 KiB. */
    private static final int MAX_PAYLOAD = 1 << 16;

    private SerializedBookEndpoints() {
    }

    /** The size of message {@code sequence} serialised as the sender does it (send time: a 19-digit nanoTime). */
    static int serialisedSize(long sequence) {
        ReusableBytes bytes = new ReusableBytes();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(NormalBookUpdate.forMessage(sequence, Long.MAX_VALUE));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serialise message " + sequence, e);
        }
        return bytes.size();
    }

    /** A ByteArrayOutputStream whose buffer can be appended without a copy. */
    private static final class ReusableBytes extends ByteArrayOutputStream {
        ReusableBytes() {
            super(1024);
        }

        MemorySegment contents() {
            return MemorySegment.ofArray(buf).asSlice(0, count);
        }
    }

    static final class Sender implements MessageSender {
        private final BlitQueue<Void> queue;
        private final Appender<Void> appender;
        private final ReusableBytes bytes = new ReusableBytes();

        Sender(Path dir, QueueOptions options) {
            queue = BlitQueue.openRaw(dir, options);
            appender = queue.appender();
        }

        @Override
        public void send(long sequence, long intendedNanos) {
            bytes.reset();
            try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
                out.writeObject(NormalBookUpdate.forMessage(sequence, intendedNanos));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot serialise message " + sequence, e);
            }
            appender.append(bytes.contents());
        }

        @Override
        public void pretouch(long bytes) {
            appender.pretouch(bytes);
        }

        @Override
        public void close() {
            try {
                appender.close();
            } finally {
                queue.close();
            }
        }
    }

    static final class Receiver implements MessageReceiver {
        private final BlitQueue<Void> queue;
        private final Tailer<Void> tailer;
        private final byte[] buffer = new byte[MAX_PAYLOAD];
        private final MemorySegment target = MemorySegment.ofArray(buffer);
        private NormalBookUpdate message;

        Receiver(Path dir, QueueOptions options) {
            queue = BlitQueue.openRaw(dir, options);
            tailer = queue.tailer();
        }

        @Override
        public void pretouch(long bytes) {
            tailer.pretouch(bytes);
        }

        @Override
        public boolean poll() {
            long length = tailer.readNextBytes(target);
            if (length < 0) {
                return false;
            }
            try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(buffer, 0, (int) length))) {
                message = (NormalBookUpdate) in.readObject();
            } catch (IOException | ClassNotFoundException | ClassCastException e) {
                throw new IllegalStateException("cannot decode the message at index " + (tailer.index() - 1)
                        + " (" + length + " bytes) as a NormalBookUpdate", e);
            }
            return true;
        }

        @Override
        public long sequence() {
            return message.sequence();
        }

        @Override
        public long intendedNanos() {
            return message.sendTimeNanos();
        }

        @Override
        public void verify(long sequence) {
            if (!message.isConsistentFor(sequence)) {
                throw new IllegalStateException("NormalBookUpdate " + sequence + " arrived with wrong content (sequence "
                        + message.sequence() + ")");
            }
        }

        @Override
        public void close() {
            try {
                tailer.close();
            } finally {
                queue.close();
            }
        }
    }
}
