package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What {@link SourceOptions} and {@link ReplicaOptions} accept. */
class OptionsTest {
    @Test
    void aSecretHasAtLeast32Bytes() {
        for (int length : new int[] {0, 16, 31}) {
            IllegalArgumentException source = assertThrows(IllegalArgumentException.class,
                    () -> SourceOptions.of("127.0.0.1:7000", new byte[length]));
            assertTrue(source.getMessage().contains("at least 32 bytes") && source.getMessage().contains("got " + length),
                    source.getMessage());
            IllegalArgumentException replica = assertThrows(IllegalArgumentException.class,
                    () -> ReplicaOptions.of("127.0.0.1:7000", "127.0.0.1:7001", new byte[length]));
            assertTrue(replica.getMessage().contains("at least 32 bytes"), replica.getMessage());
        }
        byte[] secret = new byte[32];
        assertArrayEquals(secret, SourceOptions.of("127.0.0.1:7000", secret).secret());
        assertArrayEquals(secret, ReplicaOptions.of("127.0.0.1:7000", "127.0.0.1:7001", secret).secret());
    }

    @Test
    void aReplicasFilesArePrivateOnlyWhenAsked() {
        ReplicaOptions defaults = ReplicaOptions.of("127.0.0.1:7000", "127.0.0.1:7001", new byte[32]);
        assertFalse(defaults.privateFiles());
        ReplicaOptions options = defaults.sync(true).privateFiles(true).sourceTimeout(Duration.ofSeconds(3))
                .aeronDir("/tmp/a").expectedLayout(null);
        assertTrue(options.privateFiles(), "every other option keeps it");
        assertTrue(options.sync());
        assertEquals(Duration.ofSeconds(3), options.sourceTimeout());
        assertFalse(options.privateFiles(false).privateFiles());
    }
}
