package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.core.IncompatibleLayoutException;
import io.blit.core.LayoutPolicy;
import io.blit.queue.internal.SegmentFiles;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A queue written with one version of a message class and read with another in the same JVM: a reader
 * whose class gained a field reads the old queue (the new field = 0), one whose class lost fields reads
 * the rest, STRICT refuses both, and no appender of another layout may write into the old files.
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
        BlitQueue.Options strict = QueueRoundTripTest.SMALL.layoutPolicy(LayoutPolicy.STRICT);
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
    void anAppenderOfAnotherLayoutIsRefusedAndWritesNothing() {
        writeMixedSizes();
        try (BlitQueue<MixedSizesPlus> queue = BlitQueue.open(dir, MixedSizesPlus.class, QueueRoundTripTest.SMALL)) {
            LayoutMismatchException e = assertThrows(LayoutMismatchException.class, queue::appender);
            String message = e.getMessage();
            assertTrue(message.contains("cannot append " + MixedSizesPlus.class.getName()), message);
            assertTrue(message.contains(SegmentFiles.path(dir, 0).toString()), message);
            assertTrue(message.contains("'sequence'"), message);
        }
        try (BlitQueue<MixedSizes> queue = BlitQueue.open(dir, MixedSizes.class, QueueRoundTripTest.SMALL);
             Tailer<MixedSizes> tailer = queue.tailerFrom(COUNT - 1)) {
            assertTrue(tailer.readNext(new MixedSizes()));
            assertFalse(tailer.readNext(new MixedSizes()), "nothing appended after the last message");
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
