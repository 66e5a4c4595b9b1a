package io.blit.queue;

import io.blit.queue.replica.QueueTerms;
import java.nio.file.Path;

/**
 * A child JVM for {@link QueueFencingTest}: {@code ChildFencer <dir> <term>} raises the fence of the queue in
 * {@code dir} to {@code term}, prints "raised" or "not raised", and exits 0.
 */
public final class ChildFencer {
    private ChildFencer() {
    }

    public static void main(String[] args) {
        System.out.println(QueueTerms.fence(Path.of(args[0]), Long.parseLong(args[1])) ? "raised" : "not raised");
        System.out.flush();
    }
}
