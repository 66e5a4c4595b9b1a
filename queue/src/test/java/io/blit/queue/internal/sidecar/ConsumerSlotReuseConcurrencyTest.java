package io.blit.queue.internal.sidecar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.internal.writer.WriterRegistry;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Slot reuse against concurrent creators: threads of this JVM and two other processes create, hold and remove the same
 * names in a file with no FREE slot left, so that every creation reuses a REMOVED slot. A name is never READY in two
 * slots at once (each worker checks while it holds the name, which keeps it from being removed), and at the end every
 * name is in at most one READY slot.
 */
class ConsumerSlotReuseConcurrencyTest {
    private static final int ROUNDS = 1500;
    private static final int PROCESSES = 2;
    private static final int THREADS = 2;

    @TempDir
    Path dir;

    @Test
    void aNameIsNeverReadyInTwoSlotsWhileThreadsAndProcessesReuseSlots() throws Exception {
        WriterRegistry writers = WriterRegistry.acquire(dir);
        try (Arena arena = Arena.ofConfined()) { // every slot used, then removed: nothing FREE is left
            ConsumerSlots slots = ConsumerFile.mapOrCreate(dir, false, arena, writers);
            long me = writers.lease(false);
            for (int k = 0; k < ConsumerFile.SLOTS; k++) {
                byte[] name = ("fill-" + k).getBytes(StandardCharsets.US_ASCII);
                assertEquals(k, slots.findOrCreate(name, -1, me));
                assertTrue(slots.markRemoved(k, name));
            }
        } finally {
            writers.release();
        }
        List<Process> children = new ArrayList<>();
        List<BufferedReader> outputs = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            for (int p = 0; p < PROCESSES; p++) {
                Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "--sun-misc-unsafe-memory-access=allow", "-cp", System.getProperty("java.class.path"),
                        SlotChurner.class.getName(), dir.toString(), Integer.toString(ROUNDS),
                        Integer.toString(p + 1)).redirectErrorStream(true).start();
                children.add(child);
                BufferedReader output = new BufferedReader(new InputStreamReader(child.getInputStream(),
                        StandardCharsets.UTF_8));
                outputs.add(output);
                assertEquals("ready", output.readLine(), "child " + p + " started");
            }
            CountDownLatch go = new CountDownLatch(1);
            List<Future<List<String>>> threads = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int id = 10 + t;
                threads.add(pool.submit(() -> {
                    go.await();
                    return SlotChurner.churn(dir, ROUNDS, id);
                }));
            }
            for (Process child : children) {
                OutputStream in = child.getOutputStream();
                in.write("go\n".getBytes(StandardCharsets.UTF_8));
                in.flush();
            }
            go.countDown();

            List<String> seen = new ArrayList<>();
            for (Future<List<String>> thread : threads) {
                seen.addAll(thread.get(120, TimeUnit.SECONDS));
            }
            for (int p = 0; p < PROCESSES; p++) {
                for (String line; !"done".equals(line = outputs.get(p).readLine()); ) {
                    assertTrue(line != null, "child " + p + " ended early");
                    seen.add("child " + p + ": " + line);
                }
                assertTrue(children.get(p).waitFor(60, TimeUnit.SECONDS));
                assertEquals(0, children.get(p).exitValue());
            }
            assertEquals(List.of(), seen, "no worker saw a name READY in two slots");

            try (Arena arena = Arena.ofConfined()) {
                ConsumerSlots slots = ConsumerFile.mapExisting(dir, arena, false, null);
                Set<String> names = new HashSet<>();
                for (ConsumerSlots.Entry entry : slots.entries()) {
                    assertTrue(names.add(entry.name()), "one READY slot per name: " + slots.entries());
                }
                assertEquals(ConsumerFile.SLOTS, slots.usedSlots(), "no FREE slot was needed");
                long features = slots.segment().get(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN),
                        ConsumerFile.INCOMPATIBLE_OFFSET);
                assertEquals(ConsumerFile.SLOT_REUSE, features, "the reuse is recorded in the header");
            }
        } finally {
            pool.shutdownNow();
            children.forEach(Process::destroyForcibly);
        }
    }
    /**
     * A creator that stopped while holding the creation lock (played by a process that holds its byte) keeps other
     * creators out for 10 s at most: then they fail naming its pid. Names that exist are still found, without the
     * lock.
     */
    @Test
    void aCreationLockHeldTooLongIsRefusedNamingItsHolderAndExistingNamesAreStillFound() throws Exception {
        WriterRegistry writers = WriterRegistry.acquire(dir);
        try (Arena arena = Arena.ofConfined()) {
            ConsumerSlots slots = ConsumerFile.mapOrCreate(dir, false, arena, writers);
            long me = writers.lease(false);
            assertEquals(0, slots.findOrCreate("existing".getBytes(StandardCharsets.US_ASCII), -1, me));
            Process holder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), CreationLockHolder.class.getName(), dir.toString())
                    .redirectErrorStream(true).start();
            try {
                BufferedReader output = new BufferedReader(new InputStreamReader(holder.getInputStream(),
                        StandardCharsets.UTF_8));
                assertEquals("locked", output.readLine());
                assertEquals(0, slots.findOrCreate("existing".getBytes(StandardCharsets.US_ASCII), -1, me),
                        "an existing name takes no lock");
                long start = System.nanoTime();
                IllegalStateException refused = assertThrows(IllegalStateException.class,
                        () -> slots.findOrCreate("new".getBytes(StandardCharsets.US_ASCII), -1, me));
                long waitedMillis = (System.nanoTime() - start) / 1_000_000;
                assertTrue(waitedMillis >= 9_000 && waitedMillis < 60_000, "waited " + waitedMillis + " ms");
                assertTrue(refused.getMessage().contains("byte 40 of " + dir.resolve(WriterRegistry.NAME))
                        && refused.getMessage().contains("pid " + holder.pid()), refused.getMessage());
                assertEquals(-1, slots.find("new".getBytes(StandardCharsets.US_ASCII)), "nothing was created");
                holder.getOutputStream().write('\n');
                holder.getOutputStream().flush();
                assertTrue(holder.waitFor(60, TimeUnit.SECONDS));
                assertEquals(1, slots.findOrCreate("new".getBytes(StandardCharsets.US_ASCII), -1, me),
                        "the lock is free again");
            } finally {
                holder.destroyForcibly();
            }
        } finally {
            writers.release();
        }
    }
}
