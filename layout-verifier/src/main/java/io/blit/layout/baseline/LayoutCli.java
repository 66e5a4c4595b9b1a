package io.blit.layout.baseline;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * The layout verifier's command line, the {@code Main-Class} of {@code layout-verifier-cli.jar} (the module
 * jar and picocli, which this class and {@link CliOptions} alone use: an optional dependency of the module):
 * {@code check}, {@code record} and {@code print} the layouts of a class path's trivially copyable classes in
 * several JVM modes (one forked JVM per mode, see {@link MeasurementChild}). {@code --help} lists the options;
 * see also {@code docs/layout-compatibility.md}.
 *
 * <p>Exit codes: {@value #OK} ok; {@value #FAILED} the check failed (a layout differs from the baseline,
 * a class is not trivially copyable, or layouts differ between modes that must interoperate);
 * {@value #BAD_INPUT} usage error or bad input (unknown option, unreadable or malformed baseline, a
 * missing class path entry or class, a JVM that could not run a mode). A usage error is one line on stderr;
 * bad input one paragraph; never a stack trace. Not thread-safe: one instance runs one command line.
 *
 * <p>Package-private: a command line is not API (its options and exit codes are its contract), and the JDK 25 launcher
 * runs a main class of any access ({@code java -jar layout-verifier-cli.jar}, or this name on a class path, as
 * blit-maven-plugin forks it).
 */
@Command(name = "layout-verifier", mixinStandardHelpOptions = true, versionProvider = CliVersion.class,
        usageHelpWidth = 100,
        description = {"Checks, records and prints the field layouts of a class path's trivially copyable classes "
                + "in several JVM modes (one forked JVM per mode).",
                "Run as: java -jar layout-verifier/target/layout-verifier-cli.jar <command> [options]"},
        footer = {"", "exit codes: 0 ok, 1 check failed, 2 usage error or bad input"})
final class LayoutCli implements Callable<Integer> {
    static final int OK = 0;
    static final int FAILED = 1;
    static final int BAD_INPUT = 2;

    private final PrintStream out;
    private final PrintStream err;
    @Spec
    private CommandSpec spec;

    LayoutCli(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /**
     * Runs the command line and exits with its exit code.
     *
     * @param args the command ({@code check}, {@code record} or {@code print}) and its options; {@code --help} lists them
     */
    public static void main(String[] args) {
        System.exit(new LayoutCli(System.out, System.err).run(args));
    }

    /** Runs the command line; returns the exit code. */
    int run(String[] args) {
        CommandLine cli = new CommandLine(this)
                .addSubcommand(new Check())
                .addSubcommand(new Record())
                .addSubcommand(new Print())
                .addSubcommand(new HelpCommand());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        cli.setParameterExceptionHandler(this::usageError);
        cli.setExecutionExceptionHandler(this::badInput);
        try {
            return cli.execute(args);
        } finally {
            out.flush();
            err.flush();
        }
    }

    /** No command given: a usage error. */
    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "no command given (check, record or print)");
    }

    @Command(name = "check", mixinStandardHelpOptions = true, versionProvider = CliVersion.class, usageHelpWidth = 100,
            description = "Compares the layouts with a recorded baseline; exit 1 listing every change.",
            footer = {"", "exit codes: 0 ok, 1 check failed, 2 usage error or bad input"})
    private final class Check implements Callable<Integer> {
        @Mixin
        private CliOptions options;

        @Override
        public Integer call() {
            options.validate(true);
            return check(options);
        }
    }

    @Command(name = "record", mixinStandardHelpOptions = true, versionProvider = CliVersion.class, usageHelpWidth = 100,
            description = "(Re)writes the baseline file from the layouts measured now.",
            footer = {"", "exit codes: 0 ok, 1 a class is not trivially copyable, 2 usage error or bad input"})
    private final class Record implements Callable<Integer> {
        @Mixin
        private CliOptions options;

        @Override
        public Integer call() {
            options.validate(true);
            return record(options);
        }
    }

    @Command(name = "print", mixinStandardHelpOptions = true, versionProvider = CliVersion.class, usageHelpWidth = 100,
            description = "Shows each class's layout in each mode, and which modes share it.",
            footer = {"", "exit codes: 0 ok, 1 layouts differ between --interoperate modes, 2 usage error or bad input"})
    private final class Print implements Callable<Integer> {
        @Mixin
        private CliOptions options;

        @Override
        public Integer call() {
            options.validate(false);
            return print(options);
        }
    }

    /**
     * A command line picocli or a command refused: one line naming the problem and where the usage is. A value
     * a converter refused reads "--option what-was-wrong".
     */
    private int usageError(ParameterException e, String[] args) {
        CommandLine command = e.getCommandLine();
        String message = e.getCause() instanceof TypeConversionException conversion && e.getArgSpec() instanceof OptionSpec option
                ? option.longestName() + " " + conversion.getMessage() : e.getMessage();
        String where = command.getCommandSpec().parent() == null ? "" : command.getCommandName() + ": ";
        err.println("error: " + where + message + " (" + command.getCommandSpec().qualifiedName() + " --help for usage)");
        return BAD_INPUT;
    }

    /** Bad input found while running (a baseline, class path or class that cannot be read): its message, exit 2. */
    private int badInput(Exception e, CommandLine command, ParseResult parsed) throws Exception {
        if (e instanceof IllegalArgumentException || e instanceof IllegalStateException || e instanceof UncheckedIOException) {
            err.println("error: " + e.getMessage());
            return BAD_INPUT;
        }
        throw e;
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
        String classPath = System.getProperty("java.class.path");
        if (location.endsWith(".jar") && location.equals(classPath)) {
            // Started with java -jar layout-verifier-cli.jar: the one jar holds picocli too.
            command.add("-jar");
            command.add(location);
        } else {
            // Started from a class path (the module jar or classes beside picocli's jar): repeat it.
            command.add("-cp");
            command.add(classPath);
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
}
