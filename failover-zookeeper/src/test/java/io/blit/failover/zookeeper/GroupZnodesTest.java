package io.blit.failover.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The znodes' text, and the ranking by which the most up-to-date member is elected. */
class GroupZnodesTest {

    @Test
    void aLeaderReadsBackAsWritten() {
        GroupZnodes.Leader leader = new GroupZnodes.Leader(7, "10.0.0.1:7000", "node-a");
        assertEquals("7 10.0.0.1:7000 node-a", new String(leader.encode(), StandardCharsets.UTF_8));
        assertEquals(leader, GroupZnodes.Leader.decode(leader.encode()));
    }

    @Test
    void anEmptyOrMalformedLeaderIsNone() {
        assertNull(GroupZnodes.Leader.decode(new byte[0]));
        assertNull(GroupZnodes.Leader.decode(null));
        assertNull(GroupZnodes.Leader.decode("x 10.0.0.1:7000 a".getBytes(StandardCharsets.UTF_8)));
        assertNull(GroupZnodes.Leader.decode("1 10.0.0.1:7000".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void membersRankByTermThenByEndIndex() {
        GroupZnodes.Member older = new GroupZnodes.Member(2, 1_000_000);
        GroupZnodes.Member newerShorter = new GroupZnodes.Member(3, 10);
        GroupZnodes.Member newerLonger = new GroupZnodes.Member(3, 11);
        assertTrue(newerShorter.compareTo(older) > 0, "a higher term ranks above a longer queue of a lower one");
        assertTrue(newerLonger.compareTo(newerShorter) > 0);
        assertEquals(0, newerLonger.compareTo(new GroupZnodes.Member(3, 11)));
        assertTrue(GroupZnodes.Member.NONE.compareTo(new GroupZnodes.Member(0, 0)) < 0, "no queue ranks lowest");
    }

    @Test
    void aMemberReadsBackAsWrittenAndMalformedIsNull() {
        GroupZnodes.Member member = new GroupZnodes.Member(4, 123);
        assertEquals(member, GroupZnodes.Member.decode(member.encode()));
        assertEquals(GroupZnodes.Member.NONE, GroupZnodes.Member.decode(GroupZnodes.Member.NONE.encode()));
        for (String malformed : new String[] {"4", "", "4 123 ", " 4 123", "4  123", "04 123", "+4 123", "4 -1",
                "-1 5", "4 99999999999999999999", "4294967295 0", "x y", "4\t123"}) {
            assertNull(GroupZnodes.Member.decode(bytes(malformed)), "'" + malformed + "'");
        }
        assertNull(GroupZnodes.Member.decode(null));
        assertEquals(new GroupZnodes.Member(4294967294L, Long.MAX_VALUE),
                GroupZnodes.Member.decode(bytes("4294967294 " + Long.MAX_VALUE)), "the highest term a group may reach");
    }

    @Test
    void aLeaderIsParsedStrictlyWithATermBelowTheHighest() {
        assertEquals(new GroupZnodes.Leader(3, "[::1]:7000", "b"), GroupZnodes.Leader.decode(bytes("3 [::1]:7000 b")));
        assertEquals(new GroupZnodes.Leader(3, "zk-1.example:7000", "b"),
                GroupZnodes.Leader.decode(bytes("3 zk-1.example:7000 b")));
        for (String malformed : new String[] {"4294967295 127.0.0.1:9 evil", "99999999999999999999 127.0.0.1:9 a",
                "-1 127.0.0.1:9 a", "03 127.0.0.1:9 a", "3 127.0.0.1:9 a ", "3 127.0.0.1:9  a", "3 127.0.0.1 a",
                "3 127.0.0.1:0 a", "3 127.0.0.1:65536 a", "3 127.0.0.1:9 a/b", "3 127.0.0.1:9 a b"}) {
            assertNull(GroupZnodes.Leader.decode(bytes(malformed)), "'" + malformed + "'");
        }
    }

    @Test
    void aGroupThatNeverPromotedIsAtTermZeroAndAMalformedTermIsNone() {
        assertEquals(0, GroupZnodes.decodeTerm(new byte[0]));
        assertEquals(0, GroupZnodes.decodeTerm(null));
        assertEquals(9, GroupZnodes.decodeTerm(GroupZnodes.encodeTerm(9)));
        assertEquals(GroupZnodes.MAX_GROUP_TERM, GroupZnodes.decodeTerm(GroupZnodes.encodeTerm(4294967294L)));
        for (String malformed : new String[] {"x", "4294967295", "-1", "09", " 9", "9\n", "1e3",
                "99999999999999999999"}) {
            assertEquals(GroupZnodes.MALFORMED, GroupZnodes.decodeTerm(bytes(malformed)), "'" + malformed + "'");
        }
    }

    @Test
    void theElectionIsHeldByTheChildWithTheLowestSequenceAsCuratorRanksThem() {
        Map<String, byte[]> children = new LinkedHashMap<>();
        children.put("_c_1f0e-latch-0000000007", bytes("b"));
        children.put("_c_9a3c-latch-0000000004", bytes("a"));
        children.put("_c_0000-latch-0000000009", bytes("c"));
        assertEquals("a", GroupZnodes.electionHolder(children));
        assertEquals(List.of("_c_9a3c-latch-0000000004", "_c_1f0e-latch-0000000007", "_c_0000-latch-0000000009"),
                GroupZnodes.electionOrder(List.copyOf(children.keySet())));
        assertNull(GroupZnodes.electionHolder(Map.of()));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aHandoverAndARequestAreParsedStrictly() {
        GroupZnodes.Handover handover = new GroupZnodes.Handover(3, 731244, "node-a", "node-b");
        assertEquals(handover, GroupZnodes.Handover.decode(handover.encode()));
        for (String bad : new String[] {"", "3 731244 node-a", "03 731244 node-a node-b", "3  731244 node-a node-b",
                "0 731244 node-a node-b", "3 731244 node-a node-a", "3 -1 node-a node-b", "4294967295 1 a b",
                "3 731244 node-a node-b ", "3 99999999999999999999 node-a node-b", "3 7 node/a node-b"}) {
            assertNull(GroupZnodes.Handover.decode(bad.getBytes(StandardCharsets.UTF_8)), bad);
        }
        assertEquals("node-b", GroupZnodes.decodeRequest("node-b".getBytes(StandardCharsets.UTF_8)));
        for (String bad : new String[] {"", " node-b", "node-b\n", "node b", "x".repeat(65)}) {
            assertNull(GroupZnodes.decodeRequest(bad.getBytes(StandardCharsets.UTF_8)), bad);
        }
        assertNull(GroupZnodes.decodeRequest(null));
    }
}
