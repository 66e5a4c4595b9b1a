package io.blit.failover.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
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
    void aMemberReadsBackAsWrittenAndMalformedIsNone() {
        GroupZnodes.Member member = new GroupZnodes.Member(4, 123);
        assertEquals(member, GroupZnodes.Member.decode(member.encode()));
        assertEquals(GroupZnodes.Member.NONE, GroupZnodes.Member.decode("4".getBytes(StandardCharsets.UTF_8)));
        assertEquals(GroupZnodes.Member.NONE, GroupZnodes.Member.decode(null));
    }

    @Test
    void aGroupThatNeverPromotedIsAtTermZero() {
        assertEquals(0, GroupZnodes.decodeTerm(new byte[0]));
        assertEquals(9, GroupZnodes.decodeTerm(GroupZnodes.encodeTerm(9)));
    }
}
