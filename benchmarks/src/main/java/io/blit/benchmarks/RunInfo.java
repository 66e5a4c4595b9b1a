package io.blit.benchmarks;

import io.blit.tools.report.RunMetadata;
import java.util.Collection;
import java.util.Objects;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.RunResult;

/**
 * What a suite run was and where it ran, for the summary, its table and the chart title. Immutable.
 *
 * @param mode     {@code full} or {@code quick}
 * @param metadata the JDK of JMH's forks (the launching JVM's if no benchmark ran), CPU model, available
 *                 processors, UTC date and the suite's command line
 */
record RunInfo(String mode, RunMetadata metadata) {
    /** @throws NullPointerException if an argument is null */
    RunInfo {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(metadata, "metadata");
    }

    /** This run: the forks' JDK as JMH recorded it, and this machine, this day and this command. */
    static RunInfo of(String mode, Collection<RunResult> results) {
        String jdk = results.stream().findFirst()
                .map(r -> describe(r.getParams()))
                .orElseGet(RunMetadata::thisJdk);
        return new RunInfo(mode, RunMetadata.current(jdk));
    }

    private static String describe(BenchmarkParams params) {
        return params.getJdkVersion() + " (" + params.getVmName() + " " + params.getVmVersion() + ")";
    }
}
