package io.blit.queue;

import java.util.Objects;

/**
 * A named consumer was opened ({@link BlitQueue#tailer(String, NamedTailer.Options)}) or removed
 * ({@link BlitQueue#removeConsumer(String)}) while a live process holds it: a name has at most one live holder, so
 * that two readers never commit over each other. The holder is another process, or this one (a tailer of that name
 * not yet closed, in any thread). A holder whose process died is no holder: its name is taken over.
 *
 * <p>Unchecked (an {@link IllegalStateException}): the state of the queue's consumers, which may change.
 */
public final class ConsumerHeldException extends QueueException {
    private static final long serialVersionUID = 1L;

    /** The consumer's name. */
    private final String consumer;
    /** The pid of the live process that holds it. */
    private final long holderPid;

    /**
     * An exception for the consumer {@code consumer}, held by the process {@code holderPid}.
     *
     * @param message   the full message, naming the consumer, the queue and the holder's pid
     * @param consumer  the consumer's name
     * @param holderPid the pid of the live process that holds it
     */
    public ConsumerHeldException(String message, String consumer, long holderPid) {
        super(Category.HELD, message);
        this.consumer = Objects.requireNonNull(consumer, "consumer");
        this.holderPid = holderPid;
    }

    /** {@return the consumer's name} */
    public String consumer() {
        return consumer;
    }

    /** {@return the pid of the process that holds it (this process's own pid if a tailer of this process holds it)} */
    public long holderPid() {
        return holderPid;
    }
}
