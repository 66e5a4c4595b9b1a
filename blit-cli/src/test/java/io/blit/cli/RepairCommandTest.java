package io.blit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.cli.BlitCliRun.Result;
import io.blit.queue.QueueOptions;
import io.blit.queue.replica.QueueRepair;
import io.blit.queue.replica.QueueTerms;
import io.blit.replication.ReplicationSource;
import io.blit.replication.SecretFile;
import io.blit.replication.SourceOptions;
import java.io.IOException;
import java.net.DatagramSocket;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code blit repair}: a primary damaged in several places (a record word's padding bit, a zeroed record, a file
 * header byte) is restored byte for byte from a replica made by replication, the damaged copies kept; what the
 * replica cannot vouch for (records after the histories part) is left and named.
 */
class RepairCommandTest {
    /** Bounds a hang: two embedded media drivers, the handshake and the records on a loaded machine. */
    private static final Duration WITHIN = Duration.ofSeconds(90);
    private static final QueueOptions SMALL_FILES = QueueOptions.defaults().segmentSize(64 * 1024);
    private static final int RECORDS = 12_000;
    /** Where a segment file's records start (docs/format.md, "Segment files"). */
    private static final long RECORDS_START = 8192;

    @TempDir
    Path tmp;
    private Path primary;
    private Path replica;

    @BeforeEach
    void aPrimaryAndItsReplica() throws Exception {
        primary = tmp.resolve("primary");
        BlitCliRun.appendRaw(primary, RECORDS, SMALL_FILES);
        Path secret = tmp.resolve("secret");
        assertEquals(0, BlitCliRun.run("replicate", "keygen", "--secret-file", secret.toString()).code());
        String control = loopback();
        replica = tmp.resolve("replica");
        try (ReplicationSource source = ReplicationSource.start(primary, SourceOptions.of(control,
                SecretFile.read(secret)))) {
            Result followed = assertTimeoutPreemptively(WITHIN, () -> BlitCliRun.run("replicate", "follow",
                    "--dir", replica.toString(), "--source", control, "--endpoint", loopback(), "--secret-file",
                    secret.toString(), "--until-caught-up"));
            assertEquals(0, followed.code(), followed.out() + followed.err());
        }
        assertTrue(segments(primary).size() > 3, "several files");
    }

    @Test
    void damagedRecordsAndHeadersAreRestoredByteForByteAndTheDamagedCopiesKept() throws IOException {
        List<Path> files = segments(primary);
        Path first = files.getFirst();
        Path second = files.get(1);
        Path newest = files.getLast();
        byte[] firstIntact = Files.readAllBytes(first);
        byte[] secondIntact = Files.readAllBytes(second);
        byte[] newestIntact = Files.readAllBytes(newest);
        long record = RECORDS_START + 24 * 10; // raw 8-byte payloads: records of 24 bytes
        flipBit(first, record + 7, 5); // the padding bit (61) of record 10's word
        zero(second, RECORDS_START + 24 * 100, 48); // two records' words and bodies
        flipBit(newest, 20, 0); // a byte of the file header (its first index), under the header's CRC
        assertEquals(1, BlitCliRun.run("check", "--dir", primary.toString()).code(), "check finds the damage");

        Result repaired = BlitCliRun.run("repair", "--dir", primary.toString(), "--from", replica.toString());
        assertEquals(0, repaired.code(), repaired.out() + repaired.err());
        List<String> lines = repaired.lines();
        assertTrue(lines.contains("restored " + first + " bytes " + record + ".." + (record + 8) + " from " + replica),
                repaired.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("restored " + second + " bytes ")), repaired.out());
        assertTrue(lines.contains("restored " + newest + " bytes 16..24 from " + replica), repaired.out());
        assertEquals("repaired: check finds nothing", lines.getLast());
        assertArrayEquals(firstIntact, Files.readAllBytes(first), "restored byte for byte");
        assertArrayEquals(secondIntact, Files.readAllBytes(second));
        assertArrayEquals(newestIntact, Files.readAllBytes(newest));
        assertEquals(0, BlitCliRun.run("check", "--dir", primary.toString()).code());

