package io.blit.queue;

import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * A child JVM's writer for {@link WriterLivenessTest}: {@code ClaimingChild <dir> <count>} appends MarketData
 * {@code fillFor(n)} for n = 0 to count - 1, then claims index {@code count} and stops between claim and commit for
 * good, as a writer killed there would. It prints "pid P" (its pid in its own pid namespace), then "claimed I".
 */
public final class ClaimingChild {
    private ClaimingChild() {
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        int count = Integer.parseInt(args[1]);
        System.out.println("pid " + ProcessHandle.current().pid());
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class);
             Appender<MarketData> appender = queue.appender()) {
            MarketData md = new MarketData();
            for (int n = 0; n < count; n++) {
                appender.append(md.fillFor(n, 0));
            }
            appender.append(md, (message, index) -> {
                System.out.println("claimed " + index);
                System.out.flush();
                while (true) {
                    LockSupport.park(); // until killed
                }
            });
        }
    }
}
