package io.blit.failover.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.QueueFencedException;
import io.blit.queue.Tailer;
import io.blit.queue.replica.QueueTerms;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Election, following, and a failover when the primary's node is closed, on an in-process ZooKeeper server. */
class FailoverNodeTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path root;

    @Test
    void theSeededNodeIsElectedPromotesAtANewTermAndTheOthersFollowItsAppends() throws Exception {
        try (Group group = new Group(root, Duration.ofSeconds(3), "a", "b", "c")) {
            group.seed("a", 10);
            group.start("b"); // the empty directories start first: they must not win
            group.start("c");
            group.start("a");
            FailoverNode primary = group.awaitPrimary(WAIT);
            assertEquals("a", primary.nodeId(), group.states());
            // term 0 was the seed's own; its demotion takes term 1 for the fence; the election begins term 2
            assertEquals(2, primary.state().term());
            assertEquals(QueueTerms.Role.PRIMARY, QueueTerms.status(group.dir("a")).role());
            assertEquals(2, QueueTerms.status(group.dir("a")).term());

            append(group.dir("a"), 10, 110, 1);
            for (String follower : List.of("b", "c")) {
                Group.awaitEnd(group.dir(follower), 110, WAIT);
                assertEquals(QueueTerms.Role.REPLICA, QueueTerms.status(group.dir(follower)).role());
                assertEquals(2, QueueTerms.status(group.dir(follower)).term());
                assertHolds(group.dir(follower), 10, 110, 1);
            }
        }
    }

    @Test
    void whenThePrimarysNodeClosesTheMostUpToDateFollowerTakesOverAndTheOldPrimaryRejoinsWithItsTailQuarantined()
            throws Exception {
        try (Group group = new Group(root, Duration.ofSeconds(3), "a", "b", "c")) {
            group.seed("a", 10);
            group.start("a");
            group.start("b");
            group.start("c");
            assertEquals("a", group.awaitPrimary(WAIT).nodeId());
            append(group.dir("a"), 10, 110, 1);
            Group.awaitEnd(group.dir("b"), 110, WAIT);
            Group.awaitEnd(group.dir("c"), 110, WAIT);

            // the followers go away; the primary takes 20 records nobody replicates, then its node closes
            group.stop("b");
            group.stop("c");
            try (BlitQueue<Order> queue = BlitQueue.open(group.dir("a"), Order.class, Group.SMALL);
                 Appender<Order> appender = queue.appender()) {
                Order order = new Order();
                for (long n = 110; n < 130; n++) {
                    assertEquals(n, appender.append(order.fill(n, 1)));
                }
                group.stop("a");
                QueueFencedException fenced = assertThrows(QueueFencedException.class,
                        () -> appender.append(order.fill(130, 1)), "a closed primary's appender is fenced");
                assertEquals(3, fenced.newTerm());
            }
            assertEquals(130, Group.end(group.dir("a")));

            group.start("b");
            group.start("c");
            FailoverNode second = group.awaitPrimary(WAIT);
            assertNotEquals("a", second.nodeId());
            assertEquals(3, second.state().term(), "a term above the group's 2 and the fence of the followers");
            Path newPrimary = group.dir(second.nodeId());
            assertEquals(110, QueueTerms.status(newPrimary).termStart());
            append(newPrimary, 110, 160, 2);

            group.start("a");
            FailoverNode again = group.awaitPrimary(WAIT);
            assertEquals(second.nodeId(), again.nodeId(), "the restarted old primary follows: " + group.states());
            Group.awaitEnd(group.dir("a"), 160, WAIT);
            assertHolds(group.dir("a"), 0, 10, 0);
            assertHolds(group.dir("a"), 10, 110, 1);
            assertHolds(group.dir("a"), 110, 160, 2);
            Path quarantine = onlyQuarantine(group.dir("a"));
            assertEquals(130, QueueTerms.status(quarantine).endIndex());
            assertHolds(quarantine, 110, 130, 1);
        }
    }

    /** Appends orders {@code from} to {@code to} (exclusive) of {@code node} on the primary in {@code dir}. */
    static void append(Path dir, long from, long to, long node) {
        try (BlitQueue<Order> queue = BlitQueue.open(dir, Order.class, Group.SMALL);
             Appender<Order> appender = queue.appender()) {
            Order order = new Order();
            for (long n = from; n < to; n++) {
                assertEquals(n, appender.append(order.fill(n, node)));
            }
        }
    }

    /** Asserts that the queue in {@code dir} holds order n of {@code node} at each index n from {@code from} to {@code to}. */
    static void assertHolds(Path dir, long from, long to, long node) {
        try (BlitQueue<Order> queue = BlitQueue.open(dir, Order.class, Group.SMALL.readOnly(true));
             Tailer<Order> tailer = queue.tailerFrom(from)) {
            Order order = new Order();
            for (long n = from; n < to; n++) {
                assertTrue(tailer.readNext(order), dir + " holds index " + n);
                assertEquals(n, order.sequence, dir + " index " + n);
                assertEquals(node, order.node, dir + " index " + n + " was appended by node " + node);
            }
        }
    }

    static Path onlyQuarantine(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir.resolve("quarantine"))) {
            List<Path> all = entries.toList();
            assertEquals(1, all.size(), all::toString);
            return all.getFirst();
        }
    }
}
