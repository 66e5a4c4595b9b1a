package io.blit.queue.internal.format;

/**
 * The positions file's slot layout ({@code consumers.blitc}): the offsets of a slot's words, the states of its state
 * word and the longest name. Bytes specified in {@code docs/format.md} ("The positions file"); the protocol over them
 * is {@code io.blit.queue.internal.sidecar.ConsumerSlots}. Constants only.
 */
public final class ConsumerFormat {
    public static final int MAX_NAME_LENGTH = 32;
    public static final int COMMITTED_OFFSET = 0;
    public static final int HOLDER_OFFSET = 8;
    public static final int TIME_OFFSET = 16;
    public static final int STATE_OFFSET = 24;
    public static final int NAME_OFFSET = 32;
    public static final long FREE = 0;
    public static final long CLAIMING = 1;
    public static final long READY = 2;
    public static final long REMOVED = 3;
    public static final int STATE_SHIFT = 62;

    private ConsumerFormat() {
    }
}
