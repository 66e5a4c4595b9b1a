package io.blit.replication;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.QueueFencedException;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * A primary in a process of its own, for {@link PartitionTest}: it serves its queue on a control endpoint and a
 * producer thread appends ticks (tick n at index n) on one appender it keeps open, as an application would, until the
 * process stops. Arguments: queue directory, control endpoint, and the directory of a media driver it launches that
 * can be cut off from the network ({@link LossyDriver#cutOff}), or {@code -} for the source's embedded driver.
 *
 * <p>Commands, one a line on standard input: {@code append <n>} appends n ticks and answers {@code end <index>};
 * {@code produce} lets the producer append one tick about every 2 ms until the process stops; {@code cut} and
 * {@code heal} cut its own media driver off the network and back (answered {@code cut}, {@code healed});
 * {@code stop} closes everything and exits 0. The producer prints {@code fenced <term> <newTerm>} at its first
 * refused append and goes on trying, printing {@code appended after the fence <index>} should one succeed
 * (and {@code appended tick <n> at index <index>} should another writer have taken an index).
 */
public final class PartitionedPrimary {
    private static final long PACE_NANOS = 2_000_000;

    private final BlitQueue<Tick> queue;
    private volatile long target;
    private volatile long next;
    private volatile boolean producing;
    private volatile boolean stopping;

    private PartitionedPrimary(BlitQueue<Tick> queue) {
        this.queue = queue;
        this.next = queue.endIndex();
        this.target = next;
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        LossyDriver driver = args[2].equals("-") ? null : new LossyDriver(args[2]);
        SourceOptions options = ReplicationTest.options(args[1]);
        try (BlitQueue<Tick> queue = BlitQueue.open(dir, Tick.class, ReplicationTest.SMALL);
             ReplicationSource source = ReplicationSource.start(dir, driver == null ? options
                     : options.aeronDir(driver.directory()))) {
            PartitionedPrimary primary = new PartitionedPrimary(queue);
            Thread producer = Thread.ofPlatform().name("producer").start(primary::produce);
            say("started");
            BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = commands.readLine(); line != null && !line.equals("stop"); line = commands.readLine()) {
                primary.obey(line, driver);
            }
            primary.stopping = true;
            producer.join();
        } finally {
            if (driver != null) {
                driver.close();
            }
        }
        say("stopped");
    }

    private void obey(String command, LossyDriver driver) throws InterruptedException {
        switch (command.split(" ")[0]) {
            case "append" -> {
                target = next + Long.parseLong(command.substring("append ".length()));
                while (next < target) {
                    Thread.sleep(1);
                }
                say("end " + next);
            }
            case "produce" -> producing = true;
            case "cut" -> {
                driver.cutOff(true);
                say("cut");
            }
            case "heal" -> {
                driver.cutOff(false);
                say("healed");
            }
            default -> say("unknown command " + command);
        }
    }

    /** The producer's loop: one appender, open from before the partition until the process stops. */
    private void produce() {
        Tick tick = new Tick();
        boolean fenced = false;
        try (Appender<Tick> appender = queue.appender()) {
            while (!stopping) {
                if (!producing && next >= target) {
                    LockSupport.parkNanos(PACE_NANOS);
                    continue;
                }
                try {
                    long index = appender.append(tick.fillFor(next));
                    if (fenced) {
                        say("appended after the fence " + index);
                    } else if (index != next) {
                        say("appended tick " + next + " at index " + index);
                    }
                    next = index + 1;
                } catch (QueueFencedException refused) {
                    if (!fenced) {
                        fenced = true;
                        say("fenced " + refused.term() + " " + refused.newTerm());
                    }
                }
                if (producing) {
                    LockSupport.parkNanos(PACE_NANOS);
                }
            }
        }
    }

    private static void say(String line) {
        synchronized (System.out) {
            System.out.println(line);
            System.out.flush();
        }
    }
}
