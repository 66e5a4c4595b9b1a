package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.segment.SegmentFiles;
import io.blit.queue.internal.sidecar.QuarantineMarker;
import io.blit.queue.internal.sidecar.ReplicaMarker;
import io.blit.queue.replica.Quarantine;
import io.blit.queue.replica.QueueTerms;
import io.blit.queue.replica.RecordStream;
import io.blit.queue.replica.ReplicaWriter;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Quarantine#moveFrom}: an old primary's divergent tail moved into a quarantine queue of its own, the live queue
 * ending where the new primary's history continues, and a rerun after a crash at each step converging.
 */
class QuarantineTest {
    private static final QueueOptions SMALL = QueueOptions.defaults().segmentSize(64 << 10);
    private static final QueueOptions READ_ONLY = QueueOptions.defaults().readOnly(true);
    /** The seed of the old primary's own records: other payloads than the new primary's at the same indices. */
    private static final long DIVERGENT = 1_000_000;

    @TempDir
    Path primary;
    @TempDir
    Path old;
    @TempDir
    Path scratch;

    /** The queues the tests write: one message class, two message types, raw payloads of varying length. */
    enum Kind {
        TYPED, MULTI_TYPE, RAW;

        void append(Path dir, long first, int count, long seed) {
            switch (this) {
                case TYPED -> {
                    try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, SMALL)) {
                        Appender<MarketData> appender = queue.appender();
                        for (long n = first; n < first + count; n++) {
                            assertEquals(n, appender.append(new MarketData().fillFor(seed + n, n)));
                        }
                    }
                }
                case MULTI_TYPE -> {
                    try (BlitQueue<Object> queue = BlitQueue.open(dir, TypedQueueTest.TWO, SMALL)) {
                        Appender<Object> appender = queue.appender();
                        for (long n = first; n < first + count; n++) {
                            Object message = n % 3 == 2 ? quote(seed + n) : new MarketData().fillFor(seed + n, n);
                            assertEquals(n, appender.append(message));
                        }
                    }
                }
                case RAW -> {
                    try (BlitQueue<Void> queue = BlitQueue.openRaw(dir, SMALL); Arena arena = Arena.ofConfined()) {
                        Appender<Void> appender = queue.appender();
                        for (long n = first; n < first + count; n++) {
                            MemorySegment payload = arena.allocate(8 + (n % 40) * 8);
                            payload.fill((byte) (seed + n));
                            payload.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, seed + n);
                            assertEquals(n, appender.append(payload));
                        }
                    }
                }
            }
        }

        private static Quote quote(long n) {
            Quote quote = new Quote();
            quote.securityId = n;
            quote.spread = n / 8.0;
            return quote;
        }
    }

    /** One stored message as a raw reader sees it. */
    record Stored(long index, int typeId, long time, byte[] payload) {
        @Override
        public boolean equals(Object other) {
            return other instanceof Stored s && s.index == index && s.typeId == typeId && s.time == time
                    && Arrays.equals(s.payload, payload);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(index);
        }

        @Override
        public String toString() {
            return "Stored[" + index + ", type " + typeId + ", time " + time + ", " + payload.length + " bytes]";
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void anOldPrimaryQuarantinedInTheMiddleOfAFileFollowsTheNewPrimaryByteForByte(Kind kind) throws IOException {
        kind.append(primary, 0, 2_000, 0);
        long[] files = SegmentFiles.list(primary);
        assertTrue(files.length > 4, "several files: " + files.length);
        rejoin(kind, files[2] + 37);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void anOldPrimaryQuarantinedFromTheFirstIndexOfAFileFollowsTheNewPrimaryByteForByte(Kind kind) throws IOException {
        kind.append(primary, 0, 2_000, 0);
        rejoin(kind, SegmentFiles.list(primary)[2]);
    }

    /**
     * The old primary holds the primary's records before {@code from}, then 700 of its own; quarantined from
     * {@code from}, it keeps the first, its quarantine queue holds the others, and replication continues it at
     * {@code from} into a copy of the primary.
     */
    private void rejoin(Kind kind, long from) throws IOException {
        oldPrimaryDivergingAt(kind, from, 700);
        List<Stored> before = readAll(old);
        assertEquals(from + 700, before.size());

        Quarantined quarantined = Quarantine.moveFrom(old, from).orElseThrow();

        assertEquals(from, quarantined.from());
        assertEquals(from + 700, quarantined.end());
        assertEquals(old.resolve("quarantine"), quarantined.directory().getParent());
        assertTrue(quarantined.directory().getFileName().toString().matches("from-" + from + "-\\d{8}T\\d{6}Z"),
                quarantined.directory().toString());
        assertEquals(before.subList(0, (int) from), readAll(old), "the live queue keeps what precedes from");
        assertEquals(before.subList((int) from, before.size()), readAll(quarantined.directory()),
                "the quarantine holds the rest, byte for byte with types and times");
        assertEquals(from, SegmentFiles.list(quarantined.directory())[0]);
        try (BlitQueue<Void> queue = BlitQueue.openRaw(old, READ_ONLY)) {
            assertEquals(from, queue.endIndex());
        }
        try (ReplicaWriter writer = ReplicaWriter.open(old, "primary")) {
            assertEquals(from, writer.nextIndex(), "the replica resumes at from");
        }
        assertEquals(2_000 - from, copy(primary, old, from));
        assertIdenticalQueues(primary, old);
        assertEquals(before.subList((int) from, before.size()), readAll(quarantined.directory()), "kept as it was");
    }

    @Test
    void anAppenderContinuesTheLiveQueueAtFromOnceTheMarkerIsGone() throws IOException {
        Kind.TYPED.append(primary, 0, 1_000, 0);
        long from = SegmentFiles.list(primary)[1] + 5;
        oldPrimaryDivergingAt(Kind.TYPED, from, 300);

        assertTrue(Quarantine.moveFrom(old, from).isPresent());
        Files.delete(old.resolve(ReplicaMarker.NAME));
        Kind.TYPED.append(old, from, 1_000, 0); // asserts each index: the first is from

        List<Stored> live = readAll(old);
        assertEquals(from + 1_000, live.size());
        assertEquals(readAll(primary).subList(0, (int) from), live.subList(0, (int) from));
    }

    @Test
    void aDeadWritersClaimInTheTailIsQuarantinedAbandoned() throws IOException {
        Kind.TYPED.append(primary, 0, 1_000, 0);
        long from = SegmentFiles.list(primary)[1] + 9;
        oldPrimaryDivergingAt(Kind.TYPED, from, 100);
        long[] files = SegmentFiles.list(old);
        long claimedAt;
        try (FileChannel channel = FileChannel.open(SegmentFiles.path(old, files[files.length - 1]),
                StandardOpenOption.READ, StandardOpenOption.WRITE); Arena arena = Arena.ofConfined()) {
            MemorySegment file = channel.map(FileChannel.MapMode.READ_WRITE, 0, channel.size(), arena);
            claimedAt = endOfRecords(file);
            file.set(ValueLayout.JAVA_LONG, claimedAt, RecordHeader.claimed(4_000_000, 8 + 144)); // a killed appender's
        }

        Quarantined quarantined = Quarantine.moveFrom(old, from).orElseThrow();

        assertEquals(from + 101, quarantined.end(), "the claimed index is moved too");
        assertEquals(100, readAll(quarantined.directory()).size(), "read without waiting for the dead claimer");
        long[] moved = SegmentFiles.list(quarantined.directory());
        try (FileChannel channel = FileChannel.open(SegmentFiles.path(quarantined.directory(), moved[moved.length - 1]));
             Arena arena = Arena.ofConfined()) {
            MemorySegment file = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
            long word = file.get(ValueLayout.JAVA_LONG, lastRecord(file));
            assertEquals(RecordHeader.STATE_ABANDONED, RecordHeader.state(word), RecordHeader.describe(word));
        }
    }

    @Test
    void theQuarantineOfAnOwnerOnlyQueueIsOwnerOnly() throws IOException {
        Kind.RAW.append(primary, 0, 2_000, 0);
        long from = SegmentFiles.list(primary)[1] + 2;
        oldPrimaryDivergingAt(Kind.RAW, from, 500);
        Files.setPosixFilePermissions(old, PosixFilePermissions.fromString("rwx------"));

        Path quarantine = Quarantine.moveFrom(old, from).orElseThrow().directory();

        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(quarantine.getParent())));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(quarantine)));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(
                SegmentFiles.path(quarantine, from))), "the file holding from, copied");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(
                quarantine.resolve(QuarantineMarker.NAME))), "its marker");
    }

    /** The position of the first empty header word of a segment file's records. */
    private static long endOfRecords(MemorySegment file) {
        long at = SegmentFormat.RECORDS_START;
        for (long word = file.get(ValueLayout.JAVA_LONG, at); word != 0; word = file.get(ValueLayout.JAVA_LONG, at)) {
            at += RecordHeader.recordLength(RecordHeader.length(word));
        }
        return at;
    }

    /** The position of the last record of a segment file. */
    private static long lastRecord(MemorySegment file) {
        long last = -1;
        long at = SegmentFormat.RECORDS_START;
        for (long word = file.get(ValueLayout.JAVA_LONG, at); word != 0; word = file.get(ValueLayout.JAVA_LONG, at)) {
            last = at;
            at += RecordHeader.recordLength(RecordHeader.length(word));
        }
        return last;
    }

    @Test
    void nothingToQuarantineCreatesNothing() throws IOException {
        Kind.TYPED.append(old, 0, 500, 0);
        byte[][] files = contents(old);

        assertEquals(Optional.empty(), Quarantine.moveFrom(old, 500));
        assertEquals(Optional.empty(), Quarantine.moveFrom(old, 10_000));

        assertFalse(Files.exists(old.resolve("quarantine")));
        assertArrayEquals(files, contents(old), "no file changed");
        assertEquals(Optional.empty(), Quarantine.moveFrom(scratch, 0), "an empty directory holds nothing");
        assertFalse(Files.exists(scratch.resolve("quarantine")));
    }

    @Test
    void refusesANegativeIndexAndOneRetentionDeleted() {
        Kind.TYPED.append(old, 0, 2_000, 0);
        long[] files = SegmentFiles.list(old);
        try (BlitQueue<Void> queue = BlitQueue.openRaw(old)) {
            queue.deleteFilesBefore(files[2]);
        }

        IllegalArgumentException deleted = assertThrows(IllegalArgumentException.class,
                () -> Quarantine.moveFrom(old, files[2] - 1));
        assertTrue(deleted.getMessage().contains("first index is " + files[2]), deleted.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Quarantine.moveFrom(old, -1));
        assertFalse(Files.exists(old.resolve("quarantine")));

        Quarantined fromFirst = Quarantine.moveFrom(old, files[2]).orElseThrow();
        assertEquals(files[2], SegmentFiles.list(old)[0], "the first file stays, empty");
        try (BlitQueue<Void> queue = BlitQueue.openRaw(old, READ_ONLY)) {
            assertEquals(files[2], queue.endIndex());
        }
        assertEquals(2_000 - files[2], readAll(fromFirst.directory()).size());
    }

    @Test
    void theLiveQueueIgnoresItsQuarantine() throws IOException {
        Kind.TYPED.append(primary, 0, 2_000, 0);
        long from = SegmentFiles.list(primary)[3] + 11;
        oldPrimaryDivergingAt(Kind.TYPED, from, 900);
        Quarantined quarantined = Quarantine.moveFrom(old, from).orElseThrow();
        byte[][] kept = contents(quarantined.directory());
        Files.delete(old.resolve(ReplicaMarker.NAME));

        try (BlitQueue<MarketData> queue = BlitQueue.open(old, MarketData.class, SMALL)) {
            assertArrayEquals(SegmentFiles.list(old), queue.fileFirstIndices());
            assertEquals(from, queue.endIndex());
            assertEquals(from, queue.stats().endIndex());
            try (Tailer<MarketData> tailer = queue.tailerFrom(from - 1)) {
                assertTrue(tailer.readNext(new MarketData()));
                assertFalse(tailer.readNext(new MarketData()), "nothing after from-1");
            }
            try (RecordStream stream = RecordStream.open(old, SMALL, from)) {
                for (int event = stream.poll(); event != RecordStream.NONE; event = stream.poll()) {
                    assertEquals(RecordStream.FILE, event, "replication serves nothing of the quarantine");
                }
            }
            queue.deleteFilesBefore(from);
        }
        assertArrayEquals(kept, contents(quarantined.directory()), "retention leaves the quarantine alone");
    }

    @Test
    void aRerunAfterACrashWhileTheQuarantineWasWrittenStartsOver() throws IOException {
        Kind.TYPED.append(primary, 0, 2_000, 0);
        long from = SegmentFiles.list(primary)[2] + 3;
        oldPrimaryDivergingAt(Kind.TYPED, from, 400);
        List<Stored> before = readAll(old);
        Path partial = Files.createDirectories(old.resolve("quarantine/from-" + from + "-20261128T120000Z.partial"));
        long[] files = SegmentFiles.list(old);
        Files.copy(SegmentFiles.path(old, files[files.length - 1]), SegmentFiles.path(partial, files[files.length - 1]));

        Quarantined quarantined = Quarantine.moveFrom(old, from).orElseThrow();

        assertEquals(List.of(quarantined.directory()), list(old.resolve("quarantine")));
        assertEquals(before.subList((int) from, before.size()), readAll(quarantined.directory()));
        assertEquals(before.subList(0, (int) from), readAll(old));
    }

    /** A crash after the quarantine was published, before the cut, in the middle of it, and before its last step. */
    @ParameterizedTest
    @EnumSource(CutCrash.class)
    void aRerunAfterACrashDuringTheCutFinishesItAndQuarantinesOnce(CutCrash crash) throws IOException {
        Kind.MULTI_TYPE.append(primary, 0, 2_000, 0);
        long from = SegmentFiles.list(primary)[2] + 3;
        oldPrimaryDivergingAt(Kind.MULTI_TYPE, from, 800);
        List<Stored> before = readAll(old);
        Path crashed = scratch.resolve("crashed");
        copyTree(old, crashed);
        Quarantined done = Quarantine.moveFrom(old, from).orElseThrow();
        // the crashed directory as the move left it: the quarantine published, its cut pending, the cut partly done
        Path pending = crashed.resolve("quarantine").resolve(done.directory().getFileName());
        copyTree(done.directory(), pending);
        Files.writeString(pending.resolve("cut-pending"), Long.toString(from));
        long[] files = SegmentFiles.list(crashed);
        if (crash != CutCrash.BEFORE_THE_CUT) {
            Files.delete(SegmentFiles.path(crashed, files[files.length - 1]));
        }
        if (crash == CutCrash.BEFORE_DELETING_THE_INTENT) {
            for (long first : SegmentFiles.list(crashed)) {
                Files.delete(SegmentFiles.path(crashed, first));
            }
            for (long first : SegmentFiles.list(old)) {
                Files.copy(SegmentFiles.path(old, first), SegmentFiles.path(crashed, first));
            }
        }

        Quarantined rerun = Quarantine.moveFrom(crashed, from).orElseThrow();

        assertEquals(new Quarantined(pending, from, done.end()), rerun);
        assertEquals(List.of(pending), list(crashed.resolve("quarantine")), "quarantined once");
        assertFalse(Files.exists(pending.resolve("cut-pending")));
        assertArrayEquals(SegmentFiles.list(old), SegmentFiles.list(crashed));
        assertArrayEquals(contents(old), contents(crashed), "the same cut as the uninterrupted move's");
        assertEquals(before.subList((int) from, before.size()), readAll(pending));
        assertEquals(Optional.empty(), Quarantine.moveFrom(crashed, from), "nothing left to move");
    }

    enum CutCrash { BEFORE_THE_CUT, AMID_THE_DELETIONS, BEFORE_DELETING_THE_INTENT }

    @Test
    void aQuarantineSaysSoInItsStatusAndRefusesAppendersWhereverItIsCopied() throws IOException {
        Kind.TYPED.append(primary, 0, 1_000, 0);
        long from = SegmentFiles.list(primary)[1] + 5;
        oldPrimaryDivergingAt(Kind.TYPED, from, 300);
        Path quarantine = Quarantine.moveFrom(old, from).orElseThrow().directory();
        Path copy = scratch.resolve("copy");
        copyTree(quarantine, copy);
        List<Stored> held = readAll(quarantine);

        for (Path dir : List.of(quarantine, copy)) {
            assertEquals(QueueTerms.Role.QUARANTINE, QueueTerms.status(dir).role(), dir.toString());
            try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, SMALL)) {
                IllegalStateException refused = assertThrows(IllegalStateException.class, queue::appender);
                assertTrue(refused.getMessage().contains("queue " + dir + " is a quarantine")
                        && refused.getMessage().contains(old.toString()), refused.getMessage());
            }
            assertEquals(held, readAll(dir), "nothing appended, and it reads as before");
        }
        Files.delete(quarantine.resolve(QuarantineMarker.NAME)); // a quarantine of a build before the marker
        assertEquals(QueueTerms.Role.QUARANTINE, QueueTerms.status(quarantine).role(), "known by where it is");
        try (BlitQueue<MarketData> queue = BlitQueue.open(quarantine, MarketData.class, SMALL)) {
            assertThrows(IllegalStateException.class, queue::appender);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "12x", "-1", " ", "99999999999999999999", "NEXT", "+", "0", "1"})
    void aCorruptCutPendingIsRefusedNamingItAndNothingIsCut(String value) throws IOException {
        Kind.TYPED.append(primary, 0, 2_000, 0);
        long from = SegmentFiles.list(primary)[2] + 3;
        oldPrimaryDivergingAt(Kind.TYPED, from, 500);
        Path crashed = scratch.resolve("crashed");
        copyTree(old, crashed);
        Quarantined done = Quarantine.moveFrom(old, from).orElseThrow();
        Path pending = crashed.resolve("quarantine").resolve(done.directory().getFileName());
        copyTree(done.directory(), pending);
        String text = value.equals("1") ? Long.toString(from + 1) : value; // "1": an index, but not the quarantine's
        Files.writeString(pending.resolve("cut-pending"), text);
        byte[][] before = contents(crashed);

        QueueCorruptedException refused = assertThrows(QueueCorruptedException.class,
                () -> Quarantine.moveFrom(crashed, from));

        assertTrue(refused.getMessage().contains(pending.resolve("cut-pending").toString())
                && refused.getMessage().contains("nothing was cut"), refused.getMessage());
        assertEquals(pending.resolve("cut-pending"), refused.file());
        assertArrayEquals(before, contents(crashed), "the live queue is as it was");
        assertTrue(Files.exists(pending.resolve("cut-pending")), "the evidence stays");
    }

    @Test
    void aPartialQuarantineThatIsNotWhatAMoveWritesIsRefusedAndLeftAlone() throws IOException {
        Kind.TYPED.append(primary, 0, 1_000, 0);
        long from = SegmentFiles.list(primary)[1] + 5;
        oldPrimaryDivergingAt(Kind.TYPED, from, 300);
        byte[][] before = contents(old);
        Path elsewhere = Files.createDirectories(scratch.resolve("elsewhere"));
        Path precious = Files.writeString(elsewhere.resolve("precious"), "precious");
        Path quarantines = Files.createDirectories(old.resolve("quarantine"));

        Path link = Files.createSymbolicLink(quarantines.resolve("from-1-20261128T120000Z.partial"), elsewhere);
        IllegalStateException linked = assertThrows(IllegalStateException.class, () -> Quarantine.moveFrom(old, from));
        assertTrue(linked.getMessage().contains(link.toString()) && linked.getMessage().contains("symbolic link"),
                linked.getMessage());
        Files.delete(link);

        Path odd = Files.createDirectories(quarantines.resolve("from-2-20261128T120000Z.partial/keep"));
        IllegalStateException foreign = assertThrows(IllegalStateException.class, () -> Quarantine.moveFrom(old, from));
        assertTrue(foreign.getMessage().contains(odd.toString()), foreign.getMessage());
        assertTrue(Files.isDirectory(odd), "left alone");
        Files.delete(odd);
        Files.delete(odd.getParent());

        Files.delete(quarantines);
        Files.createSymbolicLink(quarantines, elsewhere);
        IllegalStateException moved = assertThrows(IllegalStateException.class, () -> Quarantine.moveFrom(old, from));
        assertTrue(moved.getMessage().contains(quarantines + " is not a directory but a symbolic link"),
                moved.getMessage());
        Files.delete(quarantines);

        assertEquals("precious", Files.readString(precious));
        assertEquals(List.of(precious), list(elsewhere), "nothing written or deleted through a link");
        assertArrayEquals(before, contents(old), "nothing cut");
        assertTrue(Quarantine.moveFrom(old, from).isPresent(), "the move once the directory is repaired");
    }

    /**
     * Makes {@link #old} a replica of {@link #primary} up to {@code from}, then appends {@code count} records of its
     * own from {@code from} on (as a primary does before its replica takes over), and marks it a replica again.
     */
    private void oldPrimaryDivergingAt(Kind kind, long from, int count) throws IOException {
        copy(primary, old, 0, from);
        Files.delete(old.resolve(ReplicaMarker.NAME));
        kind.append(old, from, count, DIVERGENT);
        ReplicaMarker.mark(old, "primary", false);
    }

    private static long copy(Path source, Path replica, long from) {
        return copy(source, replica, from, Long.MAX_VALUE);
    }

    /** Streams {@code source}'s records from {@code from} into {@code replica} until {@code until}; returns the count. */
    private static long copy(Path source, Path replica, long from, long until) {
        long records = 0;
        try (BlitQueue<Void> queue = BlitQueue.openRaw(source, SMALL);
             RecordStream stream = RecordStream.open(source, SMALL, from);
             ReplicaWriter writer = ReplicaWriter.open(replica, "primary")) {
            while (true) {
                int event = stream.poll();
                if (event == RecordStream.NONE || event == RecordStream.RECORD && !stream.isPadding()
                        && stream.index() >= until) {
                    return records;
                }
                if (event == RecordStream.FILE) {
                    writer.startFile(stream.fileHeader());
                } else {
                    assertEquals(stream.index(), writer.nextIndex());
                    writer.write(stream.word(), stream.payload());
                    records += stream.isPadding() ? 0 : 1;
                }
            }
        }
    }

    /** Every message of the queue in {@code dir}, read raw and read-only. */
    private static List<Stored> readAll(Path dir) {
        List<Stored> stored = new ArrayList<>();
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir, READ_ONLY);
             Tailer<Void> tailer = queue.tailer();
             Arena arena = Arena.ofConfined()) {
            MemorySegment into = arena.allocate(1 << 16);
            for (long length = tailer.readNextBytes(into); length >= 0; length = tailer.readNextBytes(into)) {
                stored.add(new Stored(tailer.index() - 1, tailer.lastTypeId(), tailer.lastTimeNanos(),
                        into.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE)));
            }
        }
        for (int i = 0; i < stored.size(); i++) {
            assertEquals(stored.get(0).index() + i, stored.get(i).index(), "no gap");
        }
        return stored;
    }

    private static void assertIdenticalQueues(Path expected, Path actual) throws IOException {
        assertArrayEquals(SegmentFiles.list(expected), SegmentFiles.list(actual));
        for (long first : SegmentFiles.list(expected)) {
            assertEquals(-1, Files.mismatch(SegmentFiles.path(expected, first), SegmentFiles.path(actual, first)),
                    "file " + first);
        }
    }

    /** The bytes of every segment file of {@code dir}, oldest first. */
    private static byte[][] contents(Path dir) throws IOException {
        long[] firsts = SegmentFiles.list(dir);
        byte[][] bytes = new byte[firsts.length][];
        for (int k = 0; k < firsts.length; k++) {
            bytes[k] = Files.readAllBytes(SegmentFiles.path(dir, firsts[k]));
        }
        return bytes;
    }

    private static List<Path> list(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.toList();
        }
    }

    /** Copies the files of {@code from} (and its subdirectories) into {@code to}, replacing what is there. */
    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> tree = Files.walk(from)) {
            for (Path path : tree.sorted(Comparator.naturalOrder()).toList()) {
                Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }
}
