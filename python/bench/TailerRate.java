import io.blit.queue.BlitQueue;
import io.blit.queue.QueueOptions;
import io.blit.queue.Tailer;
import io.blit.tools.messages.MarketData;
import java.nio.file.Path;

/**
 * The Java tailer's rate over an existing MarketData queue, for bench_to_numpy.py: reads every message into one
 * reused MarketData with a read-only queue's tailer, twice (the first pass warms the JIT and the page cache), and
 * prints "java-tailer RECORDS SECONDS" for the second. Run: java -cp queue-demo.jar TailerRate.java DIR
 */
public final class TailerRate {
    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        for (int pass = 0; pass < 2; pass++) {
            try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, QueueOptions.defaults().readOnly(true));
                 Tailer<MarketData> tailer = queue.tailer()) {
                MarketData into = new MarketData();
                long start = System.nanoTime();
                long records = 0;
                long sum = 0;
                while (tailer.readNext(into)) {
                    records++;
                    sum += into.securityId;
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                if (pass == 1) {
                    System.out.printf("java-tailer %d %.4f checksum %d%n", records, seconds, sum);
                }
            }
        }
    }
}
