package io.blit.replication;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Counts the sessions a source starts as its operator sees them: the "serving replica" line each one logs. Listens
 * to the {@code io.blit.replication} logger from construction to {@link #close()}. Thread-safe.
 */
final class SessionLog extends Handler implements AutoCloseable {
    private static final String SESSION_STARTED = "serving replica ";

    /** Held: the JDK's logging keeps loggers only weakly, and a collected logger would drop this handler. */
    private final Logger logger = Logger.getLogger("io.blit.replication");
    private final AtomicInteger sessionsStarted = new AtomicInteger();

    SessionLog() {
        logger.addHandler(this);
    }

    /** {@return how many sessions were logged as started since this log was opened} */
    int sessionsStarted() {
        return sessionsStarted.get();
    }

    @Override
    public void publish(LogRecord record) {
        String message = record.getMessage();
        if (message != null && message.startsWith(SESSION_STARTED)) {
            sessionsStarted.incrementAndGet();
        }
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        logger.removeHandler(this);
    }
}
