package io.blit.tools.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import tools.jackson.databind.node.ObjectNode;

/**
 * Where and how a result file was produced, recorded by the program that writes it so that the file carries its own
 * context. Immutable.
 *
 * @param jdk     the measuring JVM: version, VM name and VM version, e.g. {@code 25.0.3 (OpenJDK 64-Bit Server VM
 *                25.0.3+9-LTS)}
 * @param cpu     the first {@code model name} in {@code /proc/cpuinfo}, or {@code os.arch} where there is none
 * @param cpus    processors available to the writing JVM
 * @param date    the UTC date of the run, ISO-8601 ({@code 2026-11-24})
 * @param command the main class or jar and its arguments as the Java launcher received them, or {@code "?"}
 */
public record RunMetadata(String jdk, String cpu, int cpus, String date, String command) {
    /** The JSON keys of {@link #putInto}, in order. */
    public static final List<String> JSON_KEYS = List.of("jdk", "cpu", "cpus", "date", "command");

    /**
     * @throws NullPointerException     if a text is null
     * @throws IllegalArgumentException if {@code cpus < 1}
     */
    public RunMetadata {
        Objects.requireNonNull(jdk, "jdk");
        Objects.requireNonNull(cpu, "cpu");
        Objects.requireNonNull(date, "date");
        Objects.requireNonNull(command, "command");
        if (cpus < 1) {
            throw new IllegalArgumentException("cpus must be >= 1, got " + cpus);
        }
    }

    /** This JVM's run, now. */
    public static RunMetadata current() {
        return current(thisJdk());
    }

    /** This machine's run, now, measured on {@code jdk} (e.g. the JDK of JMH's forks). */
    public static RunMetadata current(String jdk) {
        return new RunMetadata(jdk, cpuModel(), Runtime.getRuntime().availableProcessors(),
                LocalDate.now(ZoneOffset.UTC).toString(), commandLine());
    }

    /** This JVM: {@code version (VM name VM version)}. */
    public static String thisJdk() {
        return System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + " "
                + System.getProperty("java.vm.version") + ")";
    }

    /** Adds {@code jdk}, {@code cpu}, {@code cpus}, {@code date} and {@code command} to {@code object}, in that order. */
    public void putInto(ObjectNode object) {
        object.put("jdk", jdk).put("cpu", cpu).put("cpus", cpus).put("date", date).put("command", command);
    }

    private static String cpuModel() {
        Path cpuinfo = Path.of("/proc/cpuinfo");
        if (Files.isReadable(cpuinfo)) {
            try (Stream<String> lines = Files.lines(cpuinfo)) {
                return lines.filter(l -> l.startsWith("model name"))
                        .map(l -> l.substring(l.indexOf(':') + 1).strip())
                        .findFirst()
                        .orElseGet(() -> System.getProperty("os.arch"));
            } catch (IOException | UncheckedIOException e) {
                return System.getProperty("os.arch");
            }
        }
        return System.getProperty("os.arch");
    }

    /**
     * HotSpot's launcher records the main class or jar and the program's arguments in {@code sun.java.command}
     * (JVM options and the class path left out, which is what a reader needs to repeat the run); other launchers
     * may not, then the process's own command line stands in.
     */
    private static String commandLine() {
        String launched = System.getProperty("sun.java.command");
        if (launched != null && !launched.isBlank()) {
            return launched.strip();
        }
        return ProcessHandle.current().info().commandLine().orElse("?");
    }
}
