package io.blit.replication.wire;

/**
 * How a session protects its BATCHes, stated in its ACCEPT. Every other message is authenticated whatever this is,
 * and there is no protection without a tag: nothing a peer can ask for lets a batch through unchecked.
 */
public enum BatchProtection {
    /** A tag under the session's key ({@link Sealer#sign}): the default. */
    AUTHENTICATED(0),
    /** AES-256-GCM: the entries encrypted, the tag over them and the envelope's head. */
    ENCRYPTED(1);

    final int code;

    BatchProtection(int code) {
        this.code = code;
    }

    /** The protection of {@code code}, or null if there is none. */
    static BatchProtection of(int code) {
        for (BatchProtection protection : values()) {
            if (protection.code == code) {
                return protection;
            }
        }
        return null;
    }
}
