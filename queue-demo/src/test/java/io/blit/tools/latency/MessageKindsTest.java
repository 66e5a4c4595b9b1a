package io.blit.tools.latency;

import io.blit.tools.messages.BookUpdate;
import io.blit.tools.messages.SymbolCodec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.core.BlockCopier;
import io.blit.queue.BlitQueue;
import io.blit.queue.QueueOptions;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class MessageKindsTest {
    @TempDir
    Path dir;

    @Test
    void bookUpdateIsA192ByteBlock() {
        assertEquals(192, BlockCopier.of(BookUpdate.class).byteSize());
    }

    @Test
    void bookUpdateContentIsDeterministicAndChecked() {
        BookUpdate update = new BookUpdate().fillFor(42, 7);
        assertTrue(update.isConsistentFor(42));
        assertFalse(update.isConsistentFor(43));
        assertEquals("EURUSD", SymbolCodec.decode(update.symbol));
        assertEquals("XLON", SymbolCodec.decode(update.exchange));
        assertEquals(42 + 19 / 32.0, update.askQty4);
        update.bidQty2 = 0;
        assertFalse(update.isConsistentFor(42), "a changed level field is noticed");
    }

    @Test
    void everyCheckedFieldOfBookUpdateIsChecked() throws IllegalAccessException {
        int checked = 0;
        for (java.lang.reflect.Field field : BookUpdate.class.getFields()) {
            if (java.lang.reflect.Modifier.isStatic(field.getModifiers()) || field.getName().equals("sendTimeNanos")) {
                continue;
            }
            BookUpdate update = new BookUpdate().fillFor(7, 0);
            if (field.getType() == double.class) {
                field.setDouble(update, -1);
            } else {
                field.setLong(update, -1);
            }
            assertFalse(update.isConsistentFor(7), field.getName() + " is checked");
            checked++;
        }
        assertEquals(23, checked, "3 longs + 20 doubles");
        BookUpdate update = new BookUpdate().fillFor(7, 0);
        update.sendTimeNanos = -1;
        assertTrue(update.isConsistentFor(7), "the send time is not part of the content");
    }

    @Test
    void normalTwinCarriesTheSameContent() {
        NormalBookUpdate normal = NormalBookUpdate.forMessage(42, 123_456_789L);
        assertTrue(normal.isConsistentFor(42));
        assertFalse(normal.isConsistentFor(41));
        assertEquals(42, normal.sequence());
        assertEquals(123_456_789L, normal.sendTimeNanos());
    }

    @ParameterizedTest
    @EnumSource(MessageKind.class)
    void everyKindRoundTripsThroughAQueueInOrderWithItsContent(MessageKind kind) {
        QueueOptions options = QueueOptions.defaults().segmentSize(1 << 20);
        // The receiver first, as the harness creates them: the Aeron kinds' receiver picks the ports the sender reads.
        try (MessageReceiver receiver = kind.receiver(dir, options); MessageSender sender = kind.sender(dir, options)) {
            assertFalse(receiver.poll(), "new queue is empty");
            for (long s = 0; s < 100; s++) {
                sender.send(s, 1_000 + s);
            }
            for (long s = 0; s < 100; s++) {
                assertTrue(pollWithin(receiver, 30_000), "message " + s);
                assertEquals(s, receiver.sequence());
                assertEquals(1_000 + s, receiver.intendedNanos());
                receiver.verify(s);
            }
            assertFalse(receiver.poll());
            long last = 99;
            assertThrows(IllegalStateException.class, () -> receiver.verify(last + 1), "wrong sequence's content refused");
        }
    }

    /** Polls until a message is read or {@code millis} pass (the Aeron kinds deliver asynchronously). */
    private static boolean pollWithin(MessageReceiver receiver, long millis) {
        long deadline = System.nanoTime() + millis * 1_000_000;
        while (System.nanoTime() < deadline) {
            if (receiver.poll()) {
                return true;
            }
            Thread.onSpinWait();
        }
        return false;
    }

    @Test
    void floorReceiverLappedBySenderFailsInsteadOfReportingWrongFigures() {
        QueueOptions options = QueueOptions.defaults();
        try (MessageSender sender = MessageKind.FLOOR.sender(dir, options);
             MessageReceiver receiver = MessageKind.FLOOR.receiver(dir, options)) {
            sender.send(0, 10);
            assertTrue(receiver.poll());
            for (long s = 1; s <= FloorEndpoints.SLOTS + 1; s++) {
                sender.send(s, 10 + s);
            }
            IllegalStateException e = assertThrows(IllegalStateException.class, receiver::poll);
            assertTrue(e.getMessage().contains("overrun") && e.getMessage().contains("message " + (FloorEndpoints.SLOTS + 1)),
                    e.getMessage());
        }
    }

    @Test
    void parsesCommandLineNamesAndNamesTheValidOnes() {
        assertEquals(MessageKind.TC, LatencyKind.parse("tc"));
        assertEquals(MessageKind.NORMAL, LatencyKind.parse("normal"));
        assertEquals(MessageKind.MARKET_DATA, LatencyKind.parse("md"));
        assertEquals(MessageKind.FLOOR, LatencyKind.parse("floor"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LatencyKind.parse("fast"));
        assertTrue(e.getMessage().contains("'fast'") && e.getMessage().contains("tc, normal, md, replicated, aeron-floor, floor"), e.getMessage());
        // the tools jar has no peer kind: chronicle comes with benchmarks.jar, and the error says so
        IllegalArgumentException peer = assertThrows(IllegalArgumentException.class, () -> LatencyKind.parse("chronicle"));
        assertTrue(peer.getMessage().contains("--with-peers"), peer.getMessage());
    }

    @Test
    void serialisedSizeIsMeasured() {
        long size = MessageKind.NORMAL.payloadBytes(1_000_000);
        assertTrue(size > 192 && size < 2048, "ObjectOutputStream bytes of a NormalBookUpdate: " + size);
        assertEquals(192, MessageKind.TC.payloadBytes(0));
        assertEquals(144, MessageKind.MARKET_DATA.payloadBytes(0));
        assertEquals(16, MessageKind.FLOOR.payloadBytes(0));
    }
}
