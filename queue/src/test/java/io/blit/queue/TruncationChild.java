package io.blit.queue;

import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.segment.SegmentFiles;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A child JVM for {@link TruncatedUnderMappingTest}: {@code TruncationChild <path> <dir> <warm-up records>}
 * writes or reads {@code warm-up} records through one access path of the queue (so that, given enough, the
 * JIT compiles it), truncates the mapped file under its own live mapping (as another process would), and
 * makes one more access of the same path. It prints on stderr (stdout is left to {@code -XX:+PrintCompilation}) {@code THROWN <class>} and the message and cause, or
 * {@code NOTHING THROWN} with the value it got; a JVM crash leaves an hs_err file and a non-zero exit code.
 *
 * <p>Paths: {@code read-header} (the tailer's acquire load of a header word past the new end),
 * {@code read-payload} (Blit's raw copy of a payload that crosses the new end, the header before it),
 * {@code read-bytes} ({@code MemorySegment.copy} of such a payload), {@code append-claim} (the appender's
 * compare-and-exchange of a header word past the new end), {@code append-payload} (Blit's raw copy into a
 * payload that crosses it), {@code append-bytes} ({@code MemorySegment.copy} into one).
 */
public final class TruncationChild {
    /** Bytes before a record's payload: its header word and its time. */
    static final long BEFORE_PAYLOAD = 16;
    static final long RECORD = BEFORE_PAYLOAD + 144;

    private TruncationChild() {
    }

    public static void main(String[] args) throws Exception {
        String path = args[0];
        Path dir = Path.of(args[1]);
        int warmUp = Integer.parseInt(args[2]);
        boolean headerPastEnd = path.endsWith("header") || path.endsWith("claim");
        // the first record at or after warmUp whose header is (or is not) inside the page before the cut
        long r = warmUp;
        while (!headerPastEnd && !payloadCrossesPage(position(r))) {
            r++;
        }
        long p = position(r);
        // header past the end: cut at the start of the header's page; else just after the header's page
        long cut = headerPastEnd ? p & ~4095L : (p + BEFORE_PAYLOAD + 4095) & ~4095L;
        Path file = SegmentFiles.path(dir, 0);
        try {
            Object got = path.startsWith("read") ? read(path, dir, file, r, cut) : append(path, dir, file, r, cut);
            System.err.println("NOTHING THROWN; got " + got + " (record " + r + " at " + p + ", cut at " + cut + ")");
        } catch (QueueCorruptedException e) {
            System.err.println("THROWN " + e.getClass().getName());
            System.err.println("FILE " + e.file());
            System.err.println("OFFSET " + e.offset());
            System.err.println("MESSAGE " + e.getMessage());
            System.err.println("CAUSE " + e.getCause());
        } catch (Throwable t) {
            System.err.println("THROWN " + t.getClass().getName());
            t.printStackTrace(System.err);
        }
        System.err.println("EXPECTED FILE " + file);
        System.err.println("EXPECTED OFFSET " + p);
        System.err.println("EXPECTED CUT " + cut);
        System.err.flush();
    }

    static long position(long record) {
        return SegmentFormat.RECORDS_START + record * RECORD;
    }

    static boolean payloadCrossesPage(long p) {
        long pageEnd = (p + BEFORE_PAYLOAD + 4095) & ~4095L;
        return p + BEFORE_PAYLOAD <= pageEnd && pageEnd < p + RECORD;
    }

    private static Object read(String path, Path dir, Path file, long r, long cut) throws InterruptedException {
        boolean raw = path.equals("read-bytes");
        try (BlitQueue<?> queue = raw ? BlitQueue.openRaw(dir) : BlitQueue.open(dir, MarketData.class)) {
            MarketData md = new MarketData();
            MemorySegment bytes = MemorySegment.ofArray(new byte[144]);
            try (Appender<?> appender = queue.appender()) {
                for (long i = 0; i <= r + 10; i++) {
                    if (raw) {
                        appender.append(MemorySegment.ofArray(new byte[144]).fill((byte) 1));
                    } else {
                        ((Appender<MarketData>) appender).append(md.fillFor(i, 0));
                    }
                }
            }
            // Extra passes over the same records before the measured one: one pass is sometimes not enough for
            // the tiered policy to reach C2 (it compiles at tier 2 while C2's queue is busy), which the test checks.
            // A pause half-way lets C2's queue drain, so that the passes after it get Tailer::readNext itself to
            // tier 4 (seen failing once in 7 CI runs without it: readNext stayed at tier 2, inlined only into the
            // OSR compilation of this method).
            for (int pass = 0; pass < 10; pass++) {
                if (pass == 5) {
                    Thread.sleep(300);
                }
                try (Tailer<?> warm = queue.tailer()) {
                    for (long i = 0; i < r; i++) {
                        if (!(raw ? warm.readNextBytes(bytes) == 144 : ((Tailer<MarketData>) warm).readNext(md))) {
                            throw new AssertionError("record " + i + " missing in warm-up pass " + pass);
                        }
                    }
                }
            }
            Tailer<?> tailer = queue.tailer();
            for (long i = 0; i < r; i++) {
                boolean ok = raw ? tailer.readNextBytes(bytes) == 144 : ((Tailer<MarketData>) tailer).readNext(md);
                if (!ok) {
                    throw new AssertionError("record " + i + " missing");
                }
            }
            truncate(file, cut);
            if (raw) {
                return tailer.readNextBytes(bytes) + " bytes, first " + bytes.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0);
            }
            boolean read = ((Tailer<MarketData>) tailer).readNext(md);
            return read + " securityId=" + md.securityId + " consistent=" + md.isConsistentFor(md.securityId);
        }
    }

    @SuppressWarnings("unchecked")
    private static Object append(String path, Path dir, Path file, long r, long cut) {
        boolean raw = path.equals("append-bytes");
        try (BlitQueue<?> queue = raw ? BlitQueue.openRaw(dir) : BlitQueue.open(dir, MarketData.class)) {
            MarketData md = new MarketData();
            MemorySegment bytes = MemorySegment.ofArray(new byte[144]).fill((byte) 1);
            Appender<?> appender = queue.appender();
            for (long i = 0; i < r; i++) {
                if (raw) {
                    appender.append(bytes);
                } else {
                    ((Appender<MarketData>) appender).append(md.fillFor(i, 0));
                }
            }
            truncate(file, cut);
            return raw ? appender.append(bytes) : ((Appender<MarketData>) appender).append(md.fillFor(r, 0));
        }
    }

    private static void truncate(Path file, long length) throws RuntimeException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(length);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
