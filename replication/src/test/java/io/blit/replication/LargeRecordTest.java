package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.QueueOptions;
import io.blit.queue.replica.RecordStream;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Records longer than Aeron's largest message (an eighth of the term: 2 MiB at the embedded driver's 16 MiB term) are
 * replicated in parts, authenticated or encrypted, and the replica ends byte-identical.
 */
@SuppressWarnings("try") // a source or replica held open only for its side effects
class LargeRecordTest {
    /** Aeron's largest message at the embedded driver's term length (16 MiB / 8). */
    private static final int MAX_MESSAGE = 2 << 20;
    private static final QueueOptions LARGE = QueueOptions.defaults().segmentSize(16 << 20);

    @TempDir
    Path source;
    @TempDir
    Path replica;

    @Test
    void recordsLongerThanAnAeronMessageAreReplicatedInAuthenticatedParts() throws Exception {
        replicates(false);
    }

    @Test
    void recordsLongerThanAnAeronMessageAreReplicatedInEncryptedParts() throws Exception {
        replicates(true);
    }

    private void replicates(boolean encrypt) throws Exception {
        int[] lengths = {100, 3 * MAX_MESSAGE / 2 + 5, 200, MAX_MESSAGE + 1, 61_000, 5 * MAX_MESSAGE / 2, 7, 6 << 20,
                6 << 20, 50};
        byte[][] payloads = new byte[lengths.length][];
        SplittableRandom random = new SplittableRandom(34);
        String control = Ports.loopback();
        try (BlitQueue<Void> queue = BlitQueue.openRaw(source, LARGE)) {
            Appender<Void> appender = queue.appender();
            for (int i = 0; i < lengths.length; i++) {
                payloads[i] = new byte[lengths[i]];
                random.nextBytes(payloads[i]);
            }
            int before = lengths.length / 2; // these before the replica starts (catch-up), the others live
            for (int i = 0; i < before; i++) {
                appender.append(MemorySegment.ofArray(payloads[i]));
            }
            try (ReplicationSource server = ReplicationSource.start(source, ReplicationTest.options(control)
                         .encrypt(encrypt));
                 Replica follower = Replica.start(replica, ReplicaOptions.of(control, Ports.loopback(),
                         ReplicationTest.SECRET).sourceTimeout(ReplicationTest.ONE_SESSION_SOURCE_TIMEOUT))) {
                follower.awaitIndex(before, Duration.ofSeconds(60));
                long last = -1;
                for (int i = before; i < lengths.length; i++) {
                    last = appender.append(MemorySegment.ofArray(payloads[i]));
                }
                server.awaitReplicated(last, 1, Duration.ofSeconds(60));
                follower.awaitIndex(last + 1, Duration.ofSeconds(10));
                assertEquals(0, follower.resubscriptions(), "no session ended on the way");
                assertTrue(queue.fileFirstIndices().length > 1, "the records span files");
            }
            appender.close();
        }
        ReplicationTest.assertSameFiles(source, replica);
        try (BlitQueue<Void> copy = BlitQueue.openRaw(replica);
             RecordStream stream = RecordStream.open(replica, io.blit.queue.QueueOptions.defaults(), 0)) {
            for (byte[] payload : payloads) {
                int event;
                do {
                    event = stream.poll();
                } while (event == RecordStream.FILE || event == RecordStream.RECORD && stream.isPadding());
                assertEquals(RecordStream.RECORD, event);
                byte[] body = stream.payload().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
                byte[] tail = java.util.Arrays.copyOfRange(body, body.length - payload.length, body.length);
                assertArrayEquals(payload, tail, "record " + stream.index());
            }
        }
    }
}
