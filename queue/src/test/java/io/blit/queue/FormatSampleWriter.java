package io.blit.queue;

import io.blit.layout.JvmFacts;
import io.blit.queue.internal.format.SegmentFormat;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;

/**
 * Writes the sample of segment-file format version 1 that {@link FormatSampleTest} reads: two queues, with the public
 * API only, into a directory that must not exist yet (or be empty):
 * <ul>
 *   <li>{@code typed/}: a queue of {@link SampleV1Message} at the smallest segment size
 *       ({@link SegmentFormat#MIN_SEGMENT_SIZE}, 12 KiB: 4096 bytes of records a file), messages 0 to
 *       {@link #TYPED_COUNT} - 1, message n filled by {@code fillFor(n)}, except {@link #ABANDONED_INDEX}, whose claim
 *       is abandoned (the filler throws, so the appender stores ABANDONED, as an appender failing between claim and
 *       commit does). Three files, each of the first two ending with a padding word.</li>
 *   <li>{@code raw/}: a raw queue ({@link BlitQueue#openRaw}) at the same segment size, messages 0 to
 *       {@link #RAW_COUNT} - 1 with the payloads {@link #rawPayload} gives: an empty payload, lengths from 1 to 301, and
 *       at {@link #FULL_INDEX} one payload that fills a file's records exactly (a file with no padding word).</li>
 * </ul>
 * Both with {@code prepareNextFile(false)}, so that the directories hold nothing but the files the appenders published.
 *
 * <p>The sample in {@code queue/src/test/resources/format-v1} was written once, under the default JVM mode of JDK 25 on
 * x86-64 (12-byte object headers, compressed class pointers, little-endian), and is never to be written again: it is
 * what files of format version 1 look like, and what every later build must read. It was written from the repository's
 * root with:
 * <pre>
 * ./mvnw -q -B -o -pl queue -am test-compile
 * /usr/lib/jvm/temurin-25-jdk-amd64/bin/java --sun-misc-unsafe-memory-access=allow \
 *     -cp queue/target/test-classes:queue/target/classes:core/target/classes:layout-verifier/target/classes \
 *     io.blit.queue.FormatSampleWriter queue/src/test/resources/format-v1
 * </pre>
 * It refuses a directory that holds anything, and a JVM not in the default header mode.
 */
public final class FormatSampleWriter {
    /** Segment size of both queues: the smallest allowed. */
    public static final long SEGMENT_SIZE = SegmentFormat.MIN_SEGMENT_SIZE;
    /** Message indices of the typed queue: 0 to TYPED_COUNT - 1. */
    public static final int TYPED_COUNT = 200;
    /** The typed queue's index whose claim is abandoned: no message has it. */
    public static final int ABANDONED_INDEX = 100;
    /** Message indices of the raw queue: 0 to RAW_COUNT - 1. */
    public static final int RAW_COUNT = 40;
    /** The raw queue's message whose payload fills a file's records exactly. */
    public static final int FULL_INDEX = 25;
    /** The longest payload of a 12 KiB file: its 4096 bytes of records less the record's header word. */
    public static final int FULL_LENGTH = (int) (SEGMENT_SIZE - SegmentFormat.RECORDS_START) - 8;

    private FormatSampleWriter() {
    }

    /** The payload of the raw queue's message {@code n}: byte k is {@code n * 31 + k * 7 + 3}. */
    public static byte[] rawPayload(int n) {
        int length = n == 0 ? 0 : n == FULL_INDEX ? FULL_LENGTH : (n * 97) % 301 + 1;
        byte[] payload = new byte[length];
        for (int k = 0; k < length; k++) {
            payload[k] = (byte) (n * 31 + k * 7 + 3);
        }
        return payload;
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: FormatSampleWriter <directory>");
        }
        Path root = Path.of(args[0]);
        if (Files.exists(root)) {
            try (Stream<Path> entries = Files.list(root)) {
                if (entries.findAny().isPresent()) {
                    throw new IllegalStateException(root + " is not empty: the sample is written once, never again");
                }
            }
        }
        String mode = JvmFacts.current().headerMode();
        if (!mode.equals("compressed-class-pointers")) {
            throw new IllegalStateException("the sample is written in the default header mode, not " + mode);
        }
        QueueOptions options = QueueOptions.defaults().segmentSize(SEGMENT_SIZE).prepareNextFile(false);
        writeTyped(root.resolve("typed"), options);
        writeRaw(root.resolve("raw"), options);
    }

    private static void writeTyped(Path dir, QueueOptions options) {
        try (BlitQueue<SampleV1Message> queue = BlitQueue.open(dir, SampleV1Message.class, options);
             Appender<SampleV1Message> appender = queue.appender()) {
            SampleV1Message message = new SampleV1Message();
            for (int n = 0; n < TYPED_COUNT; n++) {
                if (n == ABANDONED_INDEX) {
                    try {
                        appender.append(message, (m, index) -> {
                            throw new IllegalStateException("abandoned on purpose at " + index);
                        });
                        throw new AssertionError("the filler did not throw");
                    } catch (IllegalStateException expected) {
                        continue;
                    }
                }
                long index = appender.append(message.fillFor(n));
                check(index == n, "typed message " + n + " got index " + index);
            }
            System.out.println("typed: " + queue.descriptor().describe() + "files " + Arrays.toString(
                    queue.fileFirstIndices()) + ", end " + queue.endIndex());
        }
    }

    private static void writeRaw(Path dir, QueueOptions options) {
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir, options);
             Appender<Void> appender = queue.appender();
             Arena arena = Arena.ofConfined()) {
            for (int n = 0; n < RAW_COUNT; n++) {
                byte[] bytes = rawPayload(n);
                MemorySegment payload = arena.allocate(Math.max(1, bytes.length)).asSlice(0, bytes.length);
                MemorySegment.copy(bytes, 0, payload, ValueLayout.JAVA_BYTE, 0, bytes.length);
                long index = appender.append(payload);
                check(index == n, "raw message " + n + " got index " + index);
            }
            System.out.println("raw: files " + Arrays.toString(queue.fileFirstIndices()) + ", end "
                    + queue.endIndex());
        }
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new IllegalStateException(message);
        }
    }
}
