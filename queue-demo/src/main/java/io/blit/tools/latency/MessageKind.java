package io.blit.tools.latency;

import io.blit.tools.messages.BookUpdate;

import io.blit.core.BlockCopier;
import io.blit.queue.BlitQueue;
import io.blit.queue.QueueOptions;
import io.blit.tools.messages.MarketData;
import java.nio.file.Path;

/** Blit's own message kinds of the latency harness, each with its command-line name ({@link LatencyKind}). */
public enum MessageKind implements LatencyKind {
    /** Trivially copyable {@link BookUpdate}: one Blit block copy each way. */
    TC("tc", "trivially copyable BookUpdate") {
        @Override
        public MessageSender sender(Path dir, QueueOptions options) {
            return new CopyableEndpoints.Sender<>(CopyableEndpoints.BOOK_UPDATE, dir, options);
        }

        @Override
        public MessageReceiver receiver(Path dir, QueueOptions options) {
            return new CopyableEndpoints.Receiver<>(CopyableEndpoints.BOOK_UPDATE, dir, options);
        }

        @Override
        public long payloadBytes(long sequence) {
            return BlockCopier.of(BookUpdate.class).byteSize();
        }
    },
    /** {@link NormalBookUpdate} through ObjectOutputStream / ObjectInputStream as raw payloads. */
    NORMAL("normal", "normal-object BookUpdate (ObjectOutputStream)") {
        @Override
        public MessageSender sender(Path dir, QueueOptions options) {
            return new SerializedBookEndpoints.Sender(dir, options);
        }

        @Override
        public MessageReceiver receiver(Path dir, QueueOptions options) {
            return new SerializedBookEndpoints.Receiver(dir, options);
        }

        @Override
        public long payloadBytes(long sequence) {
            return SerializedBookEndpoints.serialisedSize(sequence);
        }
    },
    /** The reference {@link io.blit.tools.messages.MarketData}, trivially copyable. */
    MARKET_DATA("md", "trivially copyable MarketData") {
        @Override
        public MessageSender sender(Path dir, QueueOptions options) {
            return new CopyableEndpoints.Sender<>(CopyableEndpoints.MARKET_DATA, dir, options);
        }

        @Override
        public MessageReceiver receiver(Path dir, QueueOptions options) {
            return new CopyableEndpoints.Receiver<>(CopyableEndpoints.MARKET_DATA, dir, options);
        }

        @Override
        public long payloadBytes(long sequence) {
            return BlockCopier.of(MarketData.class).byteSize();
        }
    },
    /**
     * Trivially copyable {@link BookUpdate} appended on a source queue and read from a replica that follows it over
     * Aeron (UDP on the loopback): {@link ReplicatedEndpoints}.
     */
    REPLICATED("replicated", "trivially copyable BookUpdate, replicated over Aeron UDP") {
        @Override
        public MessageSender sender(Path dir, QueueOptions options) {
            return new ReplicatedEndpoints.Sender(dir, options);
        }

        @Override
        public MessageReceiver receiver(Path dir, QueueOptions options) {
            return new ReplicatedEndpoints.Receiver(dir, options);
        }

        @Override
        public long payloadBytes(long sequence) {
            return BlockCopier.of(BookUpdate.class).byteSize();
        }
    },
    /** No queue: one BookUpdate-sized Aeron message over UDP on the loopback, the floor of {@link #REPLICATED}. */
    AERON_FLOOR("aeron-floor", "Aeron floor (no queue: one BookUpdate-sized Aeron UDP message)") {
        @Override
        public MessageSender sender(Path dir, QueueOptions options) {
            return new AeronFloorEndpoints.Sender(dir);
        }

        @Override
        public MessageReceiver receiver(Path dir, QueueOptions options) {
            return new AeronFloorEndpoints.Receiver(dir);
        }

        @Override
        public long payloadBytes(long sequence) {
            return AeronFloorEndpoints.payloadBytes();
        }
    },
    /**
     * No queue: one cache line per message through a shared mapped ring ({@link FloorEndpoints}), with the same send
     * and receive loops: what the harness and the machine cost by themselves.
     */
    FLOOR("floor", "floor (no queue: one shared cache line per message)") {
        @Override
        public boolean usesBlitQueue() {
            return false;
        }

        @Override
        public MessageSender sender(Path dir, QueueOptions options) {
            return new FloorEndpoints.Sender(dir);
        }

        @Override
        public MessageReceiver receiver(Path dir, QueueOptions options) {
            return new FloorEndpoints.Receiver(dir);
        }

        @Override
        public long payloadBytes(long sequence) {
            return FloorEndpoints.payloadBytes();
        }
    };

    private final String cliName;
    private final String description;

    MessageKind(String cliName, String description) {
        this.cliName = cliName;
        this.description = description;
    }

    /**
     * The name on the command line and in the JSON: {@code tc}, {@code normal}, {@code md}, {@code replicated},
     * {@code aeron-floor}, {@code floor}.
     */
    @Override
    public String cliName() {
        return cliName;
    }

    @Override
    public String description() {
        return description;
    }

    /** Opens (creating if needed) the queue in {@code dir} and an appender on it ({@link #FLOOR}: its ring). */
    @Override
    public abstract MessageSender sender(Path dir, QueueOptions options);

    /** Opens (creating if needed) the queue in {@code dir} and a tailer at its start ({@link #FLOOR}: its ring). */
    @Override
    public abstract MessageReceiver receiver(Path dir, QueueOptions options);

    /** The payload size of message {@code sequence} (for the serialised kind, measured by serialising it). */
    @Override
    public abstract long payloadBytes(long sequence);
}
