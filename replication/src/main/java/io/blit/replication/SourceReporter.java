package io.blit.replication;

import io.blit.queue.BlitQueue;
import io.blit.queue.QueueOptions;
import io.blit.queue.TermHistory;
import io.blit.queue.replica.RecordStream;
import io.blit.queue.replica.ServingReport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Writes a serving source's {@link ServingReport} into its queue directory once every {@link #INTERVAL_MILLIS}, from a
 * thread of its own (never from the control thread, whose acknowledgements an appender may be waiting for), and
 * deletes it when the source stops: what {@code blit replicate status} shows of the group on the primary's machine.
 *
 * <p>A report that cannot be written is logged once per failure streak and retried a second later; it never stops
 * the source. Thread-safety: {@link #start} and {@link #close} from the source's owner; the sessions are read as the
 * source's other readers do (volatile fields).
 */
final class SourceReporter implements AutoCloseable {
    /** How often the report is rewritten. */
    static final long INTERVAL_MILLIS = 1_000;
    /** How many events a look for the first lacking record's time reads at most (abandoned records on the way). */
    private static final int TIME_SEARCH_EVENTS = 64;
    private static final System.Logger LOG = System.getLogger("io.blit.replication");

    private final Path dir;
    private final String control;
    private final Collection<SourceSession> sessions;
    private final BlitQueue<Void> queue;
    private final LongSupplier wallClock;
    private final Thread thread;
    private volatile boolean running = true;
    private boolean failing;

    SourceReporter(Path dir, String control, Collection<SourceSession> sessions, BlitQueue<Void> queue,
                   LongSupplier wallClock) {
        this.dir = dir;
        this.control = control;
        this.sessions = sessions;
        this.queue = queue;
        this.wallClock = wallClock;
        this.thread = Thread.ofPlatform().name("blit-replication-report").daemon().unstarted(this::run);
    }

    void start() {
        thread.start();
    }

    private void run() {
        try {
            ServingReport.deleteLeftovers(dir);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot clean the serving report's leftovers in " + dir, e);
        }
        while (running) {
            try {
                report().writeTo(dir);
                failing = false;
            } catch (RuntimeException e) { // a full disk, a removed directory: say so once, try again
                if (!failing) {
                    LOG.log(System.Logger.Level.WARNING, "cannot write the serving report of " + dir, e);
                }
                failing = true;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(INTERVAL_MILLIS));
        }
    }

    /** {@return the report of now} */
    ServingReport report() {
        long end = queue.endIndex();
        long now = wallClock.getAsLong();
        List<ServingReport.Replica> replicas = new ArrayList<>();
        for (SourceSession session : sessions) {
            long acknowledged = Math.min(session.committed, end);
            List<TermHistory.Term> terms = session.request.terms();
            long term = terms.isEmpty() ? 0 : terms.getLast().number();
            replicas.add(new ServingReport.Replica(session.request.replicaId(), session.running(), session.peer,
                    session.endpoint, term, acknowledged, session.forced, session.request.sync(), end - acknowledged,
                    lagMillis(acknowledged, end, now)));
        }
        return new ServingReport(ProcessHandle.current().pid(), control, now, end, replicas);
    }

    /** How old the record of {@code index} is at {@code now}: 0 if none is lacking, -1 if its time is unknown. */
    private long lagMillis(long index, long end, long now) {
        if (index >= end) {
            return 0;
        }
        try (RecordStream stream = RecordStream.open(dir, QueueOptions.defaults(), index)) {
            for (int events = 0; events < TIME_SEARCH_EVENTS; events++) {
                int event = stream.poll();
                if (event == RecordStream.NONE) {
                    return -1;
                }
                if (event == RecordStream.RECORD && stream.time() != Long.MIN_VALUE) {
                    return Math.max(0, now - TimeUnit.NANOSECONDS.toMillis(stream.time()));
                }
            }
            return -1;
        } catch (RuntimeException e) { // deleted by retention meanwhile, or damaged: the lag's age is unknown
            return -1;
        }
    }

    /** Stops the thread and deletes the report. */
    @Override
    public void close() {
        running = false;
        java.util.concurrent.locks.LockSupport.unpark(thread); // not an interrupt: that would close a channel mid-write
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            ServingReport.delete(dir);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot delete the serving report of " + dir, e);
        }
    }
}
