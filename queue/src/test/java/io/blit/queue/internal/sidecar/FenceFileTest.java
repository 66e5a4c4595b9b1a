package io.blit.queue.internal.sidecar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.QueueCorruptedException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fence file: created once and whole, raised only upward, and checked before its word is used. */
class FenceFileTest {
    @TempDir
    Path dir;

    @Test
    void theFirstCreatorsTermStandsAndNoTemporaryIsLeft() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            assertNull(FenceFile.map(dir, false, arena));
        }
        assertEquals(-1, FenceFile.read(dir));
        FenceFile.createIfAbsent(dir, 3, false, "a");
        FenceFile.createIfAbsent(dir, 8, false, "b");
        assertEquals(3, FenceFile.read(dir));
        assertEquals(FenceFile.LENGTH, Files.size(dir.resolve(FenceFile.NAME)));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(dir.resolve(FenceFile.NAME)), files.toList());
        }
    }

    @Test
    void raisingIsMonotonicAndSeenThroughEveryMapping() {
        FenceFile.createIfAbsent(dir, 2, false, "a");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment writer = FenceFile.map(dir, true, arena);
            MemorySegment reader = FenceFile.map(dir, false, arena);
            assertFalse(FenceFile.raise(writer, 1));
            assertFalse(FenceFile.raise(writer, 2));
            assertTrue(FenceFile.raise(writer, 5));
            assertFalse(FenceFile.raise(writer, 4));
            assertEquals(5, FenceFile.load(reader));
            assertEquals(5, FenceFile.read(dir));
        }
    }

    @Test
    void aDamagedFenceIsRefusedNamingTheOffset() throws Exception {
        byte[] good = FenceFile.encode(1);
        assertCorrupt(withByte(good, 0, 'X'), 0, "not a Blit fence");
        assertCorrupt(withByte(good, FenceFile.VERSION_OFFSET, 2), FenceFile.VERSION_OFFSET, "fence version 2");
        assertCorrupt(withByte(good, 40, 1), FenceFile.CRC_OFFSET, "CRC32C mismatch");
        assertCorrupt(java.util.Arrays.copyOf(good, 100), 100, "a fence is 128 bytes, not 100");
        byte[] longer = java.util.Arrays.copyOf(good, 200);
        Files.write(dir.resolve(FenceFile.NAME), longer);
        QueueCorruptedException e = assertThrows(QueueCorruptedException.class, () -> FenceFile.read(dir));
        assertTrue(e.getMessage().contains("not more"), e.getMessage());
    }

    @Test
    void aLinkIsNeverFollowed() throws Exception {
        Path elsewhere = Files.createDirectory(dir.resolve("elsewhere"));
        FenceFile.createIfAbsent(elsewhere, 1, false, "a");
        Path queue = Files.createDirectory(dir.resolve("queue"));
        Files.createSymbolicLink(queue.resolve(FenceFile.NAME), elsewhere.resolve(FenceFile.NAME));
        try (Arena arena = Arena.ofConfined()) {
            assertThrows(UncheckedIOException.class, () -> FenceFile.map(queue, true, arena));
        }
    }

    private void assertCorrupt(byte[] bytes, long offset, String problem) throws Exception {
        Files.write(dir.resolve(FenceFile.NAME), bytes);
        QueueCorruptedException e = assertThrows(QueueCorruptedException.class, () -> FenceFile.read(dir));
        assertEquals(offset, e.offset(), e.getMessage());
        assertTrue(e.getMessage().contains(problem), e.getMessage());
    }

    private static byte[] withByte(byte[] bytes, int at, int value) {
        byte[] copy = bytes.clone();
        copy[at] = (byte) value;
        return copy;
    }
}
