package io.blit.queue;

import io.blit.core.LayoutPolicy;
import io.blit.layout.JvmFacts;
import java.nio.file.Path;

/**
 * A child JVM for {@link FormatSampleTest}, run under explicit header flags: {@code <typed queue dir> <policy>...}
 * prints "MODE header-mode", then for each layout policy "POLICY name" and either every message of the queue read
 * under that policy as "VALUE " and {@link SampleV1Message#values()} then "read N", or, when opening or reading fails, "EXCEPTION class" and
 * "MESSAGE first line of the message".
 */
public final class FormatSampleReader {
    private FormatSampleReader() {
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        System.out.println("MODE " + JvmFacts.current().headerMode());
        for (int a = 1; a < args.length; a++) {
            LayoutPolicy policy = LayoutPolicy.valueOf(args[a]);
            System.out.println("POLICY " + policy);
            QueueOptions options = QueueOptions.defaults().layoutPolicy(policy);
            try (BlitQueue<SampleV1Message> queue = BlitQueue.open(dir, SampleV1Message.class, options);
                 Tailer<SampleV1Message> tailer = queue.tailer()) {
                SampleV1Message message = new SampleV1Message();
                int n = 0;
                while (tailer.readNext(message)) {
                    System.out.println("VALUE " + message.values());
                    n++;
                }
                System.out.println("read " + n);
            } catch (RuntimeException e) {
                System.out.println("EXCEPTION " + e.getClass().getName());
                System.out.println("MESSAGE " + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
            }
        }
        System.out.flush();
    }
}
