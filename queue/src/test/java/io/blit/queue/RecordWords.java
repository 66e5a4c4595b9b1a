package io.blit.queue;

import io.blit.queue.internal.segment.SegmentFiles;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

/** Record words of a queue's first file, written and read with plain file I/O (what a dead writer leaves). */
final class RecordWords {
    private RecordWords() {
    }

    /** Writes {@code word} (native order) at {@code offset} of the file of index 0 in {@code dir}. */
    static void write(Path dir, long offset, long word) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(SegmentFiles.path(dir, 0).toFile(), "rw")) {
            raf.seek(offset);
            raf.write(ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putLong(word).array());
        }
    }

    /** The word (native order) at {@code offset} of the file of index 0 in {@code dir}. */
    static long read(Path dir, long offset) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(SegmentFiles.path(dir, 0).toFile(), "r")) {
            byte[] bytes = new byte[8];
            raf.seek(offset);
            raf.readFully(bytes);
            return ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder()).getLong();
        }
    }
}
