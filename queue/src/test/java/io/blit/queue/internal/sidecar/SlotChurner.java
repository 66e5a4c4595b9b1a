package io.blit.queue.internal.sidecar;

import io.blit.queue.ConsumerHeldException;
import io.blit.queue.internal.writer.WriterRegistry;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A creator that removes and reuses slots, in a child JVM or a thread, for {@link ConsumerSlotReuseConcurrencyTest}:
 * {@code SlotChurner <dir> <rounds> <worker id>} prints "ready", waits for a line on stdin, runs its rounds, prints one
 * line per duplicate it saw ("duplicate ...") and then "done".
 *
 * <p>A round finds or creates one of {@value #SHARED} names every worker uses, claims its slot (a name cannot be
 * removed while it is held: a removal claims it first), and while holding it scans the file: the name must be READY
 * in that slot and in no other. Then it marks the name REMOVED and releases it, and creates and removes a name of its
 * own, so that every creation reuses a REMOVED slot of another name.
 */
public final class SlotChurner {
    /** The names every worker creates, holds and removes. */
    static final int SHARED = 3;

    private SlotChurner() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int rounds = Integer.parseInt(args[1]);
        int id = Integer.parseInt(args[2]);
        System.out.println("ready");
        System.out.flush();
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        for (String line : churn(dir, rounds, id)) {
            System.out.println(line);
        }
        System.out.println("done");
        System.out.flush();
    }

    /** What a worker does; its lines, one per duplicate seen (none if the invariant held). */
    static List<String> churn(Path dir, int rounds, int id) {
        List<String> duplicates = new ArrayList<>();
        Random random = new Random(id);
        WriterRegistry writers = WriterRegistry.acquire(dir);
        try (Arena arena = Arena.ofConfined()) {
            ConsumerSlots slots = ConsumerFile.mapOrCreate(dir, false, arena, writers);
            long me = writers.lease(false);
            for (int r = 0; r < rounds; r++) {
                String name = "shared-" + random.nextInt(SHARED);
                byte[] bytes = name.getBytes(StandardCharsets.US_ASCII);
                int k = slots.findOrCreate(bytes, r, me);
                boolean claimed;
                try {
                    claimed = slots.claim(k, name, me);
                } catch (ConsumerHeldException heldByAnotherWorker) {
                    claimed = false;
                }
                if (claimed) {
                    try {
                        if (slots.isReady(k, bytes)) {
                            for (ConsumerSlots.Entry entry : slots.entries()) {
                                if (entry.name().equals(name) && entry.slot() != k) {
                                    duplicates.add("duplicate " + name + " in slots " + k + " and " + entry.slot());
                                }
                            }
                            slots.markRemoved(k, bytes);
                        }
                    } finally {
                        slots.release(k, me);
                    }
                }
                byte[] own = ("own-" + id + "-" + r).getBytes(StandardCharsets.US_ASCII);
                int mine = slots.findOrCreate(own, -1, me);
                slots.markRemoved(mine, own);
            }
        } finally {
            writers.release();
        }
        return duplicates;
    }
}
