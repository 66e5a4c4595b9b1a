package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.replication.wire.Subscribe;
import io.blit.replication.wire.Wire;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What {@code awaitReplicated} counts for a session: a sync replica holds an index only once it acknowledged it as
 * forced in this session, never because its request claimed it (what it claims may sit in its page cache only, after
 * a kill); a replica that does not sync holds what it claimed and what it acknowledged.
 */
class AcknowledgementsTest {
    private static final long CLAIMED = 1_000;

    @Test
    void aSyncReplicasClaimCountsOnlyOnceItAcknowledgesItForced() {
        SourceSession session = session(Subscribe.FLAG_SYNC);

        assertEquals(0, Acknowledgements.count(List.of(session), 0), "nothing it claimed is known to be on disk");
        assertTrue(Acknowledgements.describeBehind(List.of(session), CLAIMED - 1).contains("holds up to -1"),
                Acknowledgements.describeBehind(List.of(session), CLAIMED - 1));

        session.acknowledge(CLAIMED, CLAIMED);
        assertEquals(1, Acknowledgements.count(List.of(session), CLAIMED - 1));
        assertEquals(0, Acknowledgements.count(List.of(session), CLAIMED));
    }

    @Test
    void aReplicaThatDoesNotSyncHoldsWhatItClaimed() {
        SourceSession session = session(0);

        assertEquals(1, Acknowledgements.count(List.of(session), CLAIMED - 1));
        assertEquals(0, Acknowledgements.count(List.of(session), CLAIMED));
    }

    private static SourceSession session(int flags) {
        Subscribe.Request request = new Subscribe.Request(7, new byte[Wire.NONCE], CLAIMED, flags, "127.0.0.1:7001",
                null, null, 0L, Wire.NO_QUEUE, "127.0.0.1:7000", java.util.List.of());
        PendingHandshake handshake = new PendingHandshake(request, new byte[Wire.NONCE], null, ReplicationTest.SECRET,
                java.util.UUID.randomUUID(), "127.0.0.1:7001", 0);
        return new SourceSession(Path.of("q"), handshake, CLAIMED, java.util.List.of(), null, 1, false,
                SourceOptions.of("127.0.0.1:7000", ReplicationTest.SECRET));
    }
}
