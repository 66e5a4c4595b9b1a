import java.io.IOException;
import java.nio.file.Path;

/**
 * Runs {@code readers/run.sh} with {@code BLIT_JAVA} set to the {@code java} of the JDK this runs on: exec-maven-plugin
 * starts this source file with the JDK 25 that toolchain discovery selected (the executable {@code ${blit.java}}), so
 * the Python and C readers' tests run the Java tools on that JDK, whatever {@code java} is first on the PATH. The
 * script's exit code is this program's.
 */
public final class RunReaders {
    private RunReaders() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        ProcessBuilder script = new ProcessBuilder("bash", Path.of(args[0]).toString()).inheritIO();
        script.environment().put("BLIT_JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
        System.exit(script.start().waitFor());
    }
}
