package io.blit.failover.zookeeper.node;

import io.blit.failover.zookeeper.FailoverNode;
import io.blit.failover.zookeeper.FailoverOptions;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The main class of {@code blit-failover.jar}: {@code failover node --config FILE} runs a {@link FailoverNode} from a
 * configuration file ({@link NodeConfig}) until the JVM is stopped, printing one line per change of its role
 * ({@link RoleLines}). SIGTERM (or SIGINT) runs the node's own shutdown hook, which fences a primary's directory and
 * leaves the election; the JVM then exits with 143 (130). A bad command line or configuration: one line
 * {@code error: ...} on stderr and exit code 2, nothing started.
 */
public final class FailoverMain {
    /** Exit code of a usage error or a bad configuration, as blit.jar's. */
    static final int USAGE = 2;
    static final String USAGE_LINE = "usage: blit failover node --config FILE";
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
