package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.core.IncompatibleLayoutException;
import io.blit.core.LayoutPolicy;
import io.blit.queue.internal.segment.SegmentFiles;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A queue written with one version of a message class and read with another in the same JVM: a reader
 * whose class gained a field reads the old queue (the new field = 0), one whose class lost fields reads
 * the rest, STRICT refuses both; an appender of another layout continues the queue in a new file (a rolling deploy:
 * appenders of the old layout still running are refused, and nothing is lost or duplicated).
 */
class QueueLayoutEvolutionTest {
    private static final int COUNT = 20;

    @TempDir
    Path dir;

    private List<String> writeMixedSizes() {
        List<String> expected = new ArrayList<>();
        try (BlitQueue<MixedSizes> queue = BlitQueue.open(dir, MixedSizes.class, QueueRoundTripTest.SMALL);
             Appender<MixedSizes> appender = queue.appender()) {
            MixedSizes m = new MixedSizes();
            for (int i = 0; i < COUNT; i++) {
                appender.append(m.fillFor(i));
                expected.add(m.values() + " sequence=0");
            }
        }
        return expected;
    }

    @Test
    void aReaderWhoseClassGainedAFieldReadsAnOlderQueueWithTheNewFieldZero() {
        List<String> expected = writeMixedSizes();
        List<String> read = new ArrayList<>();
        try (BlitQueue<MixedSizesPlus> queue = BlitQueue.open(dir, MixedSizesPlus.class, QueueRoundTripTest.SMALL);
             Tailer<MixedSizesPlus> tailer = queue.tailer()) {
            assertEquals(LayoutPolicy.TRANSLATE, queue.layoutPolicy(), "the default");
            MixedSizesPlus into = new MixedSizesPlus();
            into.sequence = -1;
            while (tailer.readNext(into)) {
                read.add(into.values());
                into.sequence = -1;
            }
        }
        assertEquals(expected, read);
    }

    @Test
    void aReaderWhoseClassLostFieldsReadsTheRest() {
        writeMixedSizes();
        try (BlitQueue<MixedSizesMinus> queue = BlitQueue.open(dir, MixedSizesMinus.class, QueueRoundTripTest.SMALL);
             Tailer<MixedSizesMinus> tailer = queue.tailerFrom(7)) {
            MixedSizesMinus into = new MixedSizesMinus();
            assertTrue(tailer.readNext(into));
            MixedSizes m = new MixedSizes().fillFor(7);
            assertEquals(m.c, into.c);
            assertEquals(m.d, into.d);
        }
    }

    @Test
    void strictRefusesTheOlderQueueNamingTheFileAndTheNewField() {
        writeMixedSizes();
        QueueOptions strict = QueueRoundTripTest.SMALL.layoutPolicy(LayoutPolicy.STRICT);
        LayoutMismatchException e = assertThrows(LayoutMismatchException.class,
                () -> BlitQueue.open(dir, MixedSizesPlus.class, strict));
        String message = e.getMessage();
        assertTrue(message.contains(SegmentFiles.path(dir, 0).toString()), message);
        assertTrue(message.contains("LayoutPolicy.STRICT"), message);
        assertTrue(message.contains("field 'sequence' (int at +"), message);
        assertTrue(message.contains("is extra in the reader"), message);
        assertTrue(e.getCause() instanceof IncompatibleLayoutException, String.valueOf(e.getCause()));
    }

