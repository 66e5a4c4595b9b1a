package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.replication.wire.Keys;
import io.blit.replication.wire.Sealer;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Tags and encryption of session messages, including forgeries that arrive before the genuine message. */
class SealerTest {
    private static final byte[][] KEYS = Keys.session(ReplicationTest.SECRET, new byte[16], new byte[16],
            io.blit.replication.wire.Wire.NO_QUEUE, "127.0.0.1:1");

    @Test
    void aSignedMessageVerifiesOnlyUnchangedAndUnderItsOwnSequence() {
        Sealer sender = new Sealer(KEYS[0]);
        Sealer receiver = new Sealer(KEYS[0]);
        byte[] message = message(1_000, 7);
        byte[] original = message.clone();
        sender.sign(message, 0, 16, 1_000, 5);
        assertArrayEquals(Arrays.copyOf(original, 1_000), Arrays.copyOf(message, 1_000), "signing changes no byte");
        for (int bit = 0; bit < 1_016 * 8; bit += 61) {
            byte[] flipped = message.clone();
            flipped[bit / 8] ^= (byte) (1 << (bit % 8));
            assertFalse(receiver.verify(flipped, 0, 16, 1_000, 5), "bit " + bit);
        }
        assertFalse(receiver.verify(message, 0, 16, 1_000, 6), "another sequence");
        assertFalse(new Sealer(KEYS[1]).verify(message, 0, 16, 1_000, 5), "the other direction's key");
        assertTrue(receiver.verify(message, 0, 16, 1_000, 5), "after forgeries under its sequence, the genuine one");
    }

    @Test
    void repeatedForgeriesUnderTheNextSequenceNeitherThrowNorBlockTheGenuineMessage() {
        Sealer sender = new Sealer(KEYS[0]);
        Sealer receiver = new Sealer(KEYS[0]);
        for (long sequence = 1; sequence <= 50; sequence++) {
            byte[] genuine = message(200, sequence);
            sender.sign(genuine, 0, 16, 200, sequence);
            for (int forgery = 0; forgery < (int) (sequence % 4); forgery++) {
                byte[] forged = genuine.clone();
                forged[200 + forgery] ^= 1;
                assertFalse(receiver.verify(forged, 0, 16, 200, sequence));
            }
            assertTrue(receiver.verify(genuine, 0, 16, 200, sequence), "sequence " + sequence);
        }
    }

    @Test
    void anEncryptedMessageHidesItsBodyAndOpensOnlyUnchanged() {
        Sealer sender = new Sealer(KEYS[0]);
        Sealer receiver = new Sealer(KEYS[0]);
        byte[] message = message(4_096, 3);
        byte[] plain = message.clone();
        sender.encrypt(message, 0, 16, 4_096, 9);
        assertArrayEquals(Arrays.copyOf(plain, 16), Arrays.copyOf(message, 16), "the head stays readable");
        assertFalse(Arrays.equals(plain, 16, 4_096, message, 16, 4_096), "the body is not");
        byte[] flipped = message.clone();
        flipped[100] ^= 4;
        assertFalse(receiver.decrypt(flipped, 0, 16, 4_096, 9));
        assertTrue(receiver.decrypt(message, 0, 16, 4_096, 9));
        assertArrayEquals(Arrays.copyOf(plain, 4_096), Arrays.copyOf(message, 4_096));
    }

    private static byte[] message(int length, long seed) {
        byte[] bytes = new byte[length + Sealer.TAG];
        new SplittableRandom(seed).nextBytes(bytes);
        return bytes;
    }
}
