package io.blit.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Lets a long-running command end cleanly on SIGTERM/SIGINT: the JVM's shutdown hook asks the command to stop and
 * then waits (at most {@link #CLOSE_GRACE_SECONDS}) until the command has closed what it holds — a replica's or
 * source's embedded media driver deletes its directory in {@code /dev/shm} only when closed — before the JVM halts.
 * Use it in try-with-resources around the resources it must outlive; {@link #close()} unregisters it.
 */
final class StopOnSignal implements AutoCloseable {
    static final int CLOSE_GRACE_SECONDS = 10;

    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final CountDownLatch closed = new CountDownLatch(1);
    private final Thread hook = new Thread(this::stopAndWait, "stop-on-signal");

    StopOnSignal() {
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Waits up to {@code seconds}; returns true if a stop was requested. */
    boolean awaitStop(long seconds) throws InterruptedException {
        return stopRequested.await(seconds, TimeUnit.SECONDS);
    }

    private void stopAndWait() {
        stopRequested.countDown();
        try {
            closed.await(CLOSE_GRACE_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Marks the command's resources closed (a waiting hook returns) and unregisters the hook if the JVM is not exiting. */
    @Override
    public void close() {
        closed.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException exiting) {
            // the hook is running: it returns now that closed is counted down
        }
    }
}
