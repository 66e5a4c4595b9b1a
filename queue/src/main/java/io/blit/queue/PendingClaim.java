package io.blit.queue;

/**
 * A record that a tailer cannot read past yet: claimed by a writer that has not committed it
 * ({@link Tailer#pendingClaim()}). A claim is normally committed within microseconds; one that stays is either a
 * writer that is slow or stopped between its claim and its commit (alive: the tailer waits, as it must to keep the
 * order), or a writer that died (the tailer steps over the record once it has seen it unchanged for the queue's
 * abandon grace: {@link QueueOptions#abandonGrace}). Immutable.
 *
 * @param index        the claimed record's index
 * @param writer       who claimed it, for messages: {@code "writer 17 (pid 4242)"} (the claimer's writer id in the
 *                     queue directory, and its pid in its own pid namespace when known), or {@code "pid 4242"} in a
 *                     file written by a build before writer ids
 * @param writerAlive  whether that writer was alive when this was made (checked then: a system call)
 * @param watchedNanos how long the tailer has seen this claim unchanged, in nanoseconds (0: it had not seen it)
 */
public record PendingClaim(long index, String writer, boolean writerAlive, long watchedNanos) {
}
