package io.blit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.cli.BlitCliRun.Result;
import io.blit.queue.replica.ServingReport;
import io.blit.replication.Replica;
import io.blit.replication.ReplicaOptions;
import io.blit.replication.ReplicationSource;
import io.blit.replication.SecretFile;
import io.blit.replication.SourceOptions;
import java.net.DatagramSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * {@code replicate status} on a served primary shows the whole group, from the report the source rewrites every
 * second: each replica with its term, acknowledged end and lag, as text and as {@code --json}; the report goes away
 * with the source.
 */
class GroupStatusTest {
    /** Bounds a hang: two embedded media drivers, handshakes and 3,000 records on a loaded machine. */
    private static final Duration WITHIN = Duration.ofSeconds(90);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    @Test
    void statusOnAServedPrimaryListsEveryReplicaWithItsEndAndLag() throws Exception {
        Path primary = tmp.resolve("primary");
        BlitCliRun.appendRaw(primary, 3_000);
        Path secretFile = tmp.resolve("secret");
        assertEquals(0, BlitCliRun.run("replicate", "keygen", "--secret-file", secretFile.toString()).code());
        byte[] secret = SecretFile.read(secretFile);
        String control = loopback();
        Path following = tmp.resolve("following");
        Path caughtUp = tmp.resolve("caught-up");
        String followingEndpoint = loopback();
        try (ReplicationSource source = ReplicationSource.start(primary, SourceOptions.of(control, secret))) {
            Result once = assertTimeoutPreemptively(WITHIN, () -> BlitCliRun.run("replicate", "follow", "--dir",
                    caughtUp.toString(), "--source", control, "--endpoint", loopback(), "--secret-file",
                    secretFile.toString(), "--until-caught-up"));
            assertEquals(0, once.code(), once.out() + once.err());
            try (Replica replica = Replica.start(following, ReplicaOptions.of(control, followingEndpoint, secret))) {
                awaitTrue(() -> replica.nextIndex() == 3_000, "the running replica holds the queue");
                awaitTrue(() -> {
                    List<ServingReport.Replica> replicas = reportOf(primary).replicas();
                    return replicas.size() == 2 && replicas.stream().allMatch(r -> r.acknowledged() == 3_000)
                            && replicas.stream().filter(ServingReport.Replica::serving).count() == 1;
                }, "the report lists both replicas at the end, the one that exited no longer served");

                Result status = BlitCliRun.run("replicate", "status", "--dir", primary.toString());
                assertEquals(0, status.code(), status.err());
                List<String> lines = status.lines();
                assertEquals(4, lines.size(), status.out());
                assertTrue(lines.get(0).endsWith("end 3000 role primary"), lines.get(0));
                assertTrue(lines.get(1).startsWith("served on " + control + " by pid " + ProcessHandle.current().pid()
                        + ", end 3000, 2 replicas"), lines.get(1));
                String runningLine = lines.stream().filter(l -> l.contains(" " + followingEndpoint + ":"))
                        .findFirst().orElseThrow(() -> new AssertionError(status.out()));
                assertTrue(runningLine.matches("replica [0-9a-f]{16} " + followingEndpoint
                        + ": term 0, end 3000, lag 0 records 0 ms"), runningLine);
                String endedLine = lines.stream().filter(l -> l.endsWith("(disconnected)")).findFirst()
                        .orElseThrow(() -> new AssertionError(status.out()));
                assertTrue(endedLine.contains(": term 0, end 3000, lag 0 records 0 ms"), endedLine);

                JsonNode node = JSON.readTree(BlitCliRun.run("replicate", "status", "--dir", primary.toString(),
                        "--json").out());
                JsonNode serving = node.get("serving");
                for (String field : List.of("control", "pid", "report_age_ms", "stale", "end", "replicas")) {
                    assertTrue(serving.has(field), field + " in " + serving);
                }
                assertEquals(control, serving.get("control").asString());
                assertFalse(serving.get("stale").asBoolean());
                assertEquals(2, serving.get("replicas").size());
                for (JsonNode r : serving.get("replicas")) {
                    for (String field : List.of("replica_id", "endpoint", "peer", "serving", "term", "end",
                            "forced_end", "sync", "lag_records", "lag_ms")) {
                        assertTrue(r.has(field), field + " in " + r);
                    }
                    assertEquals(3_000, r.get("end").asLong());
                    assertEquals(0, r.get("lag_records").asLong());
                    assertEquals(r.get("endpoint").asString().equals(followingEndpoint), r.get("serving").asBoolean(), r.toString());
                }

                BlitCliRun.appendRaw(primary, 500); // the running replica follows: its lag comes back to 0
                awaitTrue(() -> reportOf(primary).end() == 3_500, "the report follows the queue's end");
                ServingReport.Replica stopped = reportOf(primary).replicas().stream()
                        .filter(r -> !r.serving()).findFirst().orElseThrow();
                assertEquals(500, stopped.lagRecords(), "the ended session lacks the 500 new records");
                assertTrue(stopped.lagMillis() >= 0, "their age is known: " + stopped);
            }
        }
        assertFalse(Files.exists(primary.resolve(ServingReport.FILE_NAME)), "a stopped source deletes its report");
        Result after = BlitCliRun.run("replicate", "status", "--dir", primary.toString());
        assertEquals(1, after.lines().size(), after.out());
        assertTrue(JSON.readTree(BlitCliRun.run("replicate", "status", "--dir", primary.toString(), "--json").out())
                .get("serving").isNull());
    }

    @Test
    void aReportLeftByAKilledSourceIsShownStale() throws Exception {
        Path primary = tmp.resolve("primary");
        BlitCliRun.appendRaw(primary, 10);
        new ServingReport(4242, "127.0.0.1:7000", System.currentTimeMillis() - 60_000, 10, List.of()).writeTo(primary);
        Result status = BlitCliRun.run("replicate", "status", "--dir", primary.toString());
        assertEquals(0, status.code(), status.err());
        assertTrue(status.lines().get(1).contains("stale"), status.out());
        assertTrue(JSON.readTree(BlitCliRun.run("replicate", "status", "--dir", primary.toString(), "--json").out())
                .get("serving").get("stale").asBoolean());
    }

    @Test
    void aCorruptReportIsOneLineAndExitTwo() throws Exception {
        Path primary = tmp.resolve("primary");
        BlitCliRun.appendRaw(primary, 10);
        Files.writeString(primary.resolve(ServingReport.FILE_NAME), "blit serving report 1\npid x\ncontrol a:1\nwritten 1\nend 1\n");
        Result status = BlitCliRun.run("replicate", "status", "--dir", primary.toString());
        assertEquals(2, status.code(), status.out()); // a corrupt file, as for every command
        assertEquals(1, status.err().strip().lines().count(), status.err());
        assertTrue(status.err().contains(ServingReport.FILE_NAME + " at byte 0: line 2"), status.err());
    }

    private static ServingReport reportOf(Path dir) {
        return ServingReport.read(dir).orElse(new ServingReport(1, "none:0", 0, 0, List.of()));
    }

    private static void awaitTrue(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + WITHIN.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + WITHIN + ": " + what);
            }
            LockSupport.parkNanos(50_000_000);
        }
    }

    private static String loopback() throws java.io.IOException {
        try (DatagramSocket socket = new DatagramSocket(0)) {
            return "127.0.0.1:" + socket.getLocalPort();
        }
    }
}
