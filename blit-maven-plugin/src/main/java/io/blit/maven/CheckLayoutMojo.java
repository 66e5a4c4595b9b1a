package io.blit.maven;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Checks that the project's trivially copyable classes (every concrete subclass of
 * {@code io.blit.core.TriviallyCopyable} in its classes and runtime dependencies, and the configured
 * {@code classes}) have the layouts recorded in the baseline, in every configured JVM mode, one forked JDK 25 JVM
 * per mode. Fails the build listing every changed class and field with its old and new offsets, and the command
 * that re-records the baseline; writes the same report to {@code reportFile}.
 */
@Mojo(name = "check-layout", defaultPhase = LifecyclePhase.VERIFY, requiresDependencyResolution = ResolutionScope.RUNTIME,
        threadSafe = true)
public class CheckLayoutMojo extends AbstractLayoutMojo {
    /** The goal's mojo; Maven creates it and sets its parameters. */
    public CheckLayoutMojo() {
    }

    /**
     * Modes that must share every layout (comma-separated, at least two of {@code modes}), e.g. when one process
     * writes with compact headers and another reads without: a class whose layout differs between them fails.
     */
    @Parameter(property = "blit.layout.interoperate")
    String interoperate;

    /** Where the report (what the check printed) is written. */
    @Parameter(property = "blit.layout.reportFile", defaultValue = "${project.build.directory}/blit-layout-report.txt", required = true)
    File reportFile;

    /**
     * Re-records the baseline instead of checking it, like {@code record-layout} but in this goal's place in the
     * lifecycle: for builds where {@code record-layout} cannot be called directly, such as a build that makes
     * this plugin itself.
     */
    @Parameter(property = "blit.layout.record", defaultValue = "false")
    boolean record;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skip) {
            getLog().info("Layout check skipped (blit.layout.skip)");
            return;
        }
        if (aggregatorProject()) {
            getLog().info("Layout check skipped: packaging pom has no classes");
            return;
        }
        if (record) {
            RecordLayoutMojo.record(this);
            return;
        }
        List<String> arguments = commonArguments();
        if (interoperate != null && !interoperate.isBlank()) {
            arguments.add("--interoperate");
            arguments.add(interoperate.replace(" ", ""));
        }
        LayoutCliFork.Result result = runCli("check", arguments);
        writeReport(result.output());
        if (result.exitCode() == LayoutCliFork.OK) {
            getLog().info(result.output());
            return;
        }
        fail(result, "\n(report: " + reportFile + ")");
    }

    private void writeReport(String text) throws MojoExecutionException {
        try {
            Files.createDirectories(reportFile.toPath().toAbsolutePath().getParent());
            Files.writeString(reportFile.toPath(), text + System.lineSeparator(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new MojoExecutionException("cannot write the layout report " + reportFile + ": " + e.getMessage(), e);
        }
    }
}
