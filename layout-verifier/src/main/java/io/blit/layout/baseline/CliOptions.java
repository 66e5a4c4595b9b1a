package io.blit.layout.baseline;

import java.util.ArrayList;
import java.util.List;

/**
 * The parsed command line of {@link LayoutCli}: the command, then {@code --option value} pairs
 * ({@code --class} may repeat). Immutable once parsed.
 *
 * @param command          check, record, print or measure
 * @param classPath        {@code --classpath}, in the platform's path syntax; null if absent
 * @param baseline         {@code --baseline} file; null if absent
 * @param classes          every {@code --class}
 * @param modes            {@code --modes}; all modes if absent
 * @param interoperate     {@code --interoperate}; empty if absent
 * @param rerecordCommand  {@code --rerecord-command}; null if absent
 * @param help             whether {@code --help} was given
 */
record CliOptions(String command, String classPath, String baseline, List<String> classes, List<JvmMode> modes,
                  List<JvmMode> interoperate, String rerecordCommand, boolean help) {

    /** A wrong command line; its message is printed with the usage, and the exit code is 2. */
    static final class UsageException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    /**
     * @throws UsageException for an unknown command or option, a missing value, or an unknown mode
     */
    static CliOptions parse(String[] args) {
        if (args.length == 0) {
            throw new UsageException("no command given");
        }
        String command = args[0];
        if (command.equals("--help") || command.equals("-h") || command.equals("help")) {
            return new CliOptions("help", null, null, List.of(), List.of(), List.of(), null, true);
        }
        if (!List.of("check", "record", "print", "measure").contains(command)) {
            throw new UsageException("unknown command '" + command + "'");
        }
        String classPath = null;
        String baseline = null;
        String rerecord = null;
        List<String> classes = new ArrayList<>();
        List<JvmMode> modes = List.of(JvmMode.values());
        List<JvmMode> interoperate = List.of();
        boolean help = false;
        for (int i = 1; i < args.length; i++) {
            String option = args[i];
            if (option.equals("--help") || option.equals("-h")) {
                help = true;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new UsageException(option.startsWith("--") ? "option " + option + " needs a value" : "unexpected argument '" + option + "'");
            }
            String value = args[++i];
            switch (option) {
                case "--classpath", "-cp" -> classPath = value;
                case "--baseline" -> baseline = value;
                case "--class" -> classes.add(value);
                case "--modes", "--mode" -> modes = modes(value);
                case "--interoperate" -> interoperate = modes(value);
                case "--rerecord-command" -> rerecord = value;
                default -> throw new UsageException("unknown option '" + option + "'");
            }
        }
        CliOptions options = new CliOptions(command, classPath, baseline, List.copyOf(classes), modes, interoperate, rerecord, help);
        if (!help) {
            options.validate();
        }
        return options;
    }

    private void validate() {
        if (classPath == null) {
            throw new UsageException(command + " needs --classpath");
        }
        if ((command.equals("check") || command.equals("record")) && baseline == null) {
            throw new UsageException(command + " needs --baseline");
        }
        if (command.equals("measure") && modes.size() != 1) {
            throw new UsageException("measure takes exactly one --mode");
        }
        if (!interoperate.isEmpty() && !modes.containsAll(interoperate)) {
            throw new UsageException("--interoperate " + ids(interoperate) + " names a mode not in --modes " + ids(modes));
        }
        if (interoperate.size() == 1) {
            throw new UsageException("--interoperate needs at least two modes");
        }
    }

    static String ids(List<JvmMode> modes) {
        return String.join(",", modes.stream().map(JvmMode::id).toList());
    }

    private static List<JvmMode> modes(String value) {
        try {
            return List.copyOf(JvmMode.parseList(value));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
