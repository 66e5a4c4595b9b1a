package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.replica.QueueTerms;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fence raised for a planned handover names the new primary in every refusal of that term; a note of another term,
 * a malformed one or a bad name names none, and a bad name changes nothing.
 */
class HandedToFenceTest {
    @TempDir
    Path dir;

    @Test
    void aHandoverFenceNamesTheNewPrimaryInTheRefusalOfThatTermOnly() throws Exception {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class);
             Appender<MarketData> appender = queue.appender()) {
            MarketData md = new MarketData().fillFor(1, 2);
            appender.append(md);
            assertTrue(QueueTerms.fence(dir, 1, "node-b"));

            QueueFencedException named = assertThrows(QueueFencedException.class, () -> appender.append(md));
            assertEquals("node-b", named.newPrimary());
            assertEquals(1, named.newTerm());
            assertTrue(named.getMessage().contains("term 1 has begun on the new primary node-b"), named.getMessage());
            assertTrue(named.getMessage().contains("append on node-b"), named.getMessage());
            QueueFencedException opening = assertThrows(QueueFencedException.class, queue::appender);
            assertEquals("node-b", opening.newPrimary(), opening.getMessage());

            assertTrue(QueueTerms.fence(dir, 2)); // a later fence, by hand: its primary is not known here
            QueueFencedException unnamed = assertThrows(QueueFencedException.class, () -> appender.append(md));
            assertNull(unnamed.newPrimary(), unnamed.getMessage());
            assertTrue(unnamed.getMessage().contains("term 2 has begun on a new primary;"), unnamed.getMessage());

            Files.writeString(dir.resolve("handed-to"), "2 \u00e9vil\n", StandardCharsets.UTF_8);
            assertNull(assertThrows(QueueFencedException.class, () -> appender.append(md)).newPrimary(),
                    "a malformed note names no one");
            assertEquals(1, queue.endIndex(), "nothing was appended");
        }
    }

    @Test
    void aBadNameIsRefusedAndNothingIsFenced() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class);
             Appender<MarketData> appender = queue.appender()) {
            appender.append(new MarketData().fillFor(1, 2));
            for (String bad : new String[] {"", " node", "node\nb", "x".repeat(201)}) {
                IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                        () -> QueueTerms.fence(dir, 1, bad));
                assertTrue(refused.getMessage().contains("printable ASCII"), refused.getMessage());
            }
            assertEquals(0, QueueTerms.status(dir).fenceTerm());
            assertFalse(Files.exists(dir.resolve("handed-to")));
            assertEquals(1, appender.append(new MarketData().fillFor(1, 2)));
        }
    }
}
