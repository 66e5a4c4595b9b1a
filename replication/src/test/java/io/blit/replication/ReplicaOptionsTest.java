package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.core.BlockCopier;
import io.blit.queue.MessageTypes;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** {@link ReplicaOptions} as a value: defaults, checks, a secret kept inside, receivers left alone. */
class ReplicaOptionsTest {
    private static final String SOURCE = "127.0.0.1:7000";
    private static final String ENDPOINT = "127.0.0.1:7001";
    private static final byte[] SECRET = secret(1);
    private static final MessageTypes<Object> TYPES = MessageTypes.builder(Object.class)
            .add(1, Tick.class).add(2, OtherTick.class).build();

    /** One change per option, each away from its default. */
    private static final List<UnaryOperator<ReplicaOptions>> EACH_OPTION_CHANGED = List.of(
            o -> o.sync(true),
            o -> o.expectedTypes(TYPES),
            o -> o.expectedLayout(BlockCopier.of(Tick.class).layout().descriptor()),
            o -> o.aeronDir("/dev/shm/aeron-x"),
            o -> o.sourceTimeout(Duration.ofSeconds(9)),
            o -> o.requireEncryption(true),
            o -> o.privateFiles(true),
            o -> o.rejoin(true),
            o -> o.verifyOnStart(true));

    private static byte[] secret(int fill) {
        byte[] secret = new byte[32];
        Arrays.fill(secret, (byte) fill);
        return secret;
    }

    private static ReplicaOptions defaults() {
        return ReplicaOptions.of(SOURCE, ENDPOINT, SECRET);
    }

    @Test
    void theDefaultsAreTheDocumentedOnes() {
        ReplicaOptions defaults = defaults();
        assertEquals(SOURCE, defaults.source());
        assertEquals(ENDPOINT, defaults.endpoint());
        assertArrayEquals(SECRET, defaults.secret());
        assertFalse(defaults.sync());
        assertNull(defaults.expectedLayouts());
        assertNull(defaults.aeronDir());
        assertEquals(Duration.ofSeconds(2), defaults.sourceTimeout());
        assertFalse(defaults.requireEncryption());
        assertFalse(defaults.privateFiles());
        assertFalse(defaults.rejoin());
        assertFalse(defaults.verifyOnStart());
    }

    @Test
    void eachOptionMethodSetsItsOptionAndLeavesItsReceiverUnchanged() {
        ReplicaOptions defaults = defaults();
        ReplicaOptions all = defaults.sync(true).expectedTypes(TYPES).aeronDir("/dev/shm/aeron-x")
                .sourceTimeout(Duration.ofSeconds(9)).requireEncryption(true).privateFiles(true)
                .rejoin(true).verifyOnStart(true);
        assertTrue(all.sync());
        assertEquals(List.of(1, 2), List.copyOf(all.expectedLayouts().classNames().keySet()));
        assertEquals("/dev/shm/aeron-x", all.aeronDir());
        assertEquals(Duration.ofSeconds(9), all.sourceTimeout());
        assertTrue(all.requireEncryption());
        assertTrue(all.privateFiles());
        assertTrue(all.rejoin());
        assertTrue(all.verifyOnStart());
        assertEquals(SOURCE, all.source());
        assertEquals(ENDPOINT, all.endpoint());
        assertArrayEquals(SECRET, all.secret());
        assertNull(all.expectedLayout(null).expectedLayouts(), "null: any layout");
        assertNull(all.expectedTypes(null).expectedLayouts(), "null: any layout");
        assertEquals(defaults(), defaults, "every option method returned a new instance");
        assertFalse(defaults.sync());
        assertNull(defaults.expectedLayouts());
    }

    @Test
    void theSecretIsCopiedInAndOut() {
        byte[] mine = secret(2);
        ReplicaOptions options = ReplicaOptions.of(SOURCE, ENDPOINT, mine);
        mine[0] = 9;
        assertArrayEquals(secret(2), options.secret(), "the caller's array is not kept");
        options.secret()[0] = 9;
        assertArrayEquals(secret(2), options.secret(), "a returned copy is not the held one");
    }

    @Test
    void equalsCoversEveryOptionTheSecretsBytesAndTheExpectedLayoutsEncoding() {
        for (int i = 0; i < EACH_OPTION_CHANGED.size(); i++) {
            ReplicaOptions one = EACH_OPTION_CHANGED.get(i).apply(defaults());
            ReplicaOptions again = EACH_OPTION_CHANGED.get(i).apply(ReplicaOptions.of(SOURCE, ENDPOINT, secret(1)));
            assertEquals(one, again, "another secret array and other TypeLayouts of the same bytes");
            assertEquals(one.hashCode(), again.hashCode());
            assertNotEquals(defaults(), one);
            for (int j = 0; j < i; j++) {
                assertNotEquals(EACH_OPTION_CHANGED.get(j).apply(defaults()), one, "option " + j + " against " + i);
            }
        }
        assertNotEquals(defaults(), ReplicaOptions.of(SOURCE, ENDPOINT, secret(3)), "another secret");
        assertNotEquals(defaults(), ReplicaOptions.of(SOURCE, "127.0.0.1:7002", SECRET), "another endpoint");
        assertNotEquals(defaults(), ReplicaOptions.of("127.0.0.1:7003", ENDPOINT, SECRET), "another source");
        assertNotEquals(defaults(), null);
    }

    @Test
    void toStringNamesEveryOptionButShowsOnlyTheSecretsLength() {
        assertEquals("ReplicaOptions[source=127.0.0.1:7000, endpoint=127.0.0.1:7001, secret=(32 bytes), sync=true,"
                + " expectedLayouts=null, aeronDir=null, sourceTimeout=PT2S, requireEncryption=false,"
                + " privateFiles=false, rejoin=false, verifyOnStart=false]", defaults().sync(true).toString());
    }

    @Test
    void outOfBoundsValuesAreRefusedNamingTheValue() {
        IllegalArgumentException endpoint = assertThrows(IllegalArgumentException.class,
                () -> ReplicaOptions.of(SOURCE, "127.0.0.1:0", SECRET));
        assertTrue(endpoint.getMessage().startsWith("an endpoint is host:port") && endpoint.getMessage()
                .endsWith("got 127.0.0.1:0"), endpoint.getMessage());
        IllegalArgumentException source = assertThrows(IllegalArgumentException.class,
                () -> ReplicaOptions.of("no-port", ENDPOINT, SECRET));
        assertTrue(source.getMessage().endsWith("got no-port"), source.getMessage());
        assertEquals("secret", assertThrows(NullPointerException.class, () -> ReplicaOptions.of(SOURCE, ENDPOINT, null))
                .getMessage());
        ReplicaOptions defaults = defaults();
        assertEquals("sourceTimeout", assertThrows(NullPointerException.class, () -> defaults.sourceTimeout(null))
                .getMessage());
        assertEquals(defaults(), defaults, "a refused value changes nothing");
    }
}
