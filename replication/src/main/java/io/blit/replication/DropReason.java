package io.blit.replication;

/**
 * Why a source or replica dropped a message without acting on it. Each is counted
 * ({@link ReplicationSource#dropped}, {@link Replica#dropped}) and summed up in at most one log line per
 * {@link DropLog#INTERVAL_NANOS}; nothing else is spent on such a message.
 */
public enum DropReason {
    /** Too short, too long, of an unknown type, or with lengths or counts that do not add up. */
    MALFORMED,
    /** A handshake message of another protocol version. */
    OTHER_VERSION,
    /** A SUBSCRIBE or CHALLENGE not signed with the shared secret. */
    UNSIGNED,
    /** A session message whose tag does not open under the session's key. */
    FORGED,
    /** A SUBSCRIBE whose nonce was seen before, or a session message whose sequence is not above the last. */
    REPLAYED,
    /** A signed SUBSCRIBE whose time lies more than {@code Wire.FRESHNESS_MILLIS} (30 s) from the source's clock. */
    STALE,
    /**
     * A signed SUBSCRIBE meant for another source: it names a control endpoint this source is not known by
     * ({@link SourceOptions#advertised}); or one that reached a source serving a replica directory that has not yet
     * taken its queue's id from its own source.
     */
    OTHER_SOURCE,
    /** From a peer or Aeron session that is not the one authenticated (or answering no open handshake). */
    FOREIGN,
    /**
     * Beyond a limit: a pending handshake dropped to make room for a newer request when the source's handshake slots
     * (16, 2 per data endpoint) are taken, or a fragmented message whose assembly slot went to a newer one.
     */
    OVER_LIMIT,
    /** A handshake whose challenge was not answered in time (its publication is closed). */
    UNANSWERED,
    /**
     * A well-formed SUBSCRIBE whose data endpoint Aeron refused a publication to (e.g. a host name that does not
     * resolve): the request is dropped; its replica asks again after its source timeout.
     */
    UNREACHABLE
}
