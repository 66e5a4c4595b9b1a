package io.blit.core;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Every kind of segment a copy must work through; {@link #open} gives one of at least the requested size. */
enum SegmentKind {
    CONFINED_ARENA, SHARED_ARENA, GLOBAL_ARENA, AUTO_ARENA, HEAP_BYTE_ARRAY, HEAP_LONG_ARRAY, MAPPED_FILE;

    /** A segment and whatever must be released with it. */
    record Opened(MemorySegment segment, Arena arena) implements AutoCloseable {
        @Override
        public void close() {
            if (arena != null) {
                arena.close();
            }
        }
    }

    /**
     * A segment of {@code size} bytes ({@link #HEAP_LONG_ARRAY}: rounded up to whole longs); a mapped
     * file is created in {@code directory}.
     */
    Opened open(long size, Path directory) throws IOException {
        return switch (this) {
            case CONFINED_ARENA -> arena(Arena.ofConfined(), size);
            case SHARED_ARENA -> arena(Arena.ofShared(), size);
            case GLOBAL_ARENA -> new Opened(Arena.global().allocate(size), null);
            case AUTO_ARENA -> new Opened(Arena.ofAuto().allocate(size), null);
            case HEAP_BYTE_ARRAY -> new Opened(MemorySegment.ofArray(new byte[Math.toIntExact(size)]), null);
            case HEAP_LONG_ARRAY -> new Opened(MemorySegment.ofArray(new long[Math.toIntExact((size + 7) / 8)]), null);
            case MAPPED_FILE -> mapped(directory, size);
        };
    }

    private static Opened arena(Arena arena, long size) {
        return new Opened(arena.allocate(size), arena);
    }

    private static Opened mapped(Path directory, long size) throws IOException {
        Path file = Files.createTempFile(directory, "segment", ".bin");
        Arena arena = Arena.ofConfined();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            return new Opened(channel.map(FileChannel.MapMode.READ_WRITE, 0, size, arena), arena);
        } catch (IOException | RuntimeException e) {
            arena.close();
            throw e;
        }
    }
}
