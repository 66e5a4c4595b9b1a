package io.blit.failover.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.QueueFencedException;
import io.blit.queue.replica.QueueTerms;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The primary is cut off from ZooKeeper (a proxy between its client and the server drops every byte) while its
 * application keeps appending and its replication keeps running: it fences itself before another node is elected and
 * takes its first append, and no index is taken by two primaries in one term.
 */
class PartitionTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path root;

    @Test
    void aPrimaryCutOffFromZooKeeperIsFencedBeforeTheNewPrimaryTakesItsFirstAppend() throws Exception {
        try (Group group = new Group(root, Duration.ofSeconds(3), "a", "b", "c");
             TcpProxy proxy = new TcpProxy(group.zookeeper.getPort())) {
            group.seed("a", 10);
            group.start("a", proxy.address());
            group.start("b");
            group.start("c");
            assertEquals("a", group.awaitPrimary(WAIT).nodeId());
            long oldTerm = QueueTerms.status(group.dir("a")).term();

            // the old primary's application appends without pause until its appender is fenced
            AtomicLong fencedAt = new AtomicLong();
            AtomicLong accepted = new AtomicLong(-1);
            AtomicReference<Throwable> appendFailure = new AtomicReference<>();
            Thread oldApplication = Thread.ofPlatform().start(() -> {
                try (BlitQueue<Order> queue = BlitQueue.open(group.dir("a"), Order.class, Group.SMALL);
                     Appender<Order> appender = queue.appender()) {
                    Order order = new Order();
                    for (long n = 10; ; n++) {
                        try {
                            accepted.set(appender.append(order.fill(n, 1)));
                        } catch (QueueFencedException fenced) {
                            fencedAt.set(System.nanoTime());
                            return;
                        }
                        if ((n & 63) == 0) {
                            Thread.sleep(1); // a steady stream, not a flood the replicas trail by seconds
                        }
                    }
                } catch (Throwable e) {
                    appendFailure.set(e);
                }
            });
            Thread.sleep(500);
            long cutAt = System.nanoTime();
            proxy.cut();

            FailoverNode second = awaitPrimaryOtherThan(group, "a");
            Path newPrimary = group.dir(second.nodeId());
            long firstNewAppendAt;
            long promotedAt;
            try (BlitQueue<Order> queue = BlitQueue.open(newPrimary, Order.class, Group.SMALL);
                 Appender<Order> appender = queue.appender()) {
                promotedAt = QueueTerms.status(newPrimary).termStart();
                assertEquals(promotedAt, appender.append(new Order().fill(promotedAt, 2)));
                firstNewAppendAt = System.nanoTime();
                for (long n = promotedAt + 1; n < promotedAt + 50; n++) {
                    assertEquals(n, appender.append(new Order().fill(n, 2)));
                }
            }
            oldApplication.join(WAIT.toMillis());
            assertEquals(null, appendFailure.get());
            assertTrue(fencedAt.get() != 0, "the old primary's appender was fenced");
            System.out.println("cut at 0 ms; old primary's appender fenced at " + (fencedAt.get() - cutAt) / 1_000_000
                    + " ms; new primary's first append at " + (firstNewAppendAt - cutAt) / 1_000_000 + " ms");
            assertTrue(fencedAt.get() - firstNewAppendAt < 0, "fenced " + (fencedAt.get() - cutAt) / 1_000_000
                    + " ms after the cut, the new primary's first append " + (firstNewAppendAt - cutAt) / 1_000_000
                    + " ms after it");
            long newTerm = QueueTerms.status(newPrimary).term();
            assertTrue(newTerm > oldTerm, "the new primary's term " + newTerm + " is above " + oldTerm);
            long oldEnd = accepted.get() + 1;
            assertEquals(oldEnd, Group.end(group.dir("a")), "nothing appended on the old primary after its fence");

            // healed: the old primary follows; what it took from the promotion index on is quarantined, not lost
            proxy.heal();
            Group.awaitEnd(group.dir("a"), promotedAt + 50, WAIT);
            FailoverNode third = group.awaitPrimary(WAIT);
            assertEquals(second.nodeId(), third.nodeId(), group.states());
            FailoverNodeTest.assertHolds(group.dir("a"), promotedAt, promotedAt + 50, 2);
            if (oldEnd > promotedAt) {
                Path quarantine = FailoverNodeTest.onlyQuarantine(group.dir("a"));
                assertEquals(oldEnd, QueueTerms.status(quarantine).endIndex());
                FailoverNodeTest.assertHolds(quarantine, promotedAt, oldEnd, 1);
            }
            FailoverNodeTest.assertHolds(group.dir("a"), 10, promotedAt, 1);
            assertNotEquals("a", third.nodeId());
            assertNotNull(third.state().leaderId());
        }
    }

    private static FailoverNode awaitPrimaryOtherThan(Group group, String old) throws InterruptedException {
        FailoverNode[] primary = new FailoverNode[1];
        Group.await(() -> {
            for (String id : new String[] {"a", "b", "c"}) {
                FailoverNode node = group.node(id);
                if (!id.equals(old) && node != null && node.state().role() == FailoverNode.Role.PRIMARY) {
                    primary[0] = node;
                    return true;
                }
            }
            return false;
        }, WAIT, () -> "a new primary: " + group.states());
        return primary[0];
    }
}
