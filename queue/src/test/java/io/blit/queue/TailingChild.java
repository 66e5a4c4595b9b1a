package io.blit.queue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM's blocking tailer for {@link WriterLivenessTest}: {@code TailingChild <dir> <count>} prints "pid P"
 * (its pid in its own pid namespace) and "ready" once its tailer is open, then reads {@code count} messages with a
 * blocking {@link Tailer#next} (30 s at most each) and prints "read I" for each as it gets it ("timeout" if one
 * does not come).
 */
public final class TailingChild {
    private TailingChild() {
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        int count = Integer.parseInt(args[1]);
        System.out.println("pid " + ProcessHandle.current().pid());
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class);
             Tailer<MarketData> tailer = queue.tailer()) {
            System.out.println("ready");
            System.out.flush();
            MarketData md = new MarketData();
            for (int n = 0; n < count; n++) {
                if (!tailer.next(md, WaitStrategy.PARK, TimeUnit.SECONDS.toNanos(30))) {
                    System.out.println("timeout at " + tailer.index());
                    return;
                }
                System.out.println("read " + (tailer.index() - 1));
                System.out.flush();
            }
        }
    }
}
