package io.blit.queue;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs one fuzz try in a thread of its own and fails if it does not end in time: a hang is a failure, not a stuck
 * build. The try's whole body runs in that thread, since the queue's mappings are confined to the thread that made
 * them. A try that hangs keeps its thread (a loop cannot be stopped); later tries then fail at once, so that shrinking
 * does not start one more stuck thread per attempt.
 */
final class Bounded {
    private static volatile String hung;

    private Bounded() {
    }

    /** The result of {@code body}, run in a new daemon thread; what it throws is thrown here (errors as they are). */
    static <T> T call(Duration limit, Callable<T> body) {
        if (hung != null) {
            throw new AssertionError("not run: an earlier try hung (" + hung + ")");
        }
        FutureTask<T> task = new FutureTask<>(body);
        Thread thread = Thread.ofPlatform().daemon().name("fuzz-try").start(task);
        try {
            return task.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            thread.interrupt(); // ends a blocked file operation; a loop goes on
            hung = "more than " + limit + ", stack " + java.util.Arrays.toString(thread.getStackTrace());
            throw new AssertionError("the try did not end within " + limit + ": " + hung);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new AssertionError(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** As {@link #call}, for a body without a result. */
    static void run(Duration limit, ThrowingRunnable body) {
        call(limit, () -> {
            body.run();
            return null;
        });
    }

    /** A body that may throw anything. */
    @FunctionalInterface
    interface ThrowingRunnable {
        void run() throws Exception;
    }
}
