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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The layout verifier's command line, the {@code Main-Class} of {@code layout-verifier.jar}:
 * {@code check}, {@code record} and {@code print} the layouts of a class path's trivially copyable
 * classes in several JVM modes (one forked JVM per mode). See {@link #USAGE} and
 * {@code docs/layout-compatibility.md}.
 *
 * <p>Exit codes: {@value #OK} ok; {@value #FAILED} the check failed (a layout differs from the baseline,
 * a class is not trivially copyable, or layouts differ between modes that must interoperate);
 * {@value #BAD_INPUT} usage error or bad input (unknown option, unreadable or malformed baseline, a
 * missing class path entry or class, a JVM that could not run a mode). Errors are one paragraph on
 * stderr, no stack trace.
 */
public final class LayoutCli {
    static final int OK = 0;
    static final int FAILED = 1;
    static final int BAD_INPUT = 2;

    static final String USAGE = """
            usage: java -jar layout-verifier.jar <command> [options]

            commands:
              check   compare the layouts with a recorded baseline; exit 1 listing every change
              record  (re)write the baseline file from the layouts measured now
              print   show each class's layout in each mode, and which modes share it

            options:
              --classpath PATH     where to look for classes (directories and jars, ':'-separated on Unix);
                                   every concrete subclass of io.blit.core.TriviallyCopyable is taken
              --class NAME         also take this class (repeatable), e.g. one used with BlockCopier
              --baseline FILE      the baseline file (check, record)
              --modes LIST         JVM modes to measure in, comma-separated; default: all of
                                   default, compact-headers (-XX:+UseCompactObjectHeaders),
                                   uncompressed-class-pointers (-XX:-UseCompressedClassPointers)
              --interoperate LIST  modes that must share every class's layout (check, print);
                                   a class whose layout differs between them fails with exit 1
              --rerecord-command TEXT  what a failed check tells the user to run to re-record
                                   (default: this tool's record command with the same options)
              --help               this text

            exit codes: 0 ok, 1 check failed, 2 usage error or bad input
            """;

    private final PrintStream out;
    private final PrintStream err;
    private final InputStream in;

    LayoutCli(PrintStream out, PrintStream err, InputStream in) {
        this.out = out;
        this.err = err;
        this.in = in;
    }

    /** Runs the command line and exits with its exit code. */
    public static void main(String[] args) {
        System.exit(new LayoutCli(System.out, System.err, System.in).run(args));
    }

    /** Runs the command line; returns the exit code. */
    int run(String[] args) {
        CliOptions options;
        try {
            options = CliOptions.parse(args);
        } catch (CliOptions.UsageException e) {
            err.println("error: " + e.getMessage());
            err.print(USAGE);
            return BAD_INPUT;
        }
        if (options.help()) {
            out.print(USAGE);
            return OK;
        }
        try {
            return switch (options.command()) {
                case "check" -> check(options);
                case "record" -> record(options);
                case "print" -> print(options);
                case "measure" -> measure(options);
                default -> throw new IllegalStateException("unreachable: " + options.command());
            };
        } catch (IllegalArgumentException | IllegalStateException | UncheckedIOException e) {
            err.println("error: " + e.getMessage());
            return BAD_INPUT;
        }
    }

    private int check(CliOptions options) {
        Path file = Path.of(options.baseline());
        if (!Files.exists(file)) {
            err.println("error: baseline " + file + " does not exist; record it first:\n  " + rerecordCommand(options));
            return BAD_INPUT;
        }
        Baseline recorded = Baseline.read(file);
        Measured measured = measureAll(options);
        BaselineCheck check = BaselineCheck.compare(recorded, measured.baseline(), e -> options.modes().contains(e.mode()))
                .with(measured.refused())
                .with(BaselineCheck.interoperability(measured.baseline(), options.interoperate()));
        if (check.passed()) {
            out.println("layout baseline " + file + ": " + measured.classCount() + " classes match in modes "
                    + CliOptions.ids(options.modes()) + interoperateNote(options));
            return OK;
        }
        err.println(check.report(file.toString(), rerecordCommand(options)));
        return FAILED;
    }

    private int record(CliOptions options) {
        Measured measured = measureAll(options);
        if (!measured.refused().isEmpty()) {
            err.println("not recorded: " + measured.refused().size() + " classes are not trivially copyable");
            measured.refused().forEach(r -> err.println("  " + r.describe()));
            return FAILED;
        }
        Path file = Path.of(options.baseline());
        measured.baseline().write(file, rerecordCommand(options));
        out.println("recorded " + measured.baseline().entries().size() + " layouts (" + measured.classCount()
                + " classes in modes " + CliOptions.ids(options.modes()) + ") to " + file);
        return OK;
    }

    private int print(CliOptions options) {
        Measured measured = measureAll(options);
        out.print(measured.baseline().format(""));
        out.println();
        out.println("# per class: modes that share a layout (same fingerprint)");
        for (String className : measured.classNames()) {
            StringBuilder line = new StringBuilder("# ").append(className).append(':');
            for (JvmMode mode : options.modes()) {
                measured.baseline().entry(className, mode)
                        .ifPresent(e -> line.append(' ').append(mode.id()).append('=').append(e.layout().fingerprint()));
            }
            out.println(line);
        }
        List<BaselineCheck.Finding> problems = new ArrayList<>(measured.refused());
        problems.addAll(BaselineCheck.interoperability(measured.baseline(), options.interoperate()));
        if (problems.isEmpty()) {
            return OK;
        }
        problems.forEach(p -> err.println(p.describe()));
        return FAILED;
    }

    /** The forked JVM's side: load the classes named on stdin and print their layouts in this JVM. */
    private int measure(CliOptions options) {
        JvmMode expected = options.modes().getFirst();
        if (JvmMode.current() != expected) {
            err.println("error: this JVM runs in mode " + JvmMode.current().id() + ", not " + expected.id()
                    + " as its flags " + expected.flags() + " should have selected");
            return BAD_INPUT;
        }
        List<Path> classPath = ClassScanner.parseClassPath(options.classPath());
        List<Class<?>> classes = new ArrayList<>();
        try (URLClassLoader loader = new URLClassLoader(urls(classPath), LayoutCli.class.getClassLoader())) {
            for (String name : readLines(in)) {
                try {
                    classes.add(Class.forName(name, false, loader));
                } catch (ClassNotFoundException | LinkageError e) {
                    err.println("error: cannot load class " + name + " from class path " + options.classPath() + ": " + e
                            + " (is every class it needs, core's included, on --classpath?)");
                    return BAD_INPUT;
                }
            }
            out.print(Measurement.ofClasses(classes).toText());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return OK;
    }

    /** The classes to measure (scanned and listed) measured in every requested mode. */
    private Measured measureAll(CliOptions options) {
        List<Path> classPath = ClassScanner.parseClassPath(options.classPath());
        TreeSet<String> names = new TreeSet<>(ClassScanner.subclassesOf(ClassScanner.TRIVIALLY_COPYABLE, classPath));
        names.addAll(options.classes());
        if (names.isEmpty()) {
            throw new IllegalArgumentException("no concrete subclass of " + ClassScanner.TRIVIALLY_COPYABLE
                    + " found in class path " + options.classPath() + ", and no --class given: nothing to check");
        }
        List<BaselineEntry> entries = new ArrayList<>();
        List<BaselineCheck.NotTriviallyCopyable> refused = new ArrayList<>();
        for (JvmMode mode : options.modes()) {
            Measurement measurement = ForkedMeasurement.inMode(mode, options.classPath(), List.copyOf(names));
            entries.addAll(measurement.baseline().entries());
            refused.addAll(measurement.refused());
        }
        return new Measured(Baseline.of(entries), refused, List.copyOf(names));
    }

    /** What {@link #measureAll} found. */
    private record Measured(Baseline baseline, List<BaselineCheck.NotTriviallyCopyable> refused, List<String> classNames) {
        int classCount() {
            return classNames.size();
        }
    }

    private static String interoperateNote(CliOptions options) {
        return options.interoperate().isEmpty() ? "" : "; modes " + CliOptions.ids(options.interoperate()) + " share every layout";
    }

    /** The exact command that re-records the baseline with the options of this run. */
    static String rerecordCommand(CliOptions options) {
        if (options.rerecordCommand() != null) {
            return options.rerecordCommand();
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        String location = ForkedMeasurement.verifierLocation();
        if (location.endsWith(".jar")) {
            command.add("-jar");
            command.add(location);
        } else {
            command.add("-cp");
            command.add(location);
            command.add(LayoutCli.class.getName());
        }
        command.add("record");
        command.add("--classpath");
        command.add(options.classPath());
        command.add("--baseline");
        command.add(options.baseline());
        command.add("--modes");
        command.add(CliOptions.ids(options.modes()));
        for (String name : options.classes()) {
            command.add("--class");
            command.add(name);
        }
        return String.join(" ", command.stream().map(LayoutCli::quoteIfNeeded).toList());
    }

    private static String quoteIfNeeded(String word) {
        return word.isEmpty() || word.chars().anyMatch(c -> " \t\"'$\\;&|<>()*?".indexOf(c) >= 0)
                ? "'" + word.replace("'", "'\\''") + "'" : word;
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