    @Test
    void anAppenderOfANewLayoutContinuesTheQueueInANewFileAtTheNextIndexAndOldReadersTranslateIt() {
        List<String> expected = writeMixedSizes();
        try (BlitQueue<MixedSizesPlus> queue = BlitQueue.open(dir, MixedSizesPlus.class, QueueRoundTripTest.SMALL);
             Appender<MixedSizesPlus> appender = queue.appender()) {
            MixedSizesPlus plus = new MixedSizesPlus();
            for (int i = COUNT; i < COUNT + 5; i++) {
                plus.a = i;
                plus.sequence = 1000 + i;
                assertEquals(i, appender.append(plus), "the same index sequence, no gap");
                expected.add("a=" + i + " b=0.0 c=0 d=0");
            }
            assertArrayEquals(new long[] {0, COUNT}, queue.fileFirstIndices(), "a new file at the next index");
        }
        List<String> oldReader = new ArrayList<>();
        try (BlitQueue<MixedSizes> queue = BlitQueue.open(dir, MixedSizes.class, QueueRoundTripTest.SMALL);
             Tailer<MixedSizes> tailer = queue.tailer()) {
            MixedSizes into = new MixedSizes();
            while (tailer.readNext(into)) {
                oldReader.add(into.values());
            }
        }
        List<String> withoutSequence = new ArrayList<>();
        for (String line : expected) {
            withoutSequence.add(line.replace(" sequence=0", ""));
        }
        assertEquals(withoutSequence, oldReader, "a consumer of the old class reads the new file translated");
        try (BlitQueue<MixedSizesPlus> queue = BlitQueue.open(dir, MixedSizesPlus.class, QueueRoundTripTest.SMALL);
             Tailer<MixedSizesPlus> tailer = queue.tailerFrom(COUNT - 1)) {
            MixedSizesPlus into = new MixedSizesPlus();
            assertTrue(tailer.readNext(into));
            assertEquals(0, into.sequence, "the old file's message, the new field zero");
            assertTrue(tailer.readNext(into));
            assertEquals(1000 + COUNT, into.sequence);
        }
    }

    @Test
    void anOldAppenderStillRunningIsRefusedAtItsNextAppendNamingWhatToUpgradeAndLosesNothing() {
        try (BlitQueue<MixedSizes> old = BlitQueue.open(dir, MixedSizes.class, QueueRoundTripTest.SMALL);
             Appender<MixedSizes> oldAppender = old.appender()) {
            MixedSizes m = new MixedSizes();
            assertEquals(0, oldAppender.append(m.fillFor(0)));
            assertEquals(1, oldAppender.append(m.fillFor(1)));
            try (BlitQueue<MixedSizesPlus> upgraded = BlitQueue.open(dir, MixedSizesPlus.class, QueueRoundTripTest.SMALL);
                 Appender<MixedSizesPlus> newAppender = upgraded.appender()) {
                LayoutMismatchException refused = assertThrows(LayoutMismatchException.class,
                        () -> oldAppender.append(m.fillFor(2)));
                String message = refused.getMessage();
                assertTrue(message.contains("upgrade this producer"), message);
                assertTrue(message.contains(SegmentFiles.path(dir, 2).toString()), message);
                assertTrue(message.contains("MixedSizesPlus"), message);
                assertThrows(LayoutMismatchException.class, () -> oldAppender.append(m.fillFor(2)), "every time");
                assertEquals(2, newAppender.append(new MixedSizesPlus()), "the next index, no gap");
            }
            try (Tailer<MixedSizes> tailer = old.tailer()) {
                MixedSizes into = new MixedSizes();
                for (int i = 0; i < 3; i++) {
                    assertTrue(tailer.readNext(into));
                    assertEquals(i, tailer.index() - 1);
                }
                assertFalse(tailer.readNext(into), "the refused appends wrote nothing");
            }
        }
    }

    @Test
    void anEmptyNewestFileOfAnotherLayoutEndsWithItsFirstIndexAbandoned() {
        try (BlitQueue<MixedSizes> old = BlitQueue.open(dir, MixedSizes.class, QueueRoundTripTest.SMALL)) {
            assertArrayEquals(new long[] {0}, old.fileFirstIndices(), "an empty first file");
        }
        try (BlitQueue<MixedSizesPlus> queue = BlitQueue.open(dir, MixedSizesPlus.class, QueueRoundTripTest.SMALL);
             Appender<MixedSizesPlus> appender = queue.appender(); Tailer<MixedSizesPlus> tailer = queue.tailer()) {
            MixedSizesPlus plus = new MixedSizesPlus();
            plus.sequence = 7;
            assertEquals(1, appender.append(plus), "index 0 can never be a message of the ended file");
            assertArrayEquals(new long[] {0, 1}, queue.fileFirstIndices());
            MixedSizesPlus into = new MixedSizesPlus();
            assertTrue(tailer.readNext(into));
            assertEquals(7, into.sequence);
            assertEquals(2, tailer.index());
        }
    }

