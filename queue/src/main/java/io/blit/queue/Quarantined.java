package io.blit.queue;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A quarantine queue: the records of indices {@code [from, end)} an old primary moved out of its queue when it
 * rejoined as a replica of a newer term, kept as a queue of their own under {@code <dir>/quarantine/} for an operator
 * to inspect, replay or drop (docs/failover.md, "Quarantine"). A value: what a replica reports it set aside
 * ({@code Replica.quarantined()}) and what the tools list.
 *
 * @param directory its directory, {@code <dir>/quarantine/from-<from>-<time>}
 * @param from      the index of its first record
 * @param end       the index after its last record (the live queue's end before the move)
 */
public record Quarantined(Path directory, long from, long end) {
    /**
     * A quarantine queue of indices {@code [from, end)} in {@code directory}.
     *
     * @throws NullPointerException     if {@code directory} is null
     * @throws IllegalArgumentException if {@code from} is negative or {@code end} is not above it
     */
    public Quarantined {
        Objects.requireNonNull(directory, "directory");
        if (from < 0 || end <= from) {
            throw new IllegalArgumentException("a quarantine holds indices [from, end): from=" + from + " end=" + end);
        }
    }
}
