package io.blit.failover.zookeeper.node;

import io.blit.failover.zookeeper.FailoverNode;
import io.blit.failover.zookeeper.FailoverOptions;
import io.blit.failover.zookeeper.HandoverRequest;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The main class of {@code blit-failover.jar}: {@code failover handover --config FILE --to NODE} asks the group's
 * primary to hand over to a node ({@link #handover}); {@code failover node --config FILE} runs a {@link FailoverNode} from a
 * configuration file ({@link NodeConfig}) until the JVM is stopped, printing one line per change of its role
 * ({@link RoleLines}). SIGTERM (or SIGINT) runs the node's own shutdown hook, which fences a primary's directory and
 * leaves the election; the JVM then exits with 143 (130). A bad command line or configuration: one line
 * {@code error: ...} on stderr and exit code 2, nothing started.
 */
public final class FailoverMain {
    /** Exit code of a usage error or a bad configuration, as blit.jar's. */
    static final int USAGE = 2;
    static final String USAGE_LINE = "usage: blit failover node --config FILE | blit failover handover --config FILE"
            + " --to NODE";
    /** Exit code of a handover that did not happen (refused, or not in time). */
    static final int FAILED = 1;
    /** How long the printing hook waits for the node's own hook to close it. */
    private static final long CLOSE_WAIT_MILLIS = 40_000;
    private static final long POLL_MILLIS = 10;

    private FailoverMain() {
    }

    /**
     * Runs {@code failover node --config FILE}; returns only for {@code --help} or a bad command line or configuration
     * (then exiting with the code), else runs until the JVM is stopped.
     *
     * @param args the command line
     * @throws InterruptedException if the main thread is interrupted
     */
    public static void main(String[] args) throws InterruptedException {
        // Curator and ZooKeeper log through slf4j: warnings and errors only, unless the JVM's flags say otherwise.
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
        if (args.length > 0 && args[0].equals("handover")) {
            System.exit(handover(List.of(args), System.out, System.err));
            return;
        }
        FailoverOptions options;
        try {
            Path config = configOf(List.of(args));
            if (config == null) {
                System.out.println(USAGE_LINE);
                System.out.println("Runs a failover node from the configuration file FILE (docs/failover.md).");
                return;
            }
            options = NodeConfig.read(config);
        } catch (NodeConfig.BadConfigException e) {
            System.err.println("error: " + e.getMessage());
            System.exit(USAGE);
            return;
        }
        run(options, System.out);
    }

    /**
     * {@return the configuration file of {@code args}, or null for {@code --help}}
     *
     * @throws NodeConfig.BadConfigException if {@code args} is not {@code node --config FILE} or {@code --help}
     */
    static Path configOf(List<String> args) {
        if (args.contains("--help") || args.contains("-h")) {
            return null;
        }
        if (args.size() == 3 && args.get(0).equals("node") && args.get(1).equals("--config")) {
            return Path.of(args.get(2));
        }
        if (args.size() == 2 && args.get(0).equals("node") && args.get(1).startsWith("--config=")) {
            return Path.of(args.get(1).substring("--config=".length()));
        }
        throw new NodeConfig.BadConfigException(args.isEmpty() || !args.getFirst().equals("node")
                ? "failover: node expected (" + USAGE_LINE + ")" : "failover node: " + String.join(" ", args.subList(1,
                args.size())) + ": --config FILE expected (" + USAGE_LINE + ")");
    }

    /**
     * Runs {@code failover handover --config FILE --to NODE}: asks the group's primary to hand over to node
     * {@code NODE} ({@link HandoverRequest}) and waits, up to twice the session timeout and 10 s more, until it is the
     * primary; prints {@code handed over to NODE at term T in N ms}. {@return the exit code: 0, {@link #FAILED} if the
     * handover did not happen (one line {@code error: ...}), {@link #USAGE} for a bad command line or configuration}
     *
     * @throws InterruptedException if the thread is interrupted
     */
    static int handover(List<String> args, PrintStream out, PrintStream err) throws InterruptedException {
        FailoverOptions options;
        String to;
        try {
            if (args.size() != 5 || !args.get(1).equals("--config") || !args.get(3).equals("--to")) {
                throw new NodeConfig.BadConfigException("failover handover: " + String.join(" ", args.subList(1,
                        args.size())) + ": --config FILE --to NODE expected (" + USAGE_LINE + ")");
            }
            options = NodeConfig.read(Path.of(args.get(2)));
            to = args.get(4);
        } catch (NodeConfig.BadConfigException e) {
            err.println("error: " + e.getMessage());
            return USAGE;
        }
        long started = System.nanoTime();
        try {
            long term = HandoverRequest.request(options, to, options.sessionTimeout().multipliedBy(2)
                    .plusSeconds(10));
            out.println("handed over to " + to + " at term " + term + " in "
                    + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started) + " ms");
            return 0;
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return USAGE;
        } catch (TimeoutException | IllegalStateException e) {
            err.println("error: " + e.getMessage());
            return FAILED;
        }
    }

    private static void run(FailoverOptions options, PrintStream out) throws InterruptedException {
        RoleLines lines = new RoleLines(out);
        FailoverNode node;
        try {
            node = FailoverNode.start(options);
        } catch (UncheckedIOException e) {
            System.err.println("error: " + e.getMessage() + ": " + e.getCause());
            System.exit(USAGE);
            return;
        }
        out.println("node " + node.nodeId() + " joined group " + options.groupPath() + " at "
                + options.connectString());
        out.flush();
        // Runs beside the node's own hook, which fences and closes it: prints what the closing did.
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name("blit-failover-lines").unstarted(() -> {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_WAIT_MILLIS);
            while (node.state().role() != FailoverNode.Role.CLOSED && System.nanoTime() < deadline) {
                lines.show(node.state());
                sleep();
            }
            lines.closed(options.dir());
        }));
        while (node.state().role() != FailoverNode.Role.CLOSED) {
            lines.show(node.state());
            Thread.sleep(POLL_MILLIS);
        }
        Thread.sleep(Long.MAX_VALUE); // closed only by the shutdown: the JVM is on its way out
    }

    private static void sleep() {
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
