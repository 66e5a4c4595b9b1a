package io.blit.queue;

import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.segment.SegmentFiles;
import io.blit.queue.replica.RecordStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/**
 * Queues and directories for the fuzz properties of the queue module (docs/fuzzing.md): a source queue of raw records
 * of varied lengths, as its record stream reports them, and copies of directories for each try.
 */
final class FuzzFiles {
    /** A record of the source queue: its header word, payload and position in its file. */
    record Record(long index, long word, byte[] payload, long position) {
        long end() {
            return position + RecordHeader.recordLength(payload.length);
        }
    }

    private FuzzFiles() {
    }

    /**
     * A new temporary directory for a fuzz property's files: in {@code /dev/shm} where it exists (tmpfs: creating a
     * queue file forces it to storage, which costs milliseconds a try on a disk), else in the default location.
     */
    static Path newRoot(String prefix) throws IOException {
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm) ? Files.createTempDirectory(shm, prefix)
                : Files.createTempDirectory(prefix);
    }

    /**
     * Appends {@code count} raw records of 0 to {@code maxPayload - 1} bytes (a fixed pseudo-random sequence) to a new
     * queue of {@code segmentSize}-byte files in {@code dir}.
     */
    static void writeSource(Path dir, long segmentSize, int count, int maxPayload) {
        Random random = new Random(20_261_126);
        QueueOptions options = QueueOptions.defaults().segmentSize(segmentSize).prepareNextFile(false);
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir, options)) {
            Appender<Void> appender = queue.appender();
            for (int n = 0; n < count; n++) {
                byte[] payload = new byte[random.nextInt(maxPayload)];
                random.nextBytes(payload);
                appender.append(MemorySegment.ofArray(payload));
            }
            appender.close();
        }
    }

    /** The records of the first file of the queue in {@code dir}, and (element 0 of the pair) that file's header. */
    static List<Record> recordsOfFirstFile(Path dir, byte[][] header) {
        List<Record> records = new ArrayList<>();
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir);
             RecordStream stream = RecordStream.open(queue.directory(), QueueOptions.defaults(), 0)) {
            long position = SegmentFormat.RECORDS_START;
            for (int event = stream.poll(); event != RecordStream.NONE; event = stream.poll()) {
                if (event == RecordStream.FILE) {
                    if (header[0] != null) {
                        break;
                    }
                    header[0] = stream.fileHeader();
                } else if (!stream.isPadding()) {
                    byte[] payload = stream.payload().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
                    records.add(new Record(stream.index(), stream.word(), payload, position));
                    position += RecordHeader.recordLength(payload.length);
                }
            }
        }
        return records;
    }

    /** The bytes of the file of {@code first} in {@code dir}. */
    static byte[] bytesOf(Path dir, long first) {
        try {
            return Files.readAllBytes(SegmentFiles.path(dir, first));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A new directory under {@code root} holding copies of the regular files of {@code template} (none if null). */
    static Path copyOf(Path template, Path root) {
        try {
            Path copy = Files.createTempDirectory(root, "try");
            if (template != null) {
                try (Stream<Path> files = Files.list(template)) {
                    for (Path file : (Iterable<Path>) files::iterator) {
                        if (Files.isRegularFile(file) && !file.getFileName().toString().contains(".tmp-")) {
                            Files.copy(file, copy.resolve(file.getFileName()));
                        }
                    }
                }
            }
            return copy;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The names in {@code dir} of segment files and of their temporaries (a replica's blank excepted). */
    static List<String> segmentNames(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("segment-") && !n.startsWith("segment-blank")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes {@code dir} and everything in it. */
    static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
