package io.blit.cli;

import io.blit.queue.BlitQueue;
import io.blit.queue.ConsumerHeldException;
import io.blit.queue.ConsumerPosition;
import io.blit.queue.QueueOptions;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What {@code consumers remove} and {@code consumers move} share: opening the queue to write its positions file,
 * finding the consumer, and refusing a consumer a live process holds with exit code {@value CliSupport#FAILED} and one
 * line naming the holder's pid. Stateless.
 */
final class ConsumerChange {
    private ConsumerChange() {
    }

    /** The queue in {@code dir}, opened to write (a positions file changes), with the defaults. */
    static BlitQueue<Void> open(Path dir) {
        QueueFiles.existingQueue(dir);
        return BlitQueue.openRaw(dir, QueueOptions.defaults());
    }

    /**
     * The consumer {@code name} of {@code queue} as stored now.
     *
     * @throws BadInputException if the queue has no consumer of that name
     */
    static ConsumerPosition existing(BlitQueue<Void> queue, String name) {
        Optional<ConsumerPosition> found = queue.consumers().stream().filter(c -> c.name().equals(name)).findFirst();
        return found.orElseThrow(() -> new BadInputException("queue " + queue.directory() + " has no consumer "
                + name + " (consumers --dir " + queue.directory() + " lists them)"));
    }

    /** Prints the refusal of a held consumer on {@code err}; {@return {@link CliSupport#FAILED}} */
    static int refused(ConsumerHeldException held, String what, PrintStream err) {
        err.println("error: cannot " + what + " consumer " + held.consumer() + ": process " + held.holderPid()
                + " holds it; stop that reader first");
        err.flush();
        return CliSupport.FAILED;
    }
}
