package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The one endpoint grammar: what passes becomes one channel parameter, nothing else passes. */
class EndpointTest {
    @Test
    void hostNamesIpv4AndBracketedIpv6WithAPortPass() {
        for (String valid : new String[] {"127.0.0.1:7000", "localhost:1", "replica-2.example.com:65535", "[::1]:9",
                "[fe80::1:2]:40123", "a:80"}) {
            assertTrue(Endpoint.isValid(valid), valid);
            assertEquals("aeron:udp?endpoint=" + valid, Endpoint.udp(valid));
        }
    }

    @Test
    void anythingElseIsRefusedAndNeverReachesAChannel() {
        for (String invalid : new String[] {"x|term-length=1073741824|endpoint=victim:9", "127.0.0.1:7000|mtu=9000",
                "host:0", "host:65536", "host:123456", "host:", ":80", "host", "a b:1", "host:+1", "ho_st:1", "-a:1",
                "a-:1", "a..b:1", "[::1:9", "[::1]x:9", "x?y=1:9", "x,y:9", "x=y:9", "h\n:9", "", "a".repeat(64) + ":1",
                ("abc.".repeat(64)) + "x:1"}) {
            assertFalse(Endpoint.isValid(invalid), invalid);
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> Endpoint.udp(invalid));
            assertTrue(refused.getMessage().contains("an endpoint is host:port"), refused.getMessage());
        }
        assertFalse(Endpoint.isValid(null));
    }
}
