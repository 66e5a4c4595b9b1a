package io.blit.tools.latency;

import io.blit.replication.IdleStrategies;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Cross-process mode: a consumer JVM and a producer JVM ({@link LatencyChild}) on one queue in {@code dir}. Both
 * run with the same {@code java} binary as this JVM ({@link ProcessHandle.Info#command()}) and this JVM's class
 * path, so their field layouts agree. The consumer maps the queue and writes a ready file; the producer waits for
 * it, then sends; the consumer writes its histograms to a file this JVM reads. {@link System#nanoTime()} is
 * comparable across processes on Linux (CLOCK_MONOTONIC), which is what makes the latency meaningful; the consumer
 * fails the run on a negative latency if it is not.
 *
 * <p>Pinning ({@code pin}): when {@code taskset} is on the PATH and this machine has at least two CPUs, the
 * producer runs under {@code taskset -c 0} and the consumer under {@code taskset -c 1}; otherwise unpinned (the
 * {@link #canPin()} says which). Children that outlive a failure are destroyed; while they run they are in the
 * caller's {@code live} list, so that the caller's shutdown hook can destroy them on Ctrl-C.
 */
public final class ProcessMode {
    private static final long SLACK_NANOS = TimeUnit.SECONDS.toNanos(180);

    private ProcessMode() {
    }

    /**
     * Runs {@code plan} on a new queue in {@code dir}; {@code work} holds the ready, result and log files.
     *
     * @param live a thread-safe list the children are added to while they run (for the caller's shutdown hook)
     * @throws IllegalStateException naming the failed child and the end of its output if a child fails or hangs
     */
    public static LatencyResult run(RunPlan plan, Path dir, Path work, boolean pin, List<Process> live) throws InterruptedException {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        String classPath = System.getProperty("java.class.path", "");
        if (classPath.isEmpty()) {
            throw new IllegalStateException("process mode starts child JVMs on this JVM's class path, which is empty "
                    + "(run it as java -jar queue-demo.jar ...)");
        }
        Path ready = work.resolve(plan.kind().cliName() + ".ready");
        Path result = work.resolve(plan.kind().cliName() + ".histograms");
        deleteEarlier(ready, result); // an earlier round's: the producer must wait for this consumer's ready file
        boolean pinned = pin && canPin();
        Process consumer = start(command(java, classPath, "consumer", dir, ready, result, plan, pinned ? "1" : null),
                work.resolve(plan.kind().cliName() + "-consumer.log"), live);
        Process producer;
        try {
            producer = start(command(java, classPath, "producer", dir, ready, result, plan, pinned ? "0" : null),
                    work.resolve(plan.kind().cliName() + "-producer.log"), live);
        } catch (RuntimeException e) {
            consumer.destroyForcibly();
            throw e;
        }
        try {
            long deadline = System.nanoTime() + LatencyChild.READY_TIMEOUT_NANOS + 2 * plan.durationNanos() + SLACK_NANOS;
            awaitBoth(producer, consumer, deadline, work, plan.kind());
        } finally {
            producer.destroyForcibly();
            consumer.destroyForcibly();
            producer.waitFor();
            consumer.waitFor();
            live.remove(producer);
            live.remove(consumer);
        }
        List<org.HdrHistogram.Histogram> runs = HistogramFiles.read(result);
        if (runs.size() != plan.runs()) {
            throw new IllegalStateException(result + " holds " + runs.size() + " runs, expected " + plan.runs());
        }
        return new LatencyResult(plan.kind(), "process", plan.rate(), runs, Placement.describe(
                lastLine(work.resolve(plan.kind().cliName() + "-producer.log"), LatencyChild.CPUS_PREFIX),
                lastLine(work.resolve(plan.kind().cliName() + "-consumer.log"), LatencyChild.CPUS_PREFIX)));
    }

    /**
     * Thread mode for a kind that brings JVM flags of its own ({@link LatencyKind#childJvmFlags()}, a peer library's):
     * the producer and consumer threads run in one child JVM started with those flags, so that they never reach the
     * harness's JVM or another kind's, and the child hands back its histograms like a process-mode consumer.
     *
     * @throws IllegalStateException if the child fails (its output in the message) or does not finish in time
     */
    public static LatencyResult runThreadsInOwnJvm(RunPlan plan, Path dir, Path work, List<Process> live)
            throws InterruptedException {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        String classPath = System.getProperty("java.class.path", "");
        Path result = work.resolve(plan.kind().cliName() + ".histograms");
        Path log = work.resolve(plan.kind().cliName() + "-threads.log");
        deleteEarlier(result);
        Process child = start(command(java, classPath, "threads", dir, work.resolve(plan.kind().cliName() + ".ready"),
                result, plan, null), log, live);
        try {
            long deadline = System.nanoTime() + LatencyChild.READY_TIMEOUT_NANOS + 2 * plan.durationNanos() + SLACK_NANOS;
            while (child.isAlive()) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("the " + plan.kind().cliName() + " threads did not finish in time");
                }
                child.waitFor(20, TimeUnit.MILLISECONDS);
            }
            if (child.exitValue() != 0) {
                throw failed("thread-mode child", child, log);
            }
        } finally {
            child.destroyForcibly();
            child.waitFor();
            live.remove(child);
        }
        List<org.HdrHistogram.Histogram> runs = HistogramFiles.read(result);
        if (runs.size() != plan.runs()) {
            throw new IllegalStateException(result + " holds " + runs.size() + " runs, expected " + plan.runs());
        }
        return new LatencyResult(plan.kind(), "thread", plan.rate(), runs, "placement: " + lastLine(log, "placement: "));
    }

    /** Deletes what an earlier round of the same kind left in the work directory. */
    private static void deleteEarlier(Path... files) {
        try {
            for (Path file : files) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot prepare the harness's work directory", e);
        }
    }

    /** What follows {@code prefix} on the last line of {@code log} that starts with it, or "unknown". */
    private static String lastLine(Path log, String prefix) {
        try (java.util.stream.Stream<String> lines = Files.lines(log, StandardCharsets.UTF_8)) {
            return lines.filter(l -> l.startsWith(prefix)).reduce((a, b) -> b).map(l -> l.substring(prefix.length()))
                    .orElse("unknown");
        } catch (IOException | java.io.UncheckedIOException e) {
            return "unknown";
        }
    }

    /** Whether {@code pin} takes effect here: {@code taskset} on the PATH and at least two CPUs. */
    public static boolean canPin() {
        if (Runtime.getRuntime().availableProcessors() < 2) {
            return false;
        }
        String path = System.getenv().getOrDefault("PATH", "");
        for (String entry : path.split(java.io.File.pathSeparator)) {
            if (!entry.isEmpty() && Files.isExecutable(Path.of(entry, "taskset"))) {
                return true;
            }
        }
        return false;
    }

    /** {@code -Dname=value} as this JVM has it, or an empty {@code -Dname=} (the library's default) if unset. */
    private static String passThrough(String name) {
        return "-D" + name + "=" + System.getProperty(name, "");
    }

    private static List<String> command(String java, String classPath, String role, Path dir, Path ready, Path result,
                                        RunPlan plan, String cpu) {
        List<String> command = new ArrayList<>();
        if (cpu != null) {
            command.addAll(List.of("taskset", "-c", cpu));
        }
        // --add-exports: Agrona, which the replicated and aeron-floor kinds load, uses jdk.internal.misc.Unsafe.
        command.addAll(List.of(java, "--sun-misc-unsafe-memory-access=allow",
                "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
                // Replication's idle strategy (docs/replication.md) as this JVM has it, for both children.
                passThrough(IdleStrategies.PROPERTY)));
        command.addAll(plan.kind().childJvmFlags()); // a peer library's flags, on its own children only
        command.addAll(List.of("-cp", classPath,
                LatencyChild.class.getName(), role, dir.toString(), ready.toString(), result.toString()));
        command.addAll(plan.toArgs());
        return command;
    }

    private static Process start(List<String> command, Path log, List<Process> live) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            live.add(process);
            return process;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command.getFirst(), e);
        }
    }

    private static void awaitBoth(Process producer, Process consumer, long deadline, Path work, LatencyKind kind)
            throws InterruptedException {
        while (producer.isAlive() || consumer.isAlive()) {
            if (!producer.isAlive() && producer.exitValue() != 0) {
                throw failed("producer", producer, work.resolve(kind.cliName() + "-producer.log"));
            }
            if (!consumer.isAlive() && consumer.exitValue() != 0) {
                throw failed("consumer", consumer, work.resolve(kind.cliName() + "-consumer.log"));
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the " + kind.cliName() + " producer and consumer did not finish in time");
            }
            consumer.waitFor(20, TimeUnit.MILLISECONDS);
        }
        if (producer.exitValue() != 0) {
            throw failed("producer", producer, work.resolve(kind.cliName() + "-producer.log"));
        }
        if (consumer.exitValue() != 0) {
            throw failed("consumer", consumer, work.resolve(kind.cliName() + "-consumer.log"));
        }
    }

    private static IllegalStateException failed(String role, Process process, Path log) {
        String output;
        try {
            output = Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            output = "(no output: " + e + ")";
        }
        if (output.length() > 4000) {
            output = "..." + output.substring(output.length() - 4000);
        }
        return new IllegalStateException("the " + role + " process failed with exit code " + process.exitValue()
                + ":\n" + output.strip());
    }
}
