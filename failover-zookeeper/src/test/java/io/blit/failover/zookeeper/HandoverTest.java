package io.blit.failover.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.QueueFencedException;
import io.blit.queue.ReplicaAppendException;
import io.blit.queue.replica.QueueTerms;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A planned handover of the primary to a named follower, on an in-process ZooKeeper server. */
class HandoverTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path root;

    @Test
    void theNamedFollowerTakesEveryRecordAndTheNextTermAndTheOldPrimaryFollowsItWithNothingQuarantined()
            throws Exception {
        try (Group group = new Group(root, Duration.ofSeconds(3), "a", "b", "c")) {
            group.seed("a", 10);
            group.start("a");
            group.start("b");
            group.start("c");
            FailoverNode a = group.awaitPrimary(WAIT);
            assertEquals("a", a.nodeId());
            long term = a.state().term();

            // an application appends on a without pause, until it is refused
            {
                CompletableFuture<Object[]> producer = CompletableFuture.supplyAsync(() -> {
                    try (BlitQueue<Order> queue = BlitQueue.open(group.dir("a"), Order.class, Group.SMALL);
                         Appender<Order> appender = queue.appender()) {
                        Order order = new Order();
                        long n = 10;
                        while (true) {
                            try {
                                assertEquals(n, appender.append(order.fill(n, 1)));
                                n++;
                                LockSupport.parkNanos(20_000); // about 50,000 a second: the followers keep up
                            } catch (QueueFencedException refused) {
                                return new Object[] {n, refused};
                            }
                        }
                    }
                });
                Group.awaitEnd(group.dir("b"), 2_000, WAIT); // b follows the producer
                FailoverNode.State after = a.handover("b");
                assertEquals(new FailoverNode.State(FailoverNode.Role.FOLLOWER, term + 1, "b"), after);

                Object[] result = producer.get(60, TimeUnit.SECONDS);
                long appended = (long) result[0];
                QueueFencedException refused = (QueueFencedException) result[1];
                assertEquals("b", refused.newPrimary(), refused.getMessage());
                assertEquals(term + 1, refused.newTerm());
                assertTrue(refused.getMessage().contains("the new primary b"), refused.getMessage());

                FailoverNode b = group.awaitPrimary(WAIT);
                assertEquals("b", b.nodeId(), group.states());
                assertEquals(term + 1, b.state().term());
                QueueTerms.Status promoted = QueueTerms.status(group.dir("b"));
                assertEquals(appended, promoted.termStart(), "the new term begins where a's appends stopped");
                assertEquals(appended, Group.end(group.dir("a")), "nothing appended on a after the refusal");
                FailoverNodeTest.assertHolds(group.dir("b"), 10, appended, 1);

                // the application moves to b; a and c follow it
                FailoverNodeTest.append(group.dir("b"), appended, appended + 100, 2);
                for (String follower : List.of("a", "c")) {
                    Group.awaitEnd(group.dir(follower), appended + 100, WAIT);
                    FailoverNodeTest.assertHolds(group.dir(follower), 0, 10, 0);
                    FailoverNodeTest.assertHolds(group.dir(follower), 10, appended, 1);
                    FailoverNodeTest.assertHolds(group.dir(follower), appended, appended + 100, 2);
                    assertFalse(Files.exists(group.dir(follower).resolve("quarantine")), follower
                            + " set nothing aside");
                }
                assertEquals(QueueTerms.Role.REPLICA, QueueTerms.status(group.dir("a")).role());
            }
            assertThrows(ReplicaAppendException.class, () -> FailoverNodeTest.append(group.dir("a"), 0, 1, 1),
                    "a is a replica of b now");
        }
    }

    @Test
    void aHandoverToItselfToAStrangerOrFromAFollowerIsRefusedAndChangesNothing() throws Exception {
        try (Group group = new Group(root, Duration.ofSeconds(3), "a", "b")) {
            group.seed("a", 10);
            group.start("a");
            group.start("b");
            FailoverNode a = group.awaitPrimary(WAIT);
            long term = a.state().term();
            IllegalArgumentException self = assertThrows(IllegalArgumentException.class, () -> a.handover("a"));
            assertTrue(self.getMessage().contains("itself"), self.getMessage());
            IllegalArgumentException stranger = assertThrows(IllegalArgumentException.class, () -> a.handover("z"));
            assertTrue(stranger.getMessage().contains("node z is not in the election"), stranger.getMessage());
            IllegalStateException follower = assertThrows(IllegalStateException.class,
                    () -> group.node("b").handover("a"));
            assertTrue(follower.getMessage().contains("node b is not the primary"), follower.getMessage());

            assertEquals(new FailoverNode.State(FailoverNode.Role.PRIMARY, term, "a"), a.state());
            QueueTerms.Status status = QueueTerms.status(group.dir("a"));
            assertEquals(QueueTerms.Role.PRIMARY, status.role());
            assertEquals(term, status.fenceTerm(), "not fenced");
            FailoverNodeTest.append(group.dir("a"), 10, 20, 1);
            Group.awaitEnd(group.dir("b"), 20, WAIT);
            assertNotNull(group.node("b").state().leaderId());
        }
    }
}
