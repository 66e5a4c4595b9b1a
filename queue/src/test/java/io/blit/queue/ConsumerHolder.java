package io.blit.queue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A child JVM for {@link NamedTailerProcessTest}: {@code ConsumerHolder <dir> <name> <count>} opens the named consumer,
 * reads and commits {@code count} messages, prints "held <committed index>", then holds the name until its stdin
 * closes; then it closes the tailer and exits 0.
 */
public final class ConsumerHolder {
    private ConsumerHolder() {
    }

    public static void main(String[] args) throws Exception {
        try (BlitQueue<MarketData> queue = BlitQueue.open(Path.of(args[0]), MarketData.class);
             NamedTailer<MarketData> tailer = queue.tailer(args[1])) {
            MarketData md = new MarketData();
            for (int i = 0; i < Integer.parseInt(args[2]); i++) {
                if (!tailer.readNext(md)) {
                    throw new IllegalStateException("message " + tailer.index() + " missing");
                }
            }
            tailer.commit();
            System.out.println("held " + tailer.committedIndex());
            System.out.flush();
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        }
    }
}
