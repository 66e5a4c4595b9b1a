package io.blit.queue.internal.sidecar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.internal.writer.WriterRegistry;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several processes and threads create the positions file and the same names at once: the file is
 * created once, every name gets exactly one slot, every creator agrees on it, and the slots used are a prefix.
 */
class ConsumerSlotsConcurrencyTest {
    private static final int NAMES = 80;
    private static final int PROCESSES = 2;
    private static final int THREADS = 3;

    @TempDir
    Path dir;

    @Test
    void creatorsInThreadsAndProcessesAgreeOnOneSlotPerName() throws Exception {
        List<Process> children = new ArrayList<>();
        List<BufferedReader> outputs = new ArrayList<>();
        for (int p = 0; p < PROCESSES; p++) {
            Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "--sun-misc-unsafe-memory-access=allow", "-cp", System.getProperty("java.class.path"),
                    SlotCreator.class.getName(), dir.toString(), Integer.toString(NAMES), Integer.toString(p + 1))
                    .redirectErrorStream(true).start();
            children.add(child);
            BufferedReader output = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            outputs.add(output);
            assertEquals("ready", output.readLine(), "child " + p + " started");
        }
        CountDownLatch go = new CountDownLatch(1);
        List<Future<List<String>>> threads = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            for (int t = 0; t < THREADS; t++) {
                int id = 10 + t;
                threads.add(pool.submit(() -> {
                    go.await();
                    return SlotCreator.create(dir, NAMES, id);
                }));
            }
            for (Process child : children) {
                OutputStream in = child.getOutputStream();
                in.write("go\n".getBytes(StandardCharsets.UTF_8));
                in.flush();
            }
            go.countDown();

            List<List<String>> results = new ArrayList<>();
            for (Future<List<String>> thread : threads) {
                results.add(thread.get(60, TimeUnit.SECONDS));
            }
            for (int p = 0; p < PROCESSES; p++) {
                List<String> lines = new ArrayList<>();
                for (String line; !"done".equals(line = outputs.get(p).readLine()); ) {
                    assertTrue(line != null && line.matches("n\\d+ \\d+"), "child " + p + " printed " + line);
                    lines.add(line);
                }
                assertTrue(children.get(p).waitFor(30, TimeUnit.SECONDS));
                assertEquals(0, children.get(p).exitValue());
                results.add(lines);
            }

            Map<String, Integer> slotOf = new HashMap<>();
            for (List<String> lines : results) {
                assertEquals(NAMES, lines.size());
                for (String line : lines) {
                    String[] parts = line.split(" ");
                    Integer earlier = slotOf.putIfAbsent(parts[0], Integer.parseInt(parts[1]));
                    assertTrue(earlier == null || earlier == Integer.parseInt(parts[1]), "creators disagree on " + line);
                }
            }
            assertEquals(NAMES, slotOf.size());
            assertEquals(NAMES, new HashSet<>(slotOf.values()).size(), "one slot per name");
            assertTrue(slotOf.values().stream().allMatch(slot -> slot < NAMES), "the slots used are a prefix: " + slotOf);

            try (Arena arena = Arena.ofConfined()) {
                ConsumerSlots slots = ConsumerFile.mapExisting(dir, arena, false, null);
                Set<Long> creators = Set.of(1L, 2L, 10L, 11L, 12L);
                assertEquals(NAMES, slots.entries().size());
                for (ConsumerSlots.Entry entry : slots.entries()) {
                    assertEquals(slotOf.get(entry.name()), entry.slot());
                    long n = Long.parseLong(entry.name().substring(1));
                    assertTrue(creators.contains((entry.committed() - n) / 1000) && (entry.committed() - n) % 1000 == 0,
                            "the position one creator gave " + entry);
                }
            }
            try (Stream<Path> files = Files.list(dir)) {
                assertEquals(List.of(ConsumerFile.NAME, WriterRegistry.NAME),
                        files.map(f -> f.getFileName().toString()).sorted().toList(),
                        "one positions file beside the creators' writer registry, no temporary left");
            }
        } finally {
            pool.shutdownNow();
            children.forEach(Process::destroyForcibly);
        }
    }
}
