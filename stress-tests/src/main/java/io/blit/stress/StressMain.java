package io.blit.stress;

import java.io.IOException;
import java.io.InputStream;

/**
 * Entry point of {@code stress-tests/target/jcstress.jar}: refuses to run when the jar holds no test list
 * (javac 23+ skips annotation processors found only on the class path, and jcstress would then run nothing
 * and succeed), then hands every argument to {@code org.openjdk.jcstress.Main}, which ends with an
 * {@code AssertionError} ("TEST FAILURES") — a non-zero exit — when any test has a FORBIDDEN or unlisted
 * outcome or fails with an exception.
 */
public final class StressMain {
    private StressMain() {
    }

    public static void main(String[] args) throws Exception {
        try (InputStream list = StressMain.class.getResourceAsStream("/META-INF/TestList")) {
            if (list == null || list.readAllBytes().length == 0) {
                System.err.println("jcstress.jar has no META-INF/TestList: the jcstress annotation processor did not run"
                        + " (name jcstress-core in the compiler's annotationProcessorPaths)");
                System.exit(2);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read META-INF/TestList", e);
        }
        org.openjdk.jcstress.Main.main(args);
    }
}
