package io.blit.queue;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A named consumer of a queue as {@link BlitQueue#consumers()} read it from the positions file: a snapshot, not kept
 * up to date.
 *
 * @param name           the consumer's name
 * @param committedIndex the index of the last message it committed ({@link NamedTailer#commit()}), or -1 if none;
 *                       a new consumer's start counts as a commit of the index before it
 * @param lag            how many indices follow the committed one up to the end of the queue when the snapshot was
 *                       taken: {@code endIndex - committedIndex - 1}, where {@code endIndex} is what
 *                       {@link BlitQueue#endIndex()} returned right after the committed indices were read (so never
 *                       negative); indices of abandoned records count
 * @param holderPid      the pid of the live process whose tailer holds the name, or empty if none does (never opened,
 *                       closed, or its process died)
 * @param lastCommit     when it last committed (millisecond precision), or empty if it never did
 */
public record ConsumerPosition(String name, long committedIndex, long lag, OptionalLong holderPid,
                               Optional<Instant> lastCommit) {
    /**
     * Checks that no component is null.
     *
     * @throws NullPointerException if a reference is null
     */
    public ConsumerPosition {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(holderPid, "holderPid");
        Objects.requireNonNull(lastCommit, "lastCommit");
    }
}
