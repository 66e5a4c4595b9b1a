package io.blit.queue.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.QueueCorruptedException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The serving report's file: written whole and read back; every malformed file refused naming its line. */
class ServingReportTest {
    private static final ServingReport.Replica A = new ServingReport.Replica(0x75bcd15L, true, "127.0.0.1:50123",
            "127.0.0.1:7001", 3, 998, 0, false, 2, 4);
    private static final ServingReport.Replica B = new ServingReport.Replica(-1L, false, "[::1]:50124",
            "[0:0:0:0:0:0:0:1]:7002", 4294967295L, 0, 1000, true, 1000, -1);

    @TempDir
    Path dir;

    @Test
    void aReportReadsBackAsWritten() {
        ServingReport report = new ServingReport(4242, "127.0.0.1:7000", 1_765_145_000_000L, 1000, List.of(A, B));
        report.writeTo(dir);
        assertEquals(Optional.of(report), ServingReport.read(dir));
        assertEquals(List.of(ServingReport.FILE_NAME), names(), "the temporary file is renamed, not left");
        assertTrue(report.text().contains("replica 00000000075bcd15 serving peer 127.0.0.1:50123 endpoint "
                + "127.0.0.1:7001 term 3 acknowledged 998 forced 0 sync false lag-records 2 lag-ms 4\n"), report.text());
        new ServingReport(4243, "127.0.0.1:7000", 1, 5, List.of()).writeTo(dir);
        assertEquals(5, ServingReport.read(dir).orElseThrow().end(), "a new report replaces the old");
        ServingReport.delete(dir);
        assertEquals(Optional.empty(), ServingReport.read(dir));
        ServingReport.delete(dir); // idempotent
    }

