package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.MessageTypes;
import io.blit.queue.Tailer;
import io.blit.queue.TypeHandlers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A queue of several message types replicated: the replica reads the same records in the same order by type, files of
 * an evolved layout included, and the handshake compares every type's layout.
 */
@SuppressWarnings("try") // a source or replica held open only for its side effects
class TypedReplicationTest {
    private static final MessageTypes<Object> TYPES = MessageTypes.builder(Object.class)
            .add(1, Tick.class).add(2, OtherTick.class).build();

    @TempDir
    Path source;
    @TempDir
    Path replica;

    @Test
    void aTypedQueueIsReplicatedRecordByRecordWithItsTypes() throws Exception {
        String control = Ports.loopback();
        try (BlitQueue<Object> queue = BlitQueue.open(source, TYPES, ReplicationTest.SMALL);
             Appender<Object> appender = queue.appender()) {
            Tick tick = new Tick();
            OtherTick other = new OtherTick();
            for (long n = 0; n < 30_000; n++) {
                appender.append(n % 3 == 2 ? other : tick.fillFor(n));
            }
            try (ReplicationSource server = ReplicationSource.start(source, SourceOptions.of(control, ReplicationTest.SECRET));
                 Replica follower = Replica.start(replica, ReplicaOptions.of(control, Ports.loopback(),
                         ReplicationTest.SECRET).expectedTypes(TYPES))) {
                follower.awaitIndex(30_000, Duration.ofSeconds(30));
            }
        }
        ReplicationTest.assertSameFiles(source, replica);
        List<Long> ticks = new ArrayList<>();
        List<Long> others = new ArrayList<>();
        TypeHandlers handler = TypeHandlers.builder()
                .on(Tick.class, (index, tick) -> {
                    assertTrue(tick.isConsistentFor(index), "tick " + index);
                    ticks.add(index);
                })
                .on(OtherTick.class, (index, other) -> others.add(index))
                .build();
        try (BlitQueue<Object> copy = BlitQueue.open(replica, TYPES); Tailer<Object> tailer = copy.tailer()) {
            while (tailer.read(handler)) {
                // collected
            }
        }
        assertEquals(20_000, ticks.size());
        assertEquals(10_000, others.size());
        assertTrue(others.stream().allMatch(n -> n % 3 == 2));
    }

    @Test
    void aReplicaExpectingOtherTypesIsRefusedNamingTheType() throws Exception {
        String control = Ports.loopback();
        try (BlitQueue<Object> queue = BlitQueue.open(source, TYPES, ReplicationTest.SMALL);
             Appender<Object> appender = queue.appender()) {
            appender.append(new Tick().fillFor(0));
        }
        MessageTypes<Object> swapped = MessageTypes.builder(Object.class)
                .add(1, OtherTick.class).add(2, Tick.class).build();
        try (ReplicationSource server = ReplicationSource.start(source, SourceOptions.of(control, ReplicationTest.SECRET));
             Replica follower = Replica.start(replica, ReplicaOptions.of(control, Ports.loopback(),
                     ReplicationTest.SECRET).expectedTypes(swapped))) {
            RefusalException refused = assertThrows(RefusalException.class,
                    () -> follower.awaitIndex(1, Duration.ofSeconds(30)));
            assertTrue(refused.getMessage().contains("layout differs") && refused.getMessage().contains("type 1"),
                    refused.getMessage());
        }
    }
}
