package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.replication.wire.Challenge;
import io.blit.replication.wire.HmacSha256;
import io.blit.replication.wire.Keys;
import io.blit.replication.wire.Subscribe;
import java.lang.management.ManagementFactory;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * What a stranger's message costs before it is refused: checking a SUBSCRIBE's shape and HMAC, and a CHALLENGE's,
 * allocates nothing, so that a flood of forged requests makes no garbage (the HMAC is computed into arrays the
 * verifier owns).
 */
class HandshakeAllocationTest {
    private static final int MESSAGES = 100_000;

    @Test
    void refusingForgedSubscribesAndChallengesAllocatesNothing() {
        HmacSha256 source = new HmacSha256(Keys.subscribeKey(ReplicationTest.SECRET));
        HmacSha256 stranger = new HmacSha256(Keys.subscribeKey("a stranger's key, as long as a real one".getBytes()));
        HmacSha256 challenges = new HmacSha256(Keys.challengeKey(ReplicationTest.SECRET));
        UnsafeBuffer forged = new UnsafeBuffer(new byte[1024]);
        int length = Subscribe.encode(forged, new Subscribe.Request(42, new byte[16], -1, 0, "127.0.0.1:7001",
                new byte[200], null, System.currentTimeMillis(), io.blit.replication.wire.Wire.NO_QUEUE, "127.0.0.1:7000",
                java.util.List.of()), stranger);
        UnsafeBuffer challenge = new UnsafeBuffer(new byte[Challenge.LENGTH]);
        Challenge.encode(challenge, 42, new byte[16], new byte[16], 7, io.blit.replication.wire.Wire.NO_QUEUE,
                new HmacSha256(Keys.challengeKey("a stranger's key, as long as a real one".getBytes())));
        byte[] nonce = new byte[16];
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        int refused = 0;
        for (int round = 0; round < 2; round++) { // the first round warms up; the second is measured
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < MESSAGES; i++) {
                forged.putByte(32 + (i & 7), (byte) i); // another next index each time: a different request
                if (Subscribe.check(forged, length) == null && !Subscribe.signed(forged, length, source)) {
                    refused++;
                }
                if (!Challenge.answers(challenge, Challenge.LENGTH, 42, nonce, challenges)) {
                    refused++;
                }
            }
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            if (round == 1) {
                assertTrue(allocated < 4_096, MESSAGES + " forged requests and challenges allocated " + allocated
                        + " bytes");
            }
        }
        assertTrue(refused == 4 * MESSAGES, "every forged message refused: " + refused);
        assertNull(Subscribe.check(forged, length));
        assertFalse(Subscribe.signed(forged, length, source));
        UnsafeBuffer fresh = new UnsafeBuffer(new byte[1024]);
        int freshLength = Subscribe.encode(fresh, new Subscribe.Request(42, new byte[16], -1, 0, "127.0.0.1:7001",
                null, null, System.currentTimeMillis(), io.blit.replication.wire.Wire.NO_QUEUE, "127.0.0.1:7000",
                java.util.List.of()), stranger);
        assertTrue(Subscribe.signed(fresh, freshLength, stranger), "the stranger's own key opens its request");
        assertFalse(Subscribe.signed(fresh, freshLength, source));
    }
}
