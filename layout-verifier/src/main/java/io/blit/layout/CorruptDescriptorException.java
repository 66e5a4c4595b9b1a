package io.blit.layout;

/**
 * The bytes where a {@link LayoutDescriptor} was expected are not one: truncated, corrupted, written
 * by another format version, or not a descriptor at all. The message names the byte offset (relative
 * to the start of the segment) and what was wrong there.
 */
public final class CorruptDescriptorException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** The byte offset, from the start of the segment, where the problem was found. */
    private final long offset;

    CorruptDescriptorException(long offset, String problem) {
        super("corrupt layout descriptor at byte " + offset + ": " + problem);
        this.offset = offset;
    }

    CorruptDescriptorException(long offset, String problem, Throwable cause) {
        this(offset, problem);
        initCause(cause);
    }

    /** {@return the byte offset, from the start of the segment, where the problem was found} */
    public long offset() {
        return offset;
    }
}
