package io.blit.maven;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.inject.Inject;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.artifact.DependencyResolutionRequiredException;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.descriptor.PluginDescriptor;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;
import org.apache.maven.toolchain.Toolchain;
import org.apache.maven.toolchain.ToolchainManager;

/**
 * What {@code check-layout} and {@code record-layout} share: the project's runtime class path (its classes and
 * runtime dependencies), the classes, modes and baseline, and the forked JDK 25 JVM that runs layout-verifier's
 * command line on them.
 */
abstract class AbstractLayoutMojo extends AbstractMojo {
    static final String GROUP_ID = "io.blit";
    static final String ARTIFACT_ID = "blit-maven-plugin";

    /** The baseline file: the layouts of every class in every mode, committed next to the POM. */
    @Parameter(property = "blit.layout.baseline", defaultValue = "${project.basedir}/layout-baseline.txt", required = true)
    File baseline;

    /**
     * Classes to take besides every concrete subclass of {@code io.blit.core.TriviallyCopyable} found in the
     * project's classes and runtime dependencies, e.g. a class used with {@code BlockCopier}.
     */
    @Parameter
    List<String> classes = new ArrayList<>();

    /** JVM modes to measure in, comma-separated: {@code default}, {@code compact-headers}, {@code uncompressed-class-pointers}. */
    @Parameter(property = "blit.layout.modes", defaultValue = "default,compact-headers,uncompressed-class-pointers", required = true)
    String modes;

    /** The command a failed check prints to re-record the baseline; by default the fully qualified record-layout goal. */
    @Parameter(property = "blit.layout.rerecordCommand")
    String rerecordCommand;

    /** Skips the goal. */
    @Parameter(property = "blit.layout.skip", defaultValue = "false")
    boolean skip;

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    MavenProject project;

    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    MavenSession session;

    @Parameter(defaultValue = "${plugin}", readonly = true, required = true)
    PluginDescriptor plugin;

    @Inject
    ToolchainManager toolchainManager;

    /** The command line's arguments after the command name that both goals pass. */
    List<String> commonArguments() throws MojoExecutionException {
        List<String> arguments = new ArrayList<>();
        arguments.add("--classpath");
        arguments.add(runtimeClassPath());
        arguments.add("--baseline");
        arguments.add(baselineArgument());
        arguments.add("--modes");
        arguments.add(modes.replace(" ", ""));
        for (String name : classes) {
            arguments.add("--class");
            arguments.add(name.strip());
        }
        arguments.add("--rerecord-command");
        arguments.add(rerecordCommand != null && !rerecordCommand.isBlank() ? rerecordCommand : defaultRerecordCommand());
        return arguments;
    }

    /**
     * {@code mvn io.blit:blit-maven-plugin:VERSION:record-layout}, fully qualified so that it resolves without a
     * plugin group or a declaration in the POM Maven is started from; with {@code -pl MODULE -am} when this project
     * is a module of a larger build.
     */
    String defaultRerecordCommand() {
        StringBuilder command = new StringBuilder("mvn ");
        MavenProject top = session.getTopLevelProject();
        if (top != null && !top.getBasedir().equals(project.getBasedir())) {
            String module = top.getBasedir().toPath().relativize(project.getBasedir().toPath()).toString().replace('\\', '/');
            command.append("-pl ").append(module).append(" -am ");
        }
        return command.append(GROUP_ID).append(':').append(ARTIFACT_ID).append(':').append(plugin.getVersion())
                .append(":record-layout").toString();
    }

    /**
     * The baseline as the command line gets it (it runs in the project's directory): relative to the project's
     * directory if inside it, so that reports and the recorded file's messages read {@code layout-baseline.txt}.
     */
    String baselineArgument() {
        Path base = project.getBasedir().toPath().toAbsolutePath().normalize();
        Path file = baseline.toPath().toAbsolutePath().normalize();
        return file.startsWith(base) ? base.relativize(file).toString() : file.toString();
    }

