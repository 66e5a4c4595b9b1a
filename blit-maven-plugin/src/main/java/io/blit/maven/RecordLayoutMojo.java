package io.blit.maven;

import org.apache.maven.model.Plugin;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Execute;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * (Re)writes the baseline from the layouts measured now, in every configured JVM mode: run it after an intended
 * layout change, review the diff, commit. It compiles the project first (it forks the lifecycle up to
 * {@code compile}). In a multi-module build it runs only in the modules whose POM declares this plugin; it
 * refuses to write anything if a class is not trivially copyable.
 */
@Mojo(name = "record-layout", requiresDependencyResolution = ResolutionScope.RUNTIME, threadSafe = true)
@Execute(phase = LifecyclePhase.COMPILE)
public class RecordLayoutMojo extends AbstractLayoutMojo {
    /** The goal's mojo; Maven creates it and sets its parameters. */
    public RecordLayoutMojo() {
    }

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skip) {
            getLog().info("Layout recording skipped (blit.layout.skip)");
            return;
        }
        if (aggregatorProject()) {
            getLog().info("Layout recording skipped: packaging pom has no classes");
            return;
        }
        if (session.getProjects().size() > 1 && !declaresThisPlugin()) {
            getLog().info("Layout recording skipped: " + project.getArtifactId() + " does not declare " + GROUP_ID + ":"
                    + ARTIFACT_ID + " in its build plugins");
            return;
        }
        record(this);
    }

    /** Runs the command line's {@code record} with {@code mojo}'s configuration. */
    static void record(AbstractLayoutMojo mojo) throws MojoExecutionException, MojoFailureException {
        LayoutCliFork.Result result = mojo.runCli("record", mojo.commonArguments());
        if (result.exitCode() != LayoutCliFork.OK) {
            fail(result, "");
        }
        mojo.getLog().info(result.output());
    }

    private boolean declaresThisPlugin() {
        for (Plugin declared : project.getBuildPlugins()) {
            if (GROUP_ID.equals(declared.getGroupId()) && ARTIFACT_ID.equals(declared.getArtifactId())) {
                return true;
            }
        }
        return false;
    }
}