    /** Repeated: the take-over may meet the old producer anywhere, a roll to a file it has not written yet included. */
    @RepeatedTest(20)
    void appendersOfTwoLayoutsRacingGiveOneOrderWithEveryAcceptedMessageOnceAndNoGap() throws Exception {
        writeMixedSizes();
        List<Long> oldIndices = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Long> newIndices = java.util.Collections.synchronizedList(new ArrayList<>());
        java.util.concurrent.atomic.AtomicInteger refusals = new java.util.concurrent.atomic.AtomicInteger();
        try (BlitQueue<MixedSizes> old = BlitQueue.open(dir, MixedSizes.class, QueueRoundTripTest.SMALL);
             BlitQueue<MixedSizesPlus> upgraded = BlitQueue.open(dir, MixedSizesPlus.class, QueueRoundTripTest.SMALL)) {
            java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
            Thread oldProducer = new Thread(() -> {
                try (Appender<MixedSizes> appender = old.appender()) {
                    MixedSizes m = new MixedSizes();
                    long deadline = System.nanoTime() + 30_000_000_000L;
                    for (int i = 0; System.nanoTime() < deadline; i++) { // until refused: the take-over comes
                        m.a = -1; // marks the old producer's messages
                        oldIndices.add(appender.append(m));
                        if (i == 100) {
                            started.countDown();
                        }
                    }
                } catch (LayoutMismatchException refused) {
                    refusals.incrementAndGet(); // the new producer took the queue over: nothing of it was written
                } finally {
                    started.countDown();
                }
            });
            oldProducer.start();
            started.await();
            try (Appender<MixedSizesPlus> appender = upgraded.appender()) {
                MixedSizesPlus plus = new MixedSizesPlus();
                for (int i = 0; i < 200; i++) {
                    plus.sequence = i + 1;
                    newIndices.add(appender.append(plus));
                }
            }
            oldProducer.join();
        }
        assertTrue(refusals.get() == 1, "the old producer was refused after the take-over");
        List<Long> all = new ArrayList<>(oldIndices);
        all.addAll(newIndices);
        java.util.Collections.sort(all);
        for (int i = 0; i < all.size(); i++) {
            assertEquals(COUNT + i, all.get(i), "indices from " + COUNT + " without a gap or duplicate");
        }
        try (BlitQueue<MixedSizesPlus> queue = BlitQueue.open(dir, MixedSizesPlus.class, QueueRoundTripTest.SMALL);
             Tailer<MixedSizesPlus> tailer = queue.tailerFrom(COUNT)) {
            MixedSizesPlus into = new MixedSizesPlus();
            long lastNew = 0;
            for (long expectedIndex : all) {
                assertTrue(tailer.readNext(into));
                assertEquals(expectedIndex, tailer.index() - 1);
                if (newIndices.contains(expectedIndex)) {
                    assertEquals(lastNew + 1, into.sequence, "the new producer's messages in order");
                    lastNew = into.sequence;
                } else {
                    assertEquals(-1, into.a);
                    assertEquals(0, into.sequence);
                }
            }
            assertFalse(tailer.readNext(into));
            assertEquals(200, lastNew);
        }
    }

    @Test
    void aRawReadOfATranslatedQueueStillSeesTheStoredBytes() {
        writeMixedSizes();
        int stored = new MixedSizes().layout().descriptor().length();
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir, QueueRoundTripTest.SMALL);
             Tailer<Void> tailer = queue.tailer()) {
            assertEquals(stored, tailer.readNextBytes(MemorySegment.ofArray(new byte[64])));
        }
    }
}
