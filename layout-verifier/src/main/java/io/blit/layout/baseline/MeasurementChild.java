package io.blit.layout.baseline;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The main class of the JVM {@link ForkedMeasurement} forks: loads the classes named on standard input from
 * a class path and prints their {@link Measurement} on standard output. Exit code 0, or 2 with one paragraph
 * on stderr.
 *
 * <p>Its arguments, {@code --mode ID --classpath PATH}, are a private protocol between the two JVMs, not a
 * command line for users, and are parsed by hand: the child's class path is only the verifier's own code
 * location, which holds no picocli when it is the module jar (picocli is an optional dependency, used only by
 * {@link LayoutCli}), and {@link LayoutBaseline}'s JUnit assertion forks this child from the user's tests.
 * Package-private, as the protocol is: the JDK 25 launcher runs a main class of any access.
 */
final class MeasurementChild {
    /** The exit codes of {@link LayoutCli}, repeated here so that this class never loads it (nor picocli). */
    private static final int OK = 0;
    private static final int BAD_INPUT = 2;

    private MeasurementChild() {
    }

    /**
     * Measures in this JVM; exits with 0 or 2.
     *
     * @param args {@code --mode ID --classpath PATH}, as {@link ForkedMeasurement} passes them
     */
    public static void main(String[] args) {
        System.exit(run(args, System.in, System.out, System.err));
    }

    static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
        if (args.length != 4 || !args[0].equals("--mode") || !args[2].equals("--classpath")) {
            err.println("error: expected --mode ID --classpath PATH (the arguments ForkedMeasurement passes), got "
                    + String.join(" ", args));
            return BAD_INPUT;
        }
        try {
            return measure(JvmMode.byId(args[1]), args[3], in, out, err);
        } catch (IllegalArgumentException | IllegalStateException | UncheckedIOException e) {
            err.println("error: " + e.getMessage());
            return BAD_INPUT;
        }
    }

    private static int measure(JvmMode expected, String classPathText, InputStream in, PrintStream out, PrintStream err) {
        if (JvmMode.current() != expected) {
            err.println("error: this JVM runs in mode " + JvmMode.current().id() + ", not " + expected.id()
                    + " as its flags " + expected.flags() + " should have selected");
            return BAD_INPUT;
        }
        List<Path> classPath = ClassScanner.parseClassPath(classPathText);
        List<Class<?>> classes = new ArrayList<>();
        try (URLClassLoader loader = new URLClassLoader(urls(classPath), MeasurementChild.class.getClassLoader())) {
            for (String name : readLines(in)) {
                try {
                    classes.add(Class.forName(name, false, loader));
                } catch (ClassNotFoundException | LinkageError e) {
                    err.println("error: cannot load class " + name + " from class path " + classPathText + ": " + e
                            + " (is every class it needs, core's included, on --classpath?)");
                    return BAD_INPUT;
                }
            }
            out.print(Measurement.ofClasses(classes).toText());
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return OK;
    }

    private static URL[] urls(List<Path> classPath) {
        URL[] urls = new URL[classPath.size()];
        for (int i = 0; i < urls.length; i++) {
            try {
                urls[i] = classPath.get(i).toUri().toURL();
            } catch (MalformedURLException e) {
                throw new IllegalArgumentException("class path entry " + classPath.get(i) + " is not a valid location: " + e, e);
            }
        }
        return urls;
    }

    private static List<String> readLines(InputStream in) throws IOException {
        List<String> lines = new ArrayList<>();
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            if (!line.isBlank()) {
                lines.add(line.strip());
            }
        }
        return lines;
    }
}