    /** The project's classes and runtime dependencies, existing entries only, in the platform's path syntax. */
    String runtimeClassPath() throws MojoExecutionException {
        try {
            List<String> entries = new ArrayList<>();
            for (String element : project.getRuntimeClasspathElements()) {
                if (new File(element).exists()) {
                    entries.add(element);
                }
            }
            return String.join(File.pathSeparator, entries);
        } catch (DependencyResolutionRequiredException e) {
            throw new MojoExecutionException("cannot resolve the runtime class path of " + project.getId(), e);
        }
    }

    /** Runs the command line with the command {@code name} and {@code arguments} in the JDK 25 JVM. */
    LayoutCliFork.Result runCli(String name, List<String> arguments) throws MojoExecutionException {
        String java = java();
        List<String> all = new ArrayList<>();
        all.add(name);
        all.addAll(arguments);
        LayoutCliFork fork = new LayoutCliFork(java, List.of(pluginArtifact("io.blit", "layout-verifier"),
                pluginArtifact("info.picocli", "picocli")));
        getLog().debug("Running " + String.join(" ", fork.command(all)));
        try {
            return fork.run(all, project.getBasedir());
        } catch (IOException e) {
            throw new MojoExecutionException("cannot run " + java + " for the layout check: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MojoExecutionException("interrupted while the layout check ran", e);
        }
    }

    /**
     * The {@code java} to fork: the JDK toolchain of the build if one is selected (e.g. by maven-toolchains-plugin),
     * else the JDK that runs Maven; it must be Java 25 or later.
     */
    String java() throws MojoExecutionException {
        Toolchain toolchain = toolchainManager.getToolchainFromBuildContext("jdk", session);
        String java = toolchain == null ? null : toolchain.findTool("java");
        String origin;
        if (java != null) {
            origin = "the JDK toolchain " + toolchain;
        } else {
            boolean windows = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
            java = Path.of(System.getProperty("java.home"), "bin", windows ? "java.exe" : "java").toString();
            origin = "the JDK that runs Maven; no JDK toolchain is selected";
        }
        int feature;
        try {
            feature = LayoutCliFork.featureRelease(java);
        } catch (IOException e) {
            throw new MojoExecutionException(e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MojoExecutionException("interrupted while asking " + java + " for its version", e);
        }
        if (feature < LayoutCliFork.REQUIRED_FEATURE) {
            throw new MojoExecutionException("The layout check needs Java " + LayoutCliFork.REQUIRED_FEATURE
                    + " or later, but " + java + " (" + origin + ") is Java " + feature + ". Run Maven on JDK "
                    + LayoutCliFork.REQUIRED_FEATURE + ", or select a JDK " + LayoutCliFork.REQUIRED_FEATURE
                    + " toolchain (maven-toolchains-plugin, goal select-jdk-toolchain or toolchain).");
        }
        getLog().debug("Layout check JVM: " + java + " (" + origin + ")");
        return java;
    }

    private File pluginArtifact(String groupId, String artifactId) throws MojoExecutionException {
        Artifact artifact = plugin.getArtifactMap().get(groupId + ":" + artifactId);
        if (artifact == null || artifact.getFile() == null) {
            throw new MojoExecutionException("the plugin's dependency " + groupId + ":" + artifactId + " was not resolved");
        }
        return artifact.getFile();
    }

    /** True if this project has nothing to check: packaging pom. */
    boolean aggregatorProject() {
        return "pom".equals(project.getPackaging());
    }

    /**
     * Fails with what the command line printed: a {@link MojoFailureException} for exit code 1 (the check failed),
     * a {@link MojoExecutionException} for anything else (exit code 2: usage error or bad input).
     */
    static void fail(LayoutCliFork.Result result, String suffix) throws MojoFailureException, MojoExecutionException {
        String text = result.output() + suffix;
        if (result.exitCode() == LayoutCliFork.FAILED) {
            throw new MojoFailureException(text);
        }
        throw new MojoExecutionException(text);
    }
}
