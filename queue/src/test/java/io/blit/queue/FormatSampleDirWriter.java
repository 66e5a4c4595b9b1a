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
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Writes a sample of every file a queue directory holds, in the formats this build writes, with the public API only,
 * into a directory that must not exist yet (or be empty):
 * <ul>
 *   <li>{@code typed/}: a queue of the two types of {@link TypedQueueTest#TWO} (MarketData under type id 1, Quote under
 *       type id 2) at the smallest segment size, messages 0 to {@link #COUNT} - 1 as {@link TypedQueueTest#message}
 *       gives them, message n appended at {@link FormatV2SampleWriter#timeOf}{@code (n)}; then the named consumer
 *       {@value #CONSUMER} reads messages 0 to {@value #COMMITTED} and commits. The directory holds segment files,
 *       the positions file {@code consumers.blitc} and the writer liveness file {@code writers.blitw}.</li>
 *   <li>{@code raw/}: a raw queue at the same segment size, messages 0 to {@link FormatSampleWriter#RAW_COUNT} - 1
 *       with the payloads {@link #rawPayload} gives (an empty one, one that fills a file's records exactly), message
 *       n appended at {@code timeOf(n)}.</li>
 * </ul>
 * Both with {@code prepareNextFile(false)}, so that the directories hold only the files the writers published.
 *
 * <p>With a second argument {@code checksums} the queues are written with record checksums (format 5,
 * {@link QueueOptions#recordChecksums()}), and the raw queue's full message is {@link #FULL_LENGTH_V5} bytes.
 *
 * <p>The samples {@code queue/src/test/resources/format-v3}, {@code format-v4} and {@code format-v5} (docs/format.md
 * names them as its golden files; {@code format-v5} with {@code checksums}) were each written once by this class, under the default JVM mode of JDK 25 on x86-64, by the build that
 * wrote that format, and are never to be written again. From the repository's root:
 * <pre>
 * ./mvnw -q -B -pl queue -am test-compile -Dblit.stress.skip=true
 * java --sun-misc-unsafe-memory-access=allow \
 *     -cp queue/target/test-classes:queue/target/classes:core/target/classes:layout-verifier/target/classes \
 *     io.blit.queue.FormatSampleDirWriter queue/src/test/resources/format-v4
 * java ... io.blit.queue.FormatSampleDirWriter queue/src/test/resources/format-v5 checksums
 * </pre>
 */
public final class FormatSampleDirWriter {
    /** Message indices of the typed queue: 0 to COUNT - 1. */
    public static final int COUNT = 120;
    /** The named consumer of the typed queue. */
    public static final String CONSUMER = "audit";
    /** The index the named consumer committed. */
    public static final long COMMITTED = 59;

    /** The longest payload of a 12 KiB file: its 4096 bytes of records less the header word and the time. */
    public static final int FULL_LENGTH = (int) (SegmentFormat.MIN_SEGMENT_SIZE - SegmentFormat.RECORDS_START) - 16;
    /** The same in format 5: less the header word, the time, the checksum and the reserved word. */
    public static final int FULL_LENGTH_V5 = FULL_LENGTH - 8;

    private FormatSampleDirWriter() {
    }

    /**
     * The payload of the raw queue's message {@code n}: {@link FormatSampleWriter#rawPayload}'s, except that message
     * {@link FormatSampleWriter#FULL_INDEX} has {@link #FULL_LENGTH} bytes (a record with its time fills the file).
     */
    public static byte[] rawPayload(int n) {
        return rawPayload(n, false);
    }

    /** As {@link #rawPayload(int)}; with {@link #FULL_LENGTH_V5} bytes for the full message if {@code checksums}. */
    public static byte[] rawPayload(int n, boolean checksums) {
        byte[] bytes = FormatSampleWriter.rawPayload(n);
        return n == FormatSampleWriter.FULL_INDEX ? Arrays.copyOf(bytes, checksums ? FULL_LENGTH_V5 : FULL_LENGTH)
                : bytes;
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1 && !(args.length == 2 && args[1].equals("checksums"))) {
            throw new IllegalArgumentException("usage: FormatSampleDirWriter <directory> [checksums]");
        }
        boolean checksums = args.length == 2;
        Path root = Path.of(args[0]);
        if (Files.exists(root)) {
            try (Stream<Path> entries = Files.list(root)) {
                if (entries.findAny().isPresent()) {
                    throw new IllegalStateException(root + " is not empty: a sample is written once, never again");
                }
            }
        }
        String mode = JvmFacts.current().headerMode();
        if (!mode.equals("compressed-class-pointers")) {
            throw new IllegalStateException("the sample is written in the default header mode, not " + mode);
        }
        AtomicLong now = new AtomicLong();
        QueueOptions options = QueueOptions.defaults().segmentSize(SegmentFormat.MIN_SEGMENT_SIZE)
                .prepareNextFile(false).clock(now::get).recordChecksums(checksums);
        writeTyped(root.resolve("typed"), options, now);
        writeRaw(root.resolve("raw"), options, now, checksums);
    }

    private static void writeTyped(Path dir, QueueOptions options, AtomicLong now) {
        try (BlitQueue<Object> queue = BlitQueue.open(dir, TypedQueueTest.TWO, options)) {
            try (Appender<Object> appender = queue.appender()) {
                for (long n = 0; n < COUNT; n++) {
                    now.set(FormatV2SampleWriter.timeOf(n));
                    check(appender.append(TypedQueueTest.message(n)) == n, "typed message " + n);
                }
            }
            try (NamedTailer<Object> audit = queue.tailer(CONSUMER)) {
                for (long n = 0; n <= COMMITTED; n++) {
                    check(audit.read((index, message) -> { }), "the consumer reads message " + n);
                }
                audit.commit();
            }
            System.out.println("typed: files " + Arrays.toString(queue.fileFirstIndices()) + ", end "
                    + queue.endIndex());
        }
    }

    private static void writeRaw(Path dir, QueueOptions options, AtomicLong now, boolean checksums) {
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir, options);
             Appender<Void> appender = queue.appender();
             Arena arena = Arena.ofConfined()) {
            for (int n = 0; n < FormatSampleWriter.RAW_COUNT; n++) {
                now.set(FormatV2SampleWriter.timeOf(n));
                byte[] bytes = rawPayload(n, checksums);
                MemorySegment payload = arena.allocate(Math.max(1, bytes.length)).asSlice(0, bytes.length);
                MemorySegment.copy(bytes, 0, payload, ValueLayout.JAVA_BYTE, 0, bytes.length);
                check(appender.append(payload) == n, "raw message " + n);
            }
            System.out.println("raw: files " + Arrays.toString(queue.fileFirstIndices()) + ", end "
                    + queue.endIndex());
        }
    }

    private static void check(boolean condition, String what) {
        if (!condition) {
            throw new IllegalStateException(what + " was not written as planned");
        }
    }
}