    @Test
    void leftoversOfAKilledWriterAreDeletedAndNothingElse() throws IOException {
        Path leftover = Files.writeString(dir.resolve(ServingReport.FILE_NAME + ".tmp-1f"), "blit serving");
        Path other = Files.writeString(dir.resolve("consumers.blitc.tmp-1f"), "not the report's");
        new ServingReport(1, "a:1", 1, 1, List.of()).writeTo(dir);
        ServingReport.deleteLeftovers(dir);
        assertFalse(Files.exists(leftover));
        assertTrue(Files.exists(other) && Files.exists(dir.resolve(ServingReport.FILE_NAME)));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "", // empty
            "blit serving report 1\npid 1\ncontrol a:1\nwritten 1\nend 1", // no final newline: written in part
            "blit serving report 2\npid 1\ncontrol a:1\nwritten 1\nend 1\n", // another version
            "blit serving report 1\npid 0\ncontrol a:1\nwritten 1\nend 1\n", // pid out of range
            "blit serving report 1\npid 1\ncontrol a b\nwritten 1\nend 1\n", // a space in an address
            "blit serving report 1\npid 1\ncontrol a:1\nwritten x\nend 1\n",
            "blit serving report 1\npid 1\ncontrol a:1\nwritten 1\nend -1\n",
            "blit serving report 1\npid 1\ncontrol a:1\nwritten 1\nend 99999999999999999999\n",
            "blit serving report 1\npid 1\ncontrol a:1\nwritten 1\n", // no end
            "blit serving report 1\npid 1\ncontrol a:1\nwritten 1\nend 1\nreplica 00000000075bcd15 serving peer p:1 endpoint e:1 term 4294967296 acknowledged 1 forced 0 sync false lag-records 0 lag-ms 0\n",
            "blit serving report 1\npid 1\ncontrol a:1\nwritten 1\nend 1\nreplica 75bcd15 serving peer p:1 endpoint e:1 term 1 acknowledged 1 forced 0 sync false lag-records 0 lag-ms 0\n",
            "blit serving report 1\npid 1\ncontrol a:1\nwritten 1\nend 1\nreplica 00000000075bcd15 running peer p:1 endpoint e:1 term 1 acknowledged 1 forced 0 sync false lag-records 0 lag-ms 0\n",
            "blit serving report 1\npid 1\ncontrol a:1\nwritten 1\nend 1\nreplica 00000000075bcd15 serving peer p:1 endpoint e:1 term 1 acknowledged 1 forced 0 sync yes lag-records 0 lag-ms 0\n",
            "blit serving report 1\npid 1\ncontrol a:1\nwritten 1\nend 1\nreplica 00000000075bcd15 serving endpoint e:1 peer p:1 term 1 acknowledged 1 forced 0 sync false lag-records 0 lag-ms 0\n",
            "blit serving report 1\npid 1\ncontrol a:1\nwritten 1\nend 1\nreplica 00000000075bcd15 serving peer p:1 endpoint e:1 term 1 acknowledged 1 forced 0 sync false lag-records 0 lag-ms -2\n",
            "blit serving report 1\npid 1\ncontrol a:1\nwritten 1\nend 1\nreplica 00000000075bcd15 serving peer p:1 endpoint e:1 term 1 acknowledged 1 forced 0 sync false lag-records 0\n",
            "blit serving report 1\npid 1\ncontrol a:1\nwritten 1\nend 1\n\n", // an empty replica line
    })
    void aMalformedReportIsRefusedNamingTheFile(String text) throws IOException {
        Files.writeString(dir.resolve(ServingReport.FILE_NAME), text, StandardCharsets.ISO_8859_1);
        QueueCorruptedException refused = assertThrows(QueueCorruptedException.class, () -> ServingReport.read(dir));
        assertTrue(refused.getMessage().contains(ServingReport.FILE_NAME), refused.getMessage());
        assertFalse(refused.getMessage().contains("\n"), "one line: " + refused.getMessage());
    }

    @Test
    void aHugeFileIsRefusedUnread() throws IOException {
        Path file = dir.resolve(ServingReport.FILE_NAME);
        try (var out = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.CREATE_NEW,
                java.nio.file.StandardOpenOption.WRITE)) {
            out.write(java.nio.ByteBuffer.wrap(new byte[] {1}), ServingReport.MAX_BYTES); // sparse: one byte too many
        }
        QueueCorruptedException refused = assertThrows(QueueCorruptedException.class, () -> ServingReport.read(dir));
        assertTrue(refused.getMessage().contains("longer than " + ServingReport.MAX_BYTES), refused.getMessage());
    }

    @Test
    void moreReplicaLinesThanTheBoundAreRefused() throws IOException {
        StringBuilder text = new StringBuilder("blit serving report 1\npid 1\ncontrol a:1\nwritten 1\nend 1\n");
        for (int i = 0; i <= ServingReport.MAX_REPLICAS; i++) {
            text.append(String.format("replica %016x serving peer p:1 endpoint e:1 term 1 acknowledged 1 forced 0 "
                    + "sync false lag-records 0 lag-ms 0\n", i));
        }
        Files.writeString(dir.resolve(ServingReport.FILE_NAME), text);
        QueueCorruptedException refused = assertThrows(QueueCorruptedException.class, () -> ServingReport.read(dir));
        assertTrue(refused.getMessage().contains("more than " + ServingReport.MAX_REPLICAS), refused.getMessage());
    }

    @Test
    void aLinkIsNeverFollowed() throws IOException {
        Path elsewhere = Files.writeString(dir.resolveSibling(dir.getFileName() + "-elsewhere"),
                new ServingReport(1, "a:1", 1, 1, List.of()).text());
        try {
            Files.createSymbolicLink(dir.resolve(ServingReport.FILE_NAME), elsewhere);
            QueueCorruptedException refused = assertThrows(QueueCorruptedException.class, () -> ServingReport.read(dir));
            assertTrue(refused.getMessage().contains("symbolic link"), refused.getMessage());
            new ServingReport(2, "a:1", 1, 1, List.of()).writeTo(dir); // replaces the link, never writes through it
            assertFalse(Files.isSymbolicLink(dir.resolve(ServingReport.FILE_NAME)));
            assertEquals("pid 1", Files.readAllLines(elsewhere).get(1), "the link's target is untouched");
        } finally {
            Files.delete(elsewhere);
        }
    }

    @Test
    void valuesOutOfRangeAreRefusedWhenBuilt() {
        assertThrows(IllegalArgumentException.class, () -> new ServingReport.Replica(1, true, "", "e:1", 1, 1, 0,
                false, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new ServingReport.Replica(1, true, "p:1", "e:1", -1, 1, 0,
                false, 0, 0));
        List<ServingReport.Replica> many = new ArrayList<>();
        for (int i = 0; i <= ServingReport.MAX_REPLICAS; i++) {
            many.add(A);
        }
        assertThrows(IllegalArgumentException.class, () -> new ServingReport(1, "a:1", 1, 1, many));
    }

    private List<String> names() {
        try (var files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).toList();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
