package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.testkit.Tmpfs;
import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.segment.MappedSegment;
import io.blit.queue.internal.segment.SegmentFiles;
import io.blit.queue.internal.segment.SegmentHeader;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A queue on a read-only mount (a tmpfs remounted {@code ro}: CI runs as root, so file modes alone would prove
 * nothing) opened with {@code Options.readOnly}: every message reads back, by type and as bytes, a record CLAIMED by a
 * dead writer is stepped over after the grace without being marked, the named consumers are listed, and every file's
 * size, modification time and bytes are unchanged, with no file added. Mounting needs privileges (root, as on the CI
 * machines); the test is skipped without them.
 */
class ReadOnlyMountTest {
    private static final int BEFORE_DEAD_CLAIM = 100;
    private static final int AFTER_DEAD_CLAIM = 100;

    @TempDir
    Path work;
    @RegisterExtension
    final Tmpfs tmpfs = Tmpfs.sized("16m");

    @Test
    void aReadOnlyQueueReadsEverythingOnAReadOnlyMountAndChangesNothing() throws Exception {
        Path point = tmpfs.mount(); // skips the test without the privilege to mount
        Path dir = point.resolve("q");
        QueueOptions small = QueueOptions.defaults().segmentSize(64 << 10).prepareNextFile(false);
        long deadIndex = writeQueueWithADeadClaim(dir, small);
        Map<String, String> before = state(dir);
        tmpfs.remount("ro");
        assertThrows(IOException.class, () -> Files.createFile(point.resolve("probe")), "the mount is read-only");

        QueueOptions readOnly = small.readOnly(true).abandonGrace(Duration.ofMillis(50));
        List<Long> read = new ArrayList<>();
        try (BlitQueue<Object> queue = BlitQueue.open(dir, TypedQueueTest.TWO, readOnly);
             Tailer<Object> tailer = queue.tailer()) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (read.size() < BEFORE_DEAD_CLAIM + AFTER_DEAD_CLAIM && System.nanoTime() < deadline) {
                if (!tailer.read((index, message) -> {
                    assertTrue(TypedQueueTest.isMessage(message, index - (index > deadIndex ? 1 : 0)), "message " + index);
                    read.add(index);
                })) {
                    Thread.sleep(5); // the dead claim is stepped over once the grace has passed
                }
            }
            assertEquals(List.of("risk"), queue.consumers().stream().map(ConsumerPosition::name).toList());
            assertEquals(49, queue.consumers().getFirst().committedIndex());
            assertTrue(queue.endIndex() >= deadIndex, "the end is at or before the dead claim");
            IllegalStateException noAppender = assertThrows(IllegalStateException.class, queue::appender);
            assertTrue(noAppender.getMessage().contains("read-only"), noAppender.getMessage());
            assertThrows(IllegalStateException.class, () -> queue.tailer("risk"));
            assertThrows(IllegalStateException.class, queue::applyRetention);
            assertThrows(IllegalStateException.class, () -> queue.deleteFilesBefore(1_000));
            assertThrows(IllegalStateException.class, () -> queue.removeConsumer("risk"));
        }
        assertEquals(BEFORE_DEAD_CLAIM + AFTER_DEAD_CLAIM, read.size());
        assertFalse(read.contains(deadIndex), "the dead claim is no message");
        try (BlitQueue<Void> raw = BlitQueue.openRaw(dir, readOnly); Tailer<Void> bytes = raw.tailerFrom(deadIndex + 1)) {
            assertEquals(new MarketData().layout().descriptor().length(),
                    bytes.readNextBytes(MemorySegment.ofArray(new byte[256])));
            assertEquals(1, bytes.lastTypeId());
        }
        assertEquals(before, state(dir), "sizes, modification times and bytes unchanged, no file added");

        Path absent = work.resolve("absent");
        IllegalStateException none = assertThrows(IllegalStateException.class,
                () -> BlitQueue.openRaw(absent, readOnly));
        assertTrue(none.getMessage().contains("no such directory"), none.getMessage());
        assertFalse(Files.exists(absent), "a read-only open creates nothing");
    }

    /**
     * Appends the mixed stream (message n for n below {@link #BEFORE_DEAD_CLAIM}), then a CLAIMED word of a dead
     * process at the tail, then more messages (appenders step over others' claims), and commits consumer "risk" at 49.
     *
     * @return the index of the dead claim
     */
    private static long writeQueueWithADeadClaim(Path dir, QueueOptions options) throws Exception {
        try (BlitQueue<Object> queue = BlitQueue.open(dir, TypedQueueTest.TWO, options)) {
            try (Appender<Object> appender = queue.appender()) {
                for (long n = 0; n < BEFORE_DEAD_CLAIM; n++) {
                    appender.append(TypedQueueTest.message(n));
                }
            }
            long[] firsts = queue.fileFirstIndices();
            long deadIndex = claimAsADeadProcess(dir, firsts[firsts.length - 1]);
            assertEquals(BEFORE_DEAD_CLAIM, deadIndex);
            try (Appender<Object> appender = queue.appender()) {
                for (long n = BEFORE_DEAD_CLAIM; n < BEFORE_DEAD_CLAIM + AFTER_DEAD_CLAIM; n++) {
                    appender.append(TypedQueueTest.message(n));
                }
            }
            try (NamedTailer<Object> risk = queue.tailer("risk")) {
                for (int i = 0; i < 50; i++) {
                    assertTrue(risk.read((index, message) -> { }));
                }
                risk.commit();
            }
            return deadIndex;
        }
    }

    /** CASes the first free header word of the file of {@code first} to CLAIMED by a process that has exited. */
    private static long claimAsADeadProcess(Path dir, long first) throws Exception {
        Process gone = new ProcessBuilder("true").start();
        assertEquals(0, gone.waitFor());
        SegmentHeader.Info info = SegmentFiles.readHeader(dir, first);
        try (MappedSegment file = new MappedSegment(info)) {
            long position = SegmentFormat.RECORDS_START;
            long index = first;
            long word;
            while ((word = RecordHeader.loadAcquire(file.segment(), position)) != 0) {
                position += RecordHeader.recordLength(RecordHeader.length(word));
                index++;
            }
            long claim = RecordHeader.claimed(gone.pid(), 0, new MarketData().layout().descriptor().length());
            assertEquals(0, RecordHeader.compareAndExchange(file.segment(), position, 0, claim));
            return index;
        }
    }

    /** Every file of {@code dir}: its size, modification time and bytes. */
    private static Map<String, String> state(Path dir) throws IOException {
        Map<String, String> state = new TreeMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.toList()) {
                byte[] bytes = Files.readAllBytes(file);
                state.put(file.getFileName().toString(), bytes.length + " " + Files.getLastModifiedTime(file) + " "
                        + java.util.Arrays.hashCode(bytes) + " " + java.util.HexFormat.of().formatHex(
                        java.security.MessageDigest.getInstance("SHA-256").digest(bytes)));
            }
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        return state;
    }

}
