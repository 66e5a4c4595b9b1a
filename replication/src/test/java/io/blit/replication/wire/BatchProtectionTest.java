package io.blit.replication.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * No peer can negotiate batches without a tag: an ACCEPT names only authenticated or encrypted batches, and a
 * SUBSCRIBE carries only the flags the protocol defines (sync, encrypt), whatever system property either JVM sets.
 */
class BatchProtectionTest {
    private static final byte[] SECRET = "a shared secret of the wire tests, 32+".getBytes(StandardCharsets.UTF_8);

    @Test
    void anAcceptOfUnprotectedBatchesIsMalformed() {
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[Accept.MAX_LENGTH]);
        java.util.List<io.blit.queue.TermHistory.Term> terms = java.util.List.of(new io.blit.queue.TermHistory.Term(0, 0, 0));
        int length = 0;
        for (BatchProtection protection : BatchProtection.values()) { // an ACCEPT is sequence 0: one per key
            Sealer sealer = new Sealer(Keys.session(SECRET, new byte[Wire.NONCE], new byte[Wire.NONCE], Wire.NO_QUEUE, "127.0.0.1:1")[0]);
            length = Accept.encode(buffer, 7, protection, terms, sealer);
            assertTrue(Accept.wellFormed(buffer, length), protection.name());
            assertEquals(protection, Accept.protection(buffer));
        }
        for (int code = 2; code < 6; code++) { // 2 named unauthenticated batches for benchmarks
            Session.head(buffer, Wire.ACCEPT, code, 0);
            assertFalse(Accept.wellFormed(buffer, length), "protection code " + code);
        }
        assertEquals(2, BatchProtection.values().length, "authenticated and encrypted only");
    }

    @Test
    void aSubscribeWithAFlagTheProtocolDoesNotDefineIsMalformed() {
        HmacSha256 mac = new HmacSha256(Keys.subscribeKey(SECRET));
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[Wire.MAX_CONTROL_MESSAGE]);
        int defined = Subscribe.FLAG_SYNC | Subscribe.FLAG_ENCRYPT;
        assertNull(Subscribe.check(buffer, Subscribe.encode(buffer, request(defined), mac)));
        for (int flag = 4; flag != 0; flag <<= 1) { // 4 asked for unauthenticated batches for benchmarks
            int length = Subscribe.encode(buffer, request(defined | flag), mac);
            assertTrue(Subscribe.signed(buffer, length, mac));
            assertNotNull(Subscribe.check(buffer, length), "flag " + flag);
        }
    }

    private static Subscribe.Request request(int flags) {
        return new Subscribe.Request(42, new byte[Wire.NONCE], -1, flags, "127.0.0.1:7001", null, null, 0L, Wire.NO_QUEUE, "127.0.0.1:7000", java.util.List.of());
    }
}
