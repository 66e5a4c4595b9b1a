package io.blit.layout.baseline;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * The options {@code check}, {@code record} and {@code print} of {@link LayoutCli} share, a picocli mixin
 * ({@code --class} may repeat; every other option given twice keeps its last value). Filled by picocli, then
 * read only; not thread-safe.
 */
final class CliOptions {
    @Spec(Spec.Target.MIXEE)
    private CommandSpec command;

    @Option(names = {"--classpath", "-cp"}, required = true, paramLabel = "PATH",
            description = {"where to look for classes (directories and jars, '${sys:path.separator}'-separated);",
                    "every concrete subclass of io.blit.core.TriviallyCopyable is taken"})
    private String classPath;

    @Option(names = "--baseline", paramLabel = "FILE", description = "the baseline file (required by check and record)")
    private String baseline;

    @Option(names = "--class", paramLabel = "NAME",
            description = "also take this class (repeatable), e.g. one used with BlockCopier")
    private List<String> classes = new ArrayList<>();

    @Option(names = {"--modes", "--mode"}, paramLabel = "LIST", converter = ModesConverter.class,
            description = {"JVM modes to measure in, comma-separated; default: all of default,",
                    "compact-headers (-XX:+UseCompactObjectHeaders),",
                    "uncompressed-class-pointers (-XX:-UseCompressedClassPointers)"})
    private Modes modes;

    @Option(names = "--interoperate", paramLabel = "LIST", converter = ModesConverter.class,
            description = {"modes that must share every class's layout (check, print); a class whose",
                    "layout differs between them fails with exit 1"})
    private Modes interoperate;

    @Option(names = "--rerecord-command", paramLabel = "TEXT",
            description = {"what a failed check tells the user to run to re-record",
                    "(default: this tool's record command with the same options)"})
    private String rerecordCommand;

    /** A list of JVM modes as {@code --modes} takes it: in the order given, each once. */
    record Modes(List<JvmMode> list) {
        Modes {
            list = List.copyOf(list);
        }
    }

    /** {@code default,compact-headers} to {@link Modes}; an unknown or empty mode is a conversion error. */
    static final class ModesConverter implements ITypeConverter<Modes> {
        @Override
        public Modes convert(String value) {
            try {
                return new Modes(JvmMode.parseList(value));
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("names an " + e.getMessage());
            }
        }
    }

    /**
     * Checks what picocli cannot express: the baseline {@code check} and {@code record} need, and that
     * {@code --interoperate} names at least two of the measured modes.
     *
     * @throws ParameterException naming the problem (exit code 2)
     */
    void validate(boolean needsBaseline) {
        if (needsBaseline && baseline == null) {
            throw new ParameterException(command.commandLine(), "--baseline FILE is required");
        }
        if (!interoperate().isEmpty() && !modes().containsAll(interoperate())) {
            throw new ParameterException(command.commandLine(), "--interoperate " + ids(interoperate())
                    + " names a mode not in --modes " + ids(modes()));
        }
        if (interoperate().size() == 1) {
            throw new ParameterException(command.commandLine(), "--interoperate needs at least two modes");
        }
    }

    /** {@code --classpath}, in the platform's path syntax. */
    String classPath() {
        return classPath;
    }

    /** {@code --baseline}; null if absent. */
    String baseline() {
        return baseline;
    }

    /** Every {@code --class}, in the order given. */
    List<String> classes() {
        return List.copyOf(classes);
    }

    /** {@code --modes}; all modes if absent. */
    List<JvmMode> modes() {
        return modes == null ? List.of(JvmMode.values()) : modes.list();
    }

    /** {@code --interoperate}; empty if absent. */
    List<JvmMode> interoperate() {
        return interoperate == null ? List.of() : interoperate.list();
    }

    /** {@code --rerecord-command}; null if absent. */
    String rerecordCommand() {
        return rerecordCommand;
    }

    static String ids(List<JvmMode> modes) {
        return String.join(",", modes.stream().map(JvmMode::id).toList());
    }
}
