package io.blit.queue;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A segment file of a queue is not what the format says it must be: wrong magic, format version,
 * checksum or size, a truncated file, or a record header that points outside its file. The message
 * names the file and the byte offset (from the start of the file) where the problem was found.
 *
 * <p>Unchecked (an {@link IllegalStateException}): it reports the state of the queue's files, which the
 * caller cannot fix by retrying; the I/O failures of the file system itself stay {@link java.io.IOException}s
 * wrapped in {@link java.io.UncheckedIOException}.
 */
public final class QueueCorruptedException extends QueueException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    /** The byte offset of the problem from the start of the file. */
    private final long offset;

    /**
     * An exception for the problem {@code problem} found at {@code offset} in {@code file}.
     *
     * @param file    the segment file
     * @param offset  byte offset from the start of the file
     * @param problem what is wrong there
     */
    public QueueCorruptedException(Path file, long offset, String problem) {
        super(Category.CORRUPT, "corrupt queue file " + Objects.requireNonNull(file, "file") + " at byte " + offset
                + ": " + problem);
        this.file = file;
        this.offset = offset;
    }

    /**
     * An exception for the problem {@code problem} found at {@code offset} in {@code file}, found by a decoder that
     * threw {@code cause}.
     *
     * @param file    the segment file
     * @param offset  byte offset from the start of the file
     * @param problem what is wrong there
     * @param cause   the decoder's exception, kept for its stack trace
     */
    public QueueCorruptedException(Path file, long offset, String problem, Throwable cause) {
        super(Category.CORRUPT, "corrupt queue file " + Objects.requireNonNull(file, "file") + " at byte " + offset
                + ": " + problem, cause);
        this.file = file;
        this.offset = offset;
    }

    /** {@return the file in which the problem was found} */
    public Path file() {
        return file;
    }

    /** {@return the byte offset, from the start of {@link #file()}, of the problem} */
    public long offset() {
        return offset;
    }
}
