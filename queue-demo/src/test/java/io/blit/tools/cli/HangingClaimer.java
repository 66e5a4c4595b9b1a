package io.blit.tools.cli;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.tools.messages.MarketData;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * A child JVM's writer for {@link DeadWriterToolsTest}: {@code HangingClaimer <dir>} claims the next index of a
 * MarketData queue and stops between claim and commit for good, as a writer killed there would. It prints
 * "claimed I".
 */
public final class HangingClaimer {
    private HangingClaimer() {
    }

    public static void main(String[] args) {
        try (BlitQueue<MarketData> queue = BlitQueue.open(Path.of(args[0]), MarketData.class);
             Appender<MarketData> appender = queue.appender()) {
            appender.append(new MarketData(), (message, index) -> {
                System.out.println("claimed " + index);
                System.out.flush();
                while (true) {
                    LockSupport.park(); // until killed
                }
            });
        }
    }
}
