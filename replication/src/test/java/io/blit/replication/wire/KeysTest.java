package io.blit.replication.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * The keys and MACs come from the JDK ({@code KDF} HKDF-SHA256, {@code Mac} HmacSHA256) and give the protocol's bytes:
 * RFC 5869's and RFC 4231's vectors, and the protocol's keys for a fixed secret and nonces as the wire has always
 * derived them (computed independently: HKDF-Extract = HMAC(salt, secret), HKDF-Expand of one block =
 * HMAC(prk, info || 0x01)).
 */
class KeysTest {
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void hkdfGivesRfc5869TestCaseOne() {
        byte[] ikm = HEX.parseHex("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b");
        byte[] salt = HEX.parseHex("000102030405060708090a0b0c");
        byte[] prk = Keys.extract(salt, ikm);
        assertEquals("077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5", HEX.formatHex(prk));
        byte[] info = HEX.parseHex("f0f1f2f3f4f5f6f7f8f9");
        // the first 32 of the RFC's 42 output bytes (one block, what the protocol uses)
        assertEquals("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf",
                HEX.formatHex(Keys.expand(prk, info)));
    }

    @Test
    void theProtocolsKeysAreTheSameBytesAsBefore() {
        byte[] secret = new byte[32];
        for (int i = 0; i < secret.length; i++) {
            secret[i] = (byte) i;
        }
        assertEquals("3439fb19166ab4fa0f2234b3248dfaec6a6787938627a09c2c308c78e3bca534",
                HEX.formatHex(Keys.subscribeKey(secret)));
        assertEquals("c316e56e204a0ab61481b6a24239c7dddf21b2dbb0cebd4cae163e591c48deb3",
                HEX.formatHex(Keys.challengeKey(secret)));
        byte[] replicaNonce = HEX.parseHex("a5".repeat(16));
        byte[] sourceNonce = HEX.parseHex("5a".repeat(16));
        // salt = replica nonce | source nonce | queue id (most, least significant, LE) | source endpoint (ASCII);
        // the expected keys computed outside Java (Python's hmac and hashlib, RFC 5869 by hand)
        java.util.UUID queue = new java.util.UUID(0x0123456789ABCDEFL, 0x0FEDCBA987654321L);
        byte[][] session = Keys.session(secret, replicaNonce, sourceNonce, queue, "source.example:7000");
        assertEquals("f257b3002404a8bd487a13e3b641efcaaea04811b71f8b4f864081fdaabf54a8", HEX.formatHex(session[0]));
        assertEquals("790a77acc4189005b8ebd4bc1e71003591e53d6c9fe72a5cfaff13d56446530e", HEX.formatHex(session[1]));
        assertFalse(java.util.Arrays.equals(session[0], Keys.session(secret, replicaNonce, sourceNonce,
                new java.util.UUID(0x0123456789ABCDEFL, 0x0FEDCBA987654322L), "source.example:7000")[0]),
                "another queue, other keys");
        assertFalse(java.util.Arrays.equals(session[0], Keys.session(secret, replicaNonce, sourceNonce, queue,
                "source.example:7001")[0]), "another source endpoint, other keys");
    }

    @Test
    void hmacGivesRfc4231TestCaseTwoAndVerifiesInPlace() {
        HmacSha256 mac = new HmacSha256("Jefe".getBytes(StandardCharsets.US_ASCII));
        byte[] data = "what do ya want for nothing?".getBytes(StandardCharsets.US_ASCII);
        String expected = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843";
        assertEquals(expected, HEX.formatHex(mac.start().update(data, 0, data.length).finish()));
        UnsafeBuffer signed = new UnsafeBuffer(new byte[data.length + HmacSha256.LENGTH]);
        signed.putBytes(0, data);
        signed.putBytes(data.length, HEX.parseHex(expected));
        assertTrue(mac.verify(signed, 0, data.length, data.length, HmacSha256.LENGTH));
        signed.putByte(data.length + 31, (byte) (signed.getByte(data.length + 31) ^ 1));
        assertFalse(mac.verify(signed, 0, data.length, data.length, HmacSha256.LENGTH), "one bit of the tag changed");
    }
}
