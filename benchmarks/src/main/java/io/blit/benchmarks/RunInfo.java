package io.blit.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.stream.Stream;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.RunResult;

/**
 * What a suite run was and where it ran, for the summary and the chart title.
 *
 * @param mode {@code full} or {@code quick}
 * @param jdk  the forks' JDK: version, VM name and VM version as JMH recorded them (the launching JVM's
 *             if no benchmark ran)
 * @param cpu  the first {@code model name} in {@code /proc/cpuinfo}, or {@code os.arch} without it
 */
record RunInfo(String mode, String jdk, String cpu) {
    static RunInfo of(String mode, Collection<RunResult> results) {
        String jdk = results.stream().findFirst()
                .map(r -> describe(r.getParams()))
                .orElseGet(() -> System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + " "
                        + System.getProperty("java.vm.version") + ")");
        return new RunInfo(mode, jdk, cpuModel());
    }

    private static String describe(BenchmarkParams params) {
        return params.getJdkVersion() + " (" + params.getVmName() + " " + params.getVmVersion() + ")";
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
}