        Path kept = Path.of(lines.stream().filter(l -> l.startsWith("kept the damaged copies in ")).findFirst()
                .orElseThrow().substring("kept the damaged copies in ".length()));
        assertTrue(kept.startsWith(primary.resolve(QueueRepair.KEPT_DIRECTORY)), kept.toString());
        byte[] keptFirst = Files.readAllBytes(kept.resolve(first.getFileName()));
        assertEquals(firstIntact[(int) record + 7] ^ (1 << 5), keptFirst[(int) record + 7], "the damaged bytes kept");
        assertTrue(Files.readString(kept.resolve("restored")).contains(first.getFileName() + " " + record + " 8\n"));
        assertEquals(RECORDS, BlitCliRun.run("dump", "--dir", primary.toString()).lines().stream()
                .filter(l -> !l.startsWith("#")).count(), "every record reads again");
    }

    @Test
    void aWholeQueueNeedsNoRepairAndWritesNothing() {
        Result repaired = BlitCliRun.run("repair", "--dir", primary.toString(), "--from", replica.toString());
        assertEquals(0, repaired.code(), repaired.err());
        assertEquals(List.of("repaired: check finds nothing"), repaired.lines());
        assertFalse(Files.exists(primary.resolve(QueueRepair.KEPT_DIRECTORY)));
    }

    @Test
    void recordsAfterTheHistoriesPartAreNeverCopiedOver() throws IOException {
        long end = QueueTerms.status(replica).endIndex();
        QueueTerms.promote(replica); // the replica's term 1 begins at its end: from there on the two differ
        BlitCliRun.appendRaw(replica, 50, SMALL_FILES);
        BlitCliRun.appendRaw(primary, 50, SMALL_FILES);
        Path newest = segments(primary).getLast();
        long ordinal = end + 10 - firstIndex(newest);
        assertTrue(ordinal > 0, "index end + 10 is in the newest file");
        flipBit(newest, RECORDS_START + 24 * ordinal + 7, 5);
        byte[] damaged = Files.readAllBytes(newest);

        Result repaired = BlitCliRun.run("repair", "--dir", primary.toString(), "--from", replica.toString());
        assertEquals(1, repaired.code(), repaired.out());
        assertTrue(repaired.out().contains("not repaired: " + newest), repaired.out());
        assertTrue(repaired.lines().getLast().startsWith("still damaged: " + newest), repaired.out());
        assertArrayEquals(damaged, Files.readAllBytes(newest), "nothing written from the other history");
    }

    @Test
    void anotherQueueIsRefusedAndNothingWritten() throws IOException {
        Path other = tmp.resolve("other");
        BlitCliRun.appendRaw(other, 10);
        Path first = segments(primary).getFirst();
        flipBit(first, RECORDS_START + 7, 5);
        Result refused = BlitCliRun.run("repair", "--dir", primary.toString(), "--from", other.toString());
        assertEquals(2, refused.code(), refused.out());
        assertTrue(refused.err().contains("another queue's files are never copied in"), refused.err());
        assertFalse(Files.exists(primary.resolve(QueueRepair.KEPT_DIRECTORY)));
        assertEquals(2, BlitCliRun.run("repair", "--dir", primary.toString(), "--from", primary.toString()).code());
    }

    /** The segment files of {@code dir}, oldest first (their names sort as their first indices). */
    private static List<Path> segments(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().matches("segment-\\d{20}\\.blitq")).sorted().toList();
        }
    }

    private static long firstIndex(Path segment) {
        return Long.parseLong(segment.getFileName().toString().substring(8, 28));
    }

    private static void flipBit(Path file, long offset, int bit) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, offset);
            one.put(0, (byte) (one.get(0) ^ (1 << bit)));
            channel.write(one.flip(), offset);
        }
    }

    private static void zero(Path file, long offset, int length) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(length), offset);
        }
    }

    private static String loopback() throws IOException {
        try (DatagramSocket socket = new DatagramSocket(0)) {
            return "127.0.0.1:" + socket.getLocalPort();
        }
    }
}
