package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** {@link SourceOptions} as a value: defaults, checks, a secret kept inside, receivers left alone. */
class SourceOptionsTest {
    private static final String CONTROL = "127.0.0.1:7000";
    private static final byte[] SECRET = secret(1);

    /** One change per option, each away from its default. */
    private static final List<UnaryOperator<SourceOptions>> EACH_OPTION_CHANGED = List.of(
            o -> o.aeronDir("/dev/shm/aeron-x"),
            o -> o.replicaTimeout(Duration.ofSeconds(9)),
            o -> o.batchBytes(4096),
            o -> o.mtu(8192),
            o -> o.encrypt(true),
            o -> o.advertise("Source.Example:07000", "10.0.0.1:7000"));

    private static byte[] secret(int fill) {
        byte[] secret = new byte[32];
        Arrays.fill(secret, (byte) fill);
        return secret;
    }

    private static SourceOptions defaults() {
        return SourceOptions.of(CONTROL, SECRET);
    }

    @Test
    void theDefaultsAreTheDocumentedOnes() {
        SourceOptions defaults = defaults();
        assertEquals(CONTROL, defaults.control());
        assertArrayEquals(SECRET, defaults.secret());
        assertNull(defaults.aeronDir());
        assertEquals(Duration.ofSeconds(5), defaults.replicaTimeout());
        assertEquals(60 << 10, defaults.batchBytes());
        assertEquals(1408, defaults.mtu());
        assertFalse(defaults.encrypt());
    }

    @Test
    void eachOptionMethodSetsItsOptionAndLeavesItsReceiverUnchanged() {
        SourceOptions defaults = defaults();
        SourceOptions all = defaults;
        for (UnaryOperator<SourceOptions> change : EACH_OPTION_CHANGED) {
            all = change.apply(all);
        }
        assertEquals("/dev/shm/aeron-x", all.aeronDir());
        assertEquals(Duration.ofSeconds(9), all.replicaTimeout());
        assertEquals(4096, all.batchBytes());
        assertEquals(List.of("source.example:7000", "10.0.0.1:7000"), all.advertised(), "canonical");
        assertEquals(List.of("127.0.0.1:7000"), defaults().advertised(), "the control endpoint by default");
        assertThrows(IllegalArgumentException.class, () -> defaults().advertise());
        assertThrows(IllegalArgumentException.class, () -> defaults().advertise("x|mtu=9000:1"));
        assertEquals(8192, all.mtu());
        assertTrue(all.encrypt());
        assertEquals(CONTROL, all.control());
        assertArrayEquals(SECRET, all.secret());
        assertEquals(defaults(), defaults, "every option method returned a new instance");
        assertEquals(1408, defaults.mtu());
    }

    @Test
    void theSecretIsCopiedInAndOut() {
        byte[] mine = secret(2);
        SourceOptions options = SourceOptions.of(CONTROL, mine);
        mine[0] = 9;
        assertArrayEquals(secret(2), options.secret(), "the caller's array is not kept");
        options.secret()[0] = 9;
        assertArrayEquals(secret(2), options.secret(), "a returned copy is not the held one");
    }

    @Test
    void equalsCoversEveryOptionAndTheSecretsBytes() {
        for (int i = 0; i < EACH_OPTION_CHANGED.size(); i++) {
            SourceOptions one = EACH_OPTION_CHANGED.get(i).apply(defaults());
            SourceOptions again = EACH_OPTION_CHANGED.get(i).apply(SourceOptions.of(CONTROL, secret(1)));
            assertEquals(one, again, "another array with the same bytes");
            assertEquals(one.hashCode(), again.hashCode());
            assertNotEquals(defaults(), one);
            for (int j = 0; j < i; j++) {
                assertNotEquals(EACH_OPTION_CHANGED.get(j).apply(defaults()), one, "option " + j + " against " + i);
            }
        }
        assertNotEquals(defaults(), SourceOptions.of(CONTROL, secret(3)), "another secret");
        assertNotEquals(defaults(), SourceOptions.of("127.0.0.1:7001", SECRET), "another control endpoint");
        assertNotEquals(defaults(), null);
    }

    @Test
    void toStringNamesEveryOptionButShowsOnlyTheSecretsLength() {
        String text = defaults().mtu(8192).toString();
        assertEquals("SourceOptions[control=127.0.0.1:7000, secret=(32 bytes), aeronDir=null, replicaTimeout=PT5S,"
                + " batchBytes=61440, mtu=8192, encrypt=false, advertised=[127.0.0.1:7000]]", text);
    }

    @Test
    void outOfBoundsValuesAreRefusedNamingTheValue() {
        SourceOptions defaults = defaults();
        assertEquals("batchBytes must be 1 KiB to 1 MiB, got 1023",
                assertThrows(IllegalArgumentException.class, () -> defaults.batchBytes(1023)).getMessage());
        assertEquals("batchBytes must be 1 KiB to 1 MiB, got 1048577",
                assertThrows(IllegalArgumentException.class, () -> defaults.batchBytes((1 << 20) + 1)).getMessage());
        for (int mtu : new int[] {1376, 1416, 65536}) {
            assertEquals("mtu must be a multiple of 32 from 1408 to 65504, got " + mtu,
                    assertThrows(IllegalArgumentException.class, () -> defaults.mtu(mtu)).getMessage());
        }
        IllegalArgumentException control = assertThrows(IllegalArgumentException.class,
                () -> SourceOptions.of("127.0.0.1", SECRET));
        assertTrue(control.getMessage().startsWith("an endpoint is host:port") && control.getMessage()
                .endsWith("got 127.0.0.1"), control.getMessage());
        assertEquals("secret", assertThrows(NullPointerException.class, () -> SourceOptions.of(CONTROL, null))
                .getMessage());
        assertEquals("replicaTimeout", assertThrows(NullPointerException.class, () -> defaults.replicaTimeout(null))
                .getMessage());
        assertEquals(defaults(), defaults, "a refused value changes nothing");
    }
}
