package io.blit.queue.internal.sidecar;

import io.blit.queue.internal.writer.WriterRegistry;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * A child JVM for {@link ConsumerSlotsConcurrencyTest}: {@code SlotCreator <dir> <names> <creator id>} prints "ready",
 * waits for a line on stdin, then maps (creating) the positions file of {@code dir} and finds or creates the slots of
 * names {@code n0 .. n<names-1>} in an order shuffled by its id, each with initial committed index
 * {@code id * 1000 + name number}; prints "name slot" per name, then "done".
 */
public final class SlotCreator {
    private SlotCreator() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int names = Integer.parseInt(args[1]);
        int id = Integer.parseInt(args[2]);
        System.out.println("ready");
        System.out.flush();
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        for (String line : create(dir, names, id)) {
            System.out.println(line);
        }
        System.out.println("done");
        System.out.flush();
    }

    /** What a creator does; its lines "name slot". */
    static List<String> create(Path dir, int names, int id) {
        List<Integer> order = new ArrayList<>();
        for (int n = 0; n < names; n++) {
            order.add(n);
        }
        Collections.shuffle(order, new Random(id));
        List<String> lines = new ArrayList<>();
        WriterRegistry writers = WriterRegistry.acquire(dir);
        try (Arena arena = Arena.ofConfined()) {
            ConsumerSlots slots = ConsumerFile.mapOrCreate(dir, false, arena, writers);
            long me = writers.lease(false);
            for (int n : order) {
                int slot = slots.findOrCreate(("n" + n).getBytes(StandardCharsets.US_ASCII), id * 1000L + n, me);
                lines.add("n" + n + " " + slot);
            }
        } finally {
            writers.release();
        }
        return lines;
    }
}
