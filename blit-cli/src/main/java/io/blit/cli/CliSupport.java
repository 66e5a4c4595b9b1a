package io.blit.cli;

import io.blit.queue.QueueException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine;

/**
 * How every Blit tool runs a picocli command line: the exit codes ({@value #OK} ok, {@value #FAILED} a check
 * or run failed, {@value #USAGE} usage error or bad input), the number converters, and the two handlers that
 * turn a wrong command line or bad input into ONE line on the error stream, never a stack trace. Used by
 * {@link BlitCli}, by {@code queue-demo.jar} and by the benchmark harnesses. Stateless; thread-safe.
 *
 * <p>Error lines: a wrong command line (unknown option, bad number, missing value, a value a command refuses)
 * reads {@code error: COMMAND: PROBLEM (QUALIFIED-COMMAND --help for usage)}; a value a converter refused reads
 * {@code --option PROBLEM}, e.g. {@code --count expects an integer, got 'many'}. Bad input found while running
 * ({@link BadInputException}, a corrupt or foreign queue, a named consumer another process holds, messages deleted
 * by retention, an I/O error) reads {@code error: PROBLEM}. Any other
 * exception is a bug and keeps its stack trace.
 */
public final class CliSupport {
    /** Exit code: the command did what it was asked. */
    public static final int OK = 0;
    /** Exit code: a check failed, or a read was cut short at a record a live writer holds. */
    public static final int FAILED = 1;
    /** Exit code: a usage error or bad input (missing directory, corrupt or foreign files). */
    public static final int USAGE = 2;

    /** The last line of every command's help. */
    public static final String EXIT_CODES = "Exit codes: 0 ok, 1 check failed, 2 usage error or bad input "
            + "(missing directory, corrupt files).";

    private CliSupport() {
    }

    /**
     * Configures {@code cli} and every subcommand added so far: output streams, help width, converters for
     * {@code long}, {@code int} and {@code double} options, the two error handlers.
     *
     * @return {@code cli}
     */
    public static CommandLine configure(CommandLine cli, PrintStream out, PrintStream err) {
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        cli.setUsageHelpWidth(100);
        cli.registerConverter(Long.class, CliSupport::parseLong);
        cli.registerConverter(long.class, CliSupport::parseLong);
        cli.registerConverter(Integer.class, CliSupport::parseInt);
        cli.registerConverter(int.class, CliSupport::parseInt);
        cli.registerConverter(Double.class, CliSupport::parseDouble);
        cli.registerConverter(double.class, CliSupport::parseDouble);
        cli.setParameterExceptionHandler((e, args) -> usageError(e, err));
        cli.setExecutionExceptionHandler((e, command, parsed) -> badInput(e, err));
        return cli;
    }

    /** Runs {@code args}; returns the exit code. Flushes both streams. */
    public static int execute(CommandLine cli, String[] args, PrintStream out, PrintStream err) {
        try {
            return cli.execute(args);
        } finally {
            out.flush();
            err.flush();
        }
    }

    /**
     * {@code 65536}, {@code 64k}, {@code 256m}, {@code 1g} (powers of 1024) as bytes: the syntax of
     * {@code --segment-size}.
     */
    public static final class ByteSize implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            String text = value.strip().toLowerCase(Locale.ROOT);
            int shift = text.endsWith("k") ? 10 : text.endsWith("m") ? 20 : text.endsWith("g") ? 30 : 0;
            String digits = shift == 0 ? text : text.substring(0, text.length() - 1);
            try {
                long number = Long.parseLong(digits.replace("_", ""));
                if (number < 0 || number > Long.MAX_VALUE >> shift) {
                    throw new NumberFormatException();
                }
                return number << shift;
            } catch (NumberFormatException e) {
                throw new TypeConversionException("expects a size in bytes such as 65536, 64k, 256m or 1g, got '" + value + "'");
            }
        }
    }

    private static Long parseLong(String value) {
        try {
            return Long.parseLong(value.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new TypeConversionException("expects an integer, got '" + value + "'");
        }
    }

    private static Integer parseInt(String value) {
        try {
            return Integer.parseInt(value.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new TypeConversionException("expects an integer, got '" + value + "'");
        }
    }

    private static Double parseDouble(String value) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new TypeConversionException("expects a number, got '" + value + "'");
        }
    }

    private static int usageError(ParameterException e, PrintStream err) {
        CommandLine command = e.getCommandLine();
        String message = e.getCause() instanceof TypeConversionException conversion && e.getArgSpec() instanceof OptionSpec option
                ? option.longestName() + " " + conversion.getMessage() : e.getMessage();
        String where = command.getCommandSpec().parent() == null ? "" : command.getCommandName() + ": ";
        err.println("error: " + where + message + " (" + command.getCommandSpec().qualifiedName() + " --help for usage)");
        return USAGE;
    }

    private static int badInput(Exception e, PrintStream err) throws Exception {
        if (e instanceof BadInputException) {
            err.println("error: " + e.getMessage());
        } else if (e instanceof QueueException) { // the queue's whole family: each names the directory and what to do
            err.println("error: " + oneLine(e.getMessage()));
        } else if (e instanceof UncheckedIOException io) {
            err.println("error: " + ioLine(io));
        } else if (e instanceof IOException io) {
            err.println("error: " + oneLine(io.toString()));
        } else {
            throw e; // a bug, not bad input: picocli reports it with its stack trace
        }
        return USAGE;
    }

    /**
     * The line of an I/O failure: its message and, unless the message ends with its cause's, its cause: one cause once
     * ("cannot create F: No space left on device", not that followed by "java.io.IOException: No space left on
     * device").
     */
    public static String ioLine(UncheckedIOException io) {
        String line = oneLine(io.getMessage());
        Throwable cause = io.getCause();
        if (cause == null || (cause.getMessage() != null && line.endsWith(": " + cause.getMessage()))) {
            return line;
        }
        return line + ": " + oneLine(cause.toString());
    }

    /** The first line of {@code message}, with " ..." if there were more. */
    public static String oneLine(String message) {
        if (message == null) {
            return "(no message)";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline) + " ...";
    }
}
