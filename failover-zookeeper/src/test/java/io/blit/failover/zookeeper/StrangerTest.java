package io.blit.failover.zookeeper;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.replica.QueueTerms;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stranger to the group, an unauthenticated ZooKeeper client of its servers, writes the group's {@code leader},
 * {@code term} and {@code members} and deletes members: with authentication configured the servers refuse it
 * (NoAuth); without (ZooKeeper's world ACL, the default) the nodes parse every value strictly, check it against the
 * others and restore what is theirs, and the group keeps a primary, within a session timeout plus an election.
 */
class StrangerTest {
    private static final Duration SESSION = Duration.ofSeconds(3);
    /** How long a group may be without a primary: a session timeout plus an election (with the tests' slack). */
    private static final Duration BOUND = SESSION.plusSeconds(10);
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String PASSWORD = "a password of the failover tests";
    private static final String EVIL = "4294967295 127.0.0.1:9 evil";

    @TempDir
    Path root;

    @Test
    void withDigestAuthTheServersRefuseAStrangerEveryZnodeOfTheGroupEvenOnesItCreatedBefore() throws Exception {
        try (Group group = new Group(root, SESSION, "a", "b");
             CuratorFramework stranger = group.stranger()) {
            // the group's znodes exist from a time without authentication: world-writable
            for (String path : List.of(GroupZnodes.term(Group.PATH), GroupZnodes.leader(Group.PATH),
                    GroupZnodes.members(Group.PATH))) {
                stranger.create().creatingParentsIfNeeded().forPath(path, new byte[0]);
            }
            group.seed("a", 10);
            group.start("a", group.zookeeper.getConnectString(), options -> options.digestAuth("blit", PASSWORD));
            group.start("b", group.zookeeper.getConnectString(), options -> options.digestAuth("blit", PASSWORD));
            FailoverNode primary = group.awaitPrimary(WAIT);
            assertEquals("a", primary.nodeId());
            Group.awaitEnd(group.dir("b"), 10, WAIT);

            String term = GroupZnodes.term(Group.PATH);
            String leader = GroupZnodes.leader(Group.PATH);
            String members = GroupZnodes.members(Group.PATH);
            String memberB = GroupZnodes.member(Group.PATH, "b");
            Group.await(() -> refused(() -> stranger.setData().forPath(term, bytes("x"))), WAIT,
                    () -> "the nodes secure the znodes the stranger created");
            assertRefused(() -> stranger.setData().forPath(leader, bytes(EVIL)));
            assertRefused(() -> stranger.setData().forPath(term, bytes("x")));
            assertRefused(() -> stranger.getData().forPath(leader));
            assertRefused(() -> stranger.getData().forPath(term));
            String evil = GroupZnodes.member(Group.PATH, "evil");
            assertRefused(() -> stranger.create().forPath(evil, bytes("4294967295 0")));
            assertRefused(() -> stranger.setData().forPath(memberB, bytes("4294967295 0")));
            assertRefused(() -> stranger.delete().forPath(memberB));
            assertRefused(() -> stranger.getChildren().forPath(members));
            assertRefused(() -> stranger.getChildren().forPath(GroupZnodes.election(Group.PATH)));
            assertRefused(() -> stranger.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(leader));
            assertRefused(() -> stranger.delete().forPath(leader));

            // the group works on: a failover under authentication
            group.stop("a");
            assertEquals("b", group.awaitPrimary(BOUND).nodeId());
            assertEquals(QueueTerms.Role.FENCED, QueueTerms.status(group.dir("a")).role());
        }
    }

    @Test
    void withoutAuthAStrangersLeaderTermAndMembersAreIgnoredAndRestoredAndTheGroupKeepsItsPrimary() throws Exception {
        try (Group group = new Group(root, SESSION, "a", "b", "c");
             CuratorFramework stranger = group.stranger()) {
            group.seed("a", 10);
            group.start("a");
            group.start("b");
            group.start("c");
            FailoverNode primary = group.awaitPrimary(WAIT);
            assertEquals("a", primary.nodeId());
            long term = primary.state().term();
            String leaderPath = GroupZnodes.leader(Group.PATH);
            String termPath = GroupZnodes.term(Group.PATH);
            byte[] leader = stranger.getData().forPath(leaderPath);

            // a leader of the highest term, at an endpoint of the stranger's
            stranger.setData().forPath(leaderPath, bytes(EVIL));
            assertPrimaryHoldsAndNobodyFollowsEvil(group, "a");
            // a leader of the group's term that does not hold the election
            stranger.setData().forPath(leaderPath, bytes(term + " 127.0.0.1:9 evil"));
            assertPrimaryHoldsAndNobodyFollowsEvil(group, "a");
            // a leader of a higher term, with the group's term raised to match it
            stranger.transaction().forOperations(
                    stranger.transactionOp().setData().forPath(termPath, bytes(Long.toString(term + 5))),
                    stranger.transactionOp().setData().forPath(leaderPath, bytes((term + 5) + " 127.0.0.1:9 evil")));
            assertPrimaryHoldsAndNobodyFollowsEvil(group, "a");

            // a term that is not one, members of nodes that do not exist, a member rewritten, one deleted
            String memberB = GroupZnodes.member(Group.PATH, "b");
            String memberC = GroupZnodes.member(Group.PATH, "c");
            byte[] b = stranger.getData().forPath(memberB);
            byte[] c = stranger.getData().forPath(memberC);
            stranger.setData().forPath(termPath, bytes("not a term"));
            stranger.create().forPath(GroupZnodes.member(Group.PATH, "evil"), bytes("4294967295 0"));
            stranger.create().forPath(GroupZnodes.member(Group.PATH, "ghost"), bytes("4294967294 0"));
            stranger.setData().forPath(memberB, bytes("4294967294 0"));
            stranger.delete().forPath(memberC);
            assertPrimaryHoldsAndNobodyFollowsEvil(group, "a");
            Group.await(() -> same(stranger, termPath, Long.toString(term).getBytes(StandardCharsets.UTF_8))
                            && same(stranger, leaderPath, leader) && same(stranger, memberB, b)
                            && same(stranger, memberC, c), BOUND,
                    () -> "the primary restores the term and the leader, each member its own znode");

            // the failover after it all: the next primary within a session timeout and an election
            group.stop("a");
            FailoverNode next = group.awaitPrimary(BOUND);
            assertNotEquals("a", next.nodeId());
            assertEquals(term + 1, next.state().term(), "one above the group's term, not the stranger's");
        }
    }

    @Test
    void aMalformedTermAndLeaderAndStrangersMembersDoNotKeepANewGroupFromElectingItsPrimary() throws Exception {
        try (Group group = new Group(root, SESSION, "a", "b", "c");
             CuratorFramework stranger = group.stranger()) {
            stranger.create().creatingParentsIfNeeded().forPath(GroupZnodes.term(Group.PATH), bytes("not a term"));
            stranger.create().forPath(GroupZnodes.leader(Group.PATH), bytes(EVIL));
            stranger.create().creatingParentsIfNeeded().forPath(GroupZnodes.member(Group.PATH, "evil"),
                    bytes("4294967295 0"));
            stranger.create().forPath(GroupZnodes.member(Group.PATH, "ghost"), bytes("4294967294 0"));
            group.seed("a", 10);
            group.start("a");
            group.start("b");
            group.start("c");
            FailoverNode primary = group.awaitPrimary(BOUND);
            assertEquals("a", primary.nodeId(), group.states());
            assertEquals(2, primary.state().term(), "the seed's term 0, its fence 1, the election 2");
            assertEquals("2", new String(stranger.getData().forPath(GroupZnodes.term(Group.PATH)),
                    StandardCharsets.UTF_8));
        }
    }

    @Test
    void aPrimaryWhoseElectionZnodeTheStrangerDeletesFencesItselfAndTheNextNodeIsElected() throws Exception {
        try (Group group = new Group(root, SESSION, "a", "b", "c");
             CuratorFramework stranger = group.stranger()) {
            group.seed("a", 10);
            group.start("a");
            group.start("b");
            group.start("c");
            assertEquals("a", group.awaitPrimary(WAIT).nodeId());
            Group.awaitEnd(group.dir("b"), 10, WAIT);
            Group.awaitEnd(group.dir("c"), 10, WAIT);
            String election = GroupZnodes.election(Group.PATH);
            String ours = null;
            for (String child : stranger.getChildren().forPath(election)) {
                if (new String(stranger.getData().forPath(election + "/" + child), StandardCharsets.UTF_8)
                        .equals("a")) {
                    ours = election + "/" + child;
                }
            }
            assertNotNull(ours);
            stranger.delete().forPath(ours);

            Group.await(() -> group.node("a").state().role() != FailoverNode.Role.PRIMARY, BOUND,
                    () -> "the old primary gives its term up: " + group.states());
            FailoverNode next = group.awaitPrimary(BOUND);
            assertNotEquals("a", next.nodeId(), group.states());
            assertEquals(3, next.state().term());
            assertTrue(QueueTerms.status(group.dir("a")).fenceTerm() >= 3, "the old primary fenced itself");
        }
    }

    /**
     * The stranger deletes the member znode of the most up-to-date node b at the moment a stale node c is elected,
     * while b's ZooKeeper traffic is held up: c must not take over (b's acknowledged records would be quarantined);
     * it waits for b to publish again, and b is elected.
     */
    @Test
    void aStaleNodeElectedWhileTheStrangerDeletedAnUpToDateMembersZnodeDoesNotWin() throws Exception {
        try (Group group = new Group(root, SESSION, "a", "b", "c");
             TcpProxy proxy = new TcpProxy(group.zookeeper.getPort());
             CuratorFramework stranger = group.stranger()) {
            group.seed("a", 10);
            group.start("a");
            group.start("b");
            group.start("c");
            assertEquals("a", group.awaitPrimary(WAIT).nodeId());
            FailoverNodeTest.append(group.dir("a"), 10, 110, 1);
            Group.awaitEnd(group.dir("b"), 110, WAIT);
            Group.awaitEnd(group.dir("c"), 110, WAIT);
            group.stop("c");
            FailoverNodeTest.append(group.dir("a"), 110, 160, 1); // acknowledged by b alone
            Group.awaitEnd(group.dir("b"), 160, WAIT);
            group.stop("b");
            group.stop("a");

            // the stranger holds the election while c and then b (behind the proxy) join it: c is next in line
            String ghost = stranger.create().creatingParentContainersIfNeeded()
                    .withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
                    .forPath(GroupZnodes.election(Group.PATH) + "/latch-", bytes("ghost"));
            group.start("c");
            group.start("b", proxy.address());
            String memberB = GroupZnodes.member(Group.PATH, "b");
            String memberC = GroupZnodes.member(Group.PATH, "c");
            Group.await(() -> same(stranger, memberB, bytes("2 160")) && same(stranger, memberC, bytes("2 110"))
                    && participants(stranger) == 3, WAIT, () -> "b and c in the election and published");

            proxy.pause();
            stranger.transaction().forOperations(stranger.transactionOp().delete().forPath(memberB),
                    stranger.transactionOp().delete().forPath(ghost));
            Thread.sleep(1_000);
            proxy.resume();

            FailoverNode primary = group.awaitPrimary(BOUND);
            assertEquals("b", primary.nodeId(), "the node with the acknowledged records: " + group.states());
            assertEquals(160, QueueTerms.status(group.dir("b")).termStart());
            FailoverNodeTest.assertHolds(group.dir("b"), 10, 160, 1);
            assertFalse(Files.exists(group.dir("b").resolve("quarantine")), "nothing of b's was quarantined");
        }
    }

    /** Samples every node for a while: the primary stays, no node follows "evil". */
    private static void assertPrimaryHoldsAndNobodyFollowsEvil(Group group, String primary)
            throws InterruptedException {
        long end = System.nanoTime() + Duration.ofMillis(1_500).toNanos();
        while (System.nanoTime() - end < 0) {
            for (String id : List.of("a", "b", "c")) {
                FailoverNode node = group.node(id);
                if (node != null) {
                    assertNotEquals("evil", node.state().leaderId(), group.states());
                }
            }
            assertEquals(FailoverNode.Role.PRIMARY, group.node(primary).state().role(), group.states());
            Thread.sleep(10);
        }
        assertEquals(primary, group.awaitPrimary(BOUND).nodeId());
    }

    private static boolean same(CuratorFramework client, String path, byte[] expected) {
        try {
            byte[] data = client.getData().forPath(path);
            return java.util.Arrays.equals(expected, data);
        } catch (Exception e) {
            return false;
        }
    }

    private static int participants(CuratorFramework client) {
        try {
            return client.getChildren().forPath(GroupZnodes.election(Group.PATH)).size();
        } catch (Exception e) {
            return -1;
        }
    }

    private interface ZooKeeperCall {
        void run() throws Exception;
    }

    private static boolean refused(ZooKeeperCall call) {
        try {
            call.run();
            return false;
        } catch (KeeperException.NoAuthException refused) {
            return true;
        } catch (Exception other) {
            return false;
        }
    }

    private static void assertRefused(ZooKeeperCall call) {
        assertThrows(KeeperException.NoAuthException.class, call::run);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
