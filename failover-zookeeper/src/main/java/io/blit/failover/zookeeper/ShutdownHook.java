package io.blit.failover.zookeeper;

/**
 * A node's JVM shutdown hook (SIGTERM), which closes the node so that a primary fences its directory before the
 * process ends: registered when the node starts, removed when it closes, absent when
 * {@link FailoverOptions#closeOnShutdown} is off.
 *
 * <p>Thread-safety: {@link #register} is called once, by the node as it starts; {@link #remove} once, by whichever
 * thread closes the node, the hook's own thread included (then it does nothing: the JVM runs the hook).
 */
final class ShutdownHook {
    /** The hook's thread; null without one. */
    private final Thread thread;

    /**
     * @param enabled whether the node has a hook
     * @param nodeId  the node's id, which names the hook's thread
     * @param work    what the hook does: close the node
     */
    ShutdownHook(boolean enabled, String nodeId, Runnable work) {
        this.thread = enabled ? Thread.ofPlatform().name("blit-failover-shutdown-" + nodeId).unstarted(work) : null;
    }

    /** Registers the hook with the JVM, if the node has one. */
    void register() {
        if (thread != null) {
            Runtime.getRuntime().addShutdownHook(thread);
        }
    }

    /** Removes the hook from the JVM, unless the calling thread is the hook itself or the JVM shuts down already. */
    void remove() {
        if (thread != null && Thread.currentThread() != thread) {
            try {
                Runtime.getRuntime().removeShutdownHook(thread);
            } catch (IllegalStateException shuttingDown) {
                // the JVM shuts down: the hook runs, and finds the node closed
            }
        }
    }
}
