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

    @Test
    void twoSpellingsOfOneAddressHaveOneCanonicalForm() {
        assertEquals("h:7001", Endpoint.canonical("h:07001"));
        assertEquals("replica.example.com:9", Endpoint.canonical("Replica.EXAMPLE.com:0009"));
        assertEquals("10.0.0.2:7001", Endpoint.canonical("010.000.0.02:7001"));
        assertEquals("[0:0:0:0:0:0:0:1]:9", Endpoint.canonical("[::1]:9"));
        assertEquals(Endpoint.canonical("[fe80::1:2]:40123"), Endpoint.canonical("[FE80:0::0:1:2]:40123"));
        assertFalse(Endpoint.canonical("h:7001").equals(Endpoint.canonical("10.0.0.2:7001")), "no name is resolved");
        for (String invalid : new String[] {"300.0.0.1:9", "[1.2.3.4]:9", "[:::]:9", "host:0"}) {
            assertThrows(IllegalArgumentException.class, () -> Endpoint.canonical(invalid), invalid);
        }
    }
}
