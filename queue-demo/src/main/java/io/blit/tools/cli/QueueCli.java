package io.blit.tools.cli;

import io.blit.tools.messages.BookUpdate;

import io.blit.layout.FieldDescriptor;
import io.blit.layout.LayoutDescriptor;
import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.IndexedFiller;
import io.blit.queue.LayoutMismatchException;
import io.blit.tools.messages.MarketData;
import io.blit.queue.QueueCorruptedException;
import io.blit.queue.Tailer;
import io.blit.queue.WaitStrategy;

import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Field;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The queue command-line tool: {@code produce}, {@code tail}, {@code dump}, {@code check} (and the
 * latency harness's {@code demo} and {@code bench}, see {@link LatencyCommand}). Runs in-process through {@link #run}, which returns the exit
 * code: {@value #OK} ok, {@value #CHECK_FAILED} check failed, {@value #USAGE} usage error or bad input
 * (missing directory, corrupt or foreign files), each reported in one line on the error stream.
 *
 * <p>Message numbering ({@code produce}): each message is filled after its record is claimed
 * ({@link Appender#append(Object, io.blit.queue.IndexedFiller)}), so message {@code n} is exactly the message
 * at index {@code n} — a {@code produce} after a crash continues the sequence, and concurrent producers
 * (threads or processes) interleave without a gap or a duplicate, which {@code check} verifies.
 */
public final class QueueCli {
    public static final int OK = 0;
    /** Exit code of a failed check, or of a latency run that failed (a child died, a message arrived wrong). */
    public static final int CHECK_FAILED = 1;
    public static final int USAGE = 2;

    private static final String MAIN_USAGE = """
            Usage: queue-demo <command> [options]     (java -jar queue-demo.jar <command> --help for details)

            Commands:
              produce  --dir D --count N [--rate R] [--type T]       append MarketData (or BookUpdate) messages numbered by index
              tail     --dir D [--from start|end|INDEX] [--count N] [--follow]   print messages
              dump     --dir D                                      print every record using only the stored layout
              check    --dir D [--type T]                           verify a queue written by produce
              demo                                                  end-to-end latency: BookUpdate as trivially copyable
                                                                    vs normal objects, producer and consumer processes
              bench    [--kind K] [--mode M] [--rate R] [--count N] [--runs K] [--json FILE] ...   the latency harness

            Exit codes: 0 ok, 1 check (or latency run) failed, 2 usage error or bad input (missing directory, corrupt files).""";

    private static final Map<String, String> HELP = Map.of(
            "produce", """
                    Usage: produce --dir D --count N [--rate R] [--type marketdata|book]

                    Appends N MarketData messages to the queue in directory D (created if absent). Message n
                    has securityId = n, time = System.nanoTime(), and double field i (0..15 in declaration
                    order) = n + i/16.0, where n is the index the message gets in the queue: it is
                    filled after its record is claimed, so a produce after a crash continues the sequence
                    and concurrent producers interleave in one gap-free sequence that check accepts.

                      --dir D     queue directory
                      --count N   messages to append (N >= 0)
                      --rate R    messages per second; 0 (default) = as fast as possible
                      --type T    marketdata (default) or book: BookUpdate messages, where message n has
                                  symbol EURUSD, exchange XLON (packed in longs), sequence = n,
                                  sendTimeNanos = System.nanoTime(), and level field k (0..19: bid prices,
                                  bid quantities, ask prices, ask quantities, 5 each) = n + k/32.0""",
            "tail", """
                    Usage: tail --dir D [--from start|end|INDEX] [--count N] [--follow]

                    Prints one line per MarketData message: index=I then name=value for every field, in
                    layout (offset) order. The queue must exist and hold MarketData.

                      --from F    start, end or a message index (default start)
                      --count N   stop after N messages (default: all)
                      --follow    wait for new messages instead of stopping at the end of the queue
                                  (until --count messages were printed, or forever)
                    Indices skipped by the queue (records abandoned by a failed or dead writer) are
                    reported as a line "# indices A..B abandoned".""",
            "dump", """
                    Usage: dump --dir D

                    Prints every record of the queue in D — index=I, then name=value for every field —
                    decoding the raw payloads with nothing but the layout descriptor stored in the file
                    header (field names, types and offsets; native byte order), so it needs no message class.
                    A raw queue (no descriptor) is printed as hex. Damage the queue's API exposes is flagged:
                    a payload whose length differs from the descriptor's block length is printed as
                    "index=I DAMAGED ..." (and dump exits 1 at the end), indices the queue skipped
                    (abandoned records) as "# indices A..B abandoned". The API does not expose the contents
                    of abandoned records, nor a record whose header is invalid: such a header stops the dump
                    with an error naming the file and byte offset (exit 2).""",
            "check", """
                    Usage: check --dir D [--type marketdata|book]

                    Verifies a queue written by produce (single producer): indices contiguous from 0,
                    securityId == index and every double field = index + i/16.0 for every message. Prints
                    "N records ok" (exit 0) or the first bad record (exit 1). A queue that cannot be read
                    (missing directory, corrupt file header or record header, another message class) is
                    reported in one line naming the file (exit 2). With --type book the queue must hold
                    BookUpdate messages, checked for sequence == index and the content produce --type book
                    gives message n (produce --help).""",
            "demo", LatencyCommand.DEMO_HELP,
            "bench", LatencyCommand.BENCH_HELP);

    private QueueCli() {
    }

    public static void main(String[] args) {
        PrintStream out = new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16), false);
        int code;
        try {
            code = run(args, out, System.err);
        } finally {
            out.flush();
        }
        System.exit(code);
    }

    /** Runs one command; returns the exit code. Expected errors are reported in one line on {@code err}. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0) {
            err.println("error: no command given");
            err.println(MAIN_USAGE);
            return USAGE;
        }
        String command = args[0];
        if (command.equals("--help") || command.equals("-h") || command.equals("help")) {
            out.println(MAIN_USAGE);
            return OK;
        }
        if (!HELP.containsKey(command)) {
            err.println("error: unknown command '" + command + "'");
            err.println(MAIN_USAGE);
            return USAGE;
        }
        try {
            Options options = Options.parse(command, args);
            if (options.help) {
                out.println(HELP.get(command));
                return OK;
            }
            return switch (command) {
                case "produce" -> produce(options, out, err);
                case "tail" -> tail(options, out);
                case "dump" -> dump(options, out);
                case "check" -> check(options, out);
                case "bench", "demo" -> LatencyCommand.run(command, options, out, err);
                default -> throw new IllegalStateException("no handler for command " + command);
            };
        } catch (UsageException e) {
            err.println("error: " + command + ": " + e.getMessage());
            err.println("(" + command + " --help for usage)");
            return USAGE;
        } catch (BadInputException e) {
            err.println("error: " + e.getMessage());
            return USAGE;
        } catch (QueueCorruptedException | LayoutMismatchException e) {
            err.println("error: " + oneLine(e.getMessage()));
            return USAGE;
        } catch (UncheckedIOException e) {
            err.println("error: " + oneLine(e.getMessage()) + (e.getCause() == null ? "" : ": " + e.getCause()));
            return USAGE;
        } finally {
            out.flush();
        }
    }

    // ---------------------------------------------------------------- produce

    private static int produce(Options options, PrintStream out, PrintStream err) {
        return produce(MessageType.parse(options.value("--type", "marketdata")), options, out, err);
    }

    private static <T> int produce(MessageType<T> type, Options options, PrintStream out, PrintStream err) {
        Path dir = options.dir();
        long count = options.longValue("--count", -1);
        if (count < 0) {
            throw new UsageException(options.has("--count") ? "--count must be >= 0" : "--count N is required");
        }
        double rate = options.doubleValue("--rate", 0);
        if (rate < 0 || Double.isNaN(rate) || Double.isInfinite(rate)) {
            throw new UsageException("--rate must be a number >= 0");
        }
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new BadInputException("not a directory: " + dir);
        }
        try (BlitQueue<T> queue = BlitQueue.open(dir, type.type())) {
            long firstIndex = -1;
            long lastIndex = -1;
            T message = type.factory().get();
            MessageType.Filler<T> filler = type.filler();
            // Filled once the index is claimed: exact even with concurrent producers.
            IndexedFiller<T> byIndex = (m, n) -> filler.fill(m, n, System.nanoTime());
            long start = System.nanoTime();
            double intervalNanos = rate == 0 ? 0 : TimeUnit.SECONDS.toNanos(1) / rate;
            try (Appender<T> appender = queue.appender()) {
                for (long k = 0; k < count; k++) {
                    if (rate > 0) {
                        pace(start + (long) (k * intervalNanos));
                    }
                    long index = appender.append(message, byIndex);
                    if (firstIndex < 0) {
                        firstIndex = index;
                    }
                    lastIndex = index;
                }
            }
            long elapsed = System.nanoTime() - start;
            if (count == 0) {
                out.println("appended 0 messages to " + dir);
            } else {
                out.printf("appended %d messages to %s, indices %d..%d, in %.3f s (%.0f msg/s)%n", count, dir,
                        firstIndex, lastIndex, elapsed / 1e9, count / (elapsed / 1e9));
            }
            return OK;
        }
    }

    private static void pace(long deadline) {
        long remaining;
        while ((remaining = deadline - System.nanoTime()) > 0) {
            if (remaining > 200_000) {
                LockSupport.parkNanos(remaining - 100_000);
            } else {
                Thread.onSpinWait();
            }
        }
    }

    // ---------------------------------------------------------------- tail

    private static int tail(Options options, PrintStream out) {
        Path dir = existingQueue(options.dir());
        requireMessageClass(dir, MarketData.class);
        long count = options.longValue("--count", Long.MAX_VALUE);
        if (count < 0) {
            throw new UsageException("--count must be >= 0");
        }
        boolean follow = options.has("--follow");
        String from = options.value("--from", "start");
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class)) {
            Field[] fields = fieldsInLayoutOrder(MarketData.class, queue.descriptor());
            Tailer<MarketData> tailer = switch (from) {
                case "start" -> queue.tailer();
                case "end" -> queue.tailerFromEnd();
                default -> {
                    long index = parseLong("--from", from);
                    try {
                        yield queue.tailerFrom(index);
                    } catch (IllegalArgumentException e) {
                        throw new UsageException("--from " + index + ": " + oneLine(e.getMessage()));
                    }
                }
            };
            try (tailer) {
                MarketData md = new MarketData();
                StringBuilder line = new StringBuilder(512);
                long expected = tailer.index();
                for (long printed = 0; printed < count; ) {
                    boolean read = tailer.readNext(md);
                    if (!read) {
                        if (!follow) {
                            break;
                        }
                        out.flush();
                        read = tailer.next(md, WaitStrategy.PARK, TimeUnit.MILLISECONDS.toNanos(100));
                        if (!read) {
                            continue;
                        }
                    }
                    long index = tailer.index() - 1;
                    reportGap(out, expected, index);
                    expected = index + 1;
                    line.setLength(0);
                    line.append("index=").append(index);
                    for (Field field : fields) {
                        line.append(' ').append(field.getName()).append('=').append(get(field, md));
                    }
                    out.println(line);
                    printed++;
                }
            }
            return OK;
        }
    }

    private static Field[] fieldsInLayoutOrder(Class<?> type, LayoutDescriptor descriptor) {
        List<Field> fields = new ArrayList<>();
        for (FieldDescriptor fd : descriptor.fields()) {
            try {
                fields.add(type.getField(fd.name()));
            } catch (NoSuchFieldException e) {
                throw new IllegalStateException(type.getSimpleName() + " has no public field " + fd.name(), e);
            }
        }
        return fields.toArray(Field[]::new);
    }

    private static Object get(Field field, Object target) {
        try {
            return field.get(target);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void reportGap(PrintStream out, long expected, long index) {
        if (index > expected) {
            out.println("# indices " + expected + ".." + (index - 1) + " abandoned");
        }
    }

    // ---------------------------------------------------------------- dump

    private static int dump(Options options, PrintStream out) {
        Path dir = existingQueue(options.dir());
        boolean damaged = false;
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir); Arena arena = Arena.ofConfined()) {
            LayoutDescriptor descriptor = queue.descriptor();
            if (descriptor == null) {
                out.println("# queue " + dir + ": raw payloads (no layout descriptor), printed as hex");
            } else {
                out.println("# queue " + dir + ": " + descriptor.className() + ", fingerprint "
                        + descriptor.fingerprint() + ", " + descriptor.length() + "-byte blocks, fields "
                        + descriptor.fields());
            }
            long capacity = descriptor == null ? 1 << 20 : Math.max(descriptor.length(), 1 << 16);
            MemorySegment buffer = arena.allocate(capacity, 8);
            StringBuilder line = new StringBuilder(512);
            long records = 0;
            try (Tailer<Void> tailer = queue.tailer()) {
                long expected = tailer.index();
                while (true) {
                    long length;
                    try {
                        length = tailer.readNextBytes(buffer);
                    } catch (IllegalArgumentException e) {
                        // A payload longer than the buffer: grow and retry (the message was not consumed).
                        capacity = Math.max(capacity * 2, 1L << 24);
                        buffer = arena.allocate(capacity, 8);
                        continue;
                    }
                    if (length < 0) {
                        break;
                    }
                    long index = tailer.index() - 1;
                    reportGap(out, expected, index);
                    expected = index + 1;
                    records++;
                    line.setLength(0);
                    line.append("index=").append(index);
                    if (descriptor == null) {
                        line.append(" length=").append(length).append(" bytes=");
                        appendHex(line, buffer, length);
                    } else if (length != descriptor.length()) {
                        damaged = true;
                        line.append(" DAMAGED payload length ").append(length).append(", descriptor says ")
                                .append(descriptor.length()).append(" bytes=");
                        appendHex(line, buffer, Math.min(length, 256));
                    } else {
                        for (FieldDescriptor field : descriptor.fields()) {
                            line.append(' ').append(field.name()).append('=');
                            appendValue(line, buffer, field.offset() - descriptor.start(), field);
                        }
                    }
                    out.println(line);
                }
            }
            out.println("# " + records + " records" + (damaged ? ", some DAMAGED" : ""));
        }
        return damaged ? CHECK_FAILED : OK;
    }

    private static void appendValue(StringBuilder line, MemorySegment payload, long offset, FieldDescriptor field) {
        switch (field.type()) {
            case BOOLEAN -> line.append(payload.get(ValueLayout.JAVA_BYTE, offset) != 0);
            case BYTE -> line.append(payload.get(ValueLayout.JAVA_BYTE, offset));
            case CHAR -> line.append((int) payload.get(ValueLayout.JAVA_CHAR_UNALIGNED, offset));
            case SHORT -> line.append(payload.get(ValueLayout.JAVA_SHORT_UNALIGNED, offset));
            case INT -> line.append(payload.get(ValueLayout.JAVA_INT_UNALIGNED, offset));
            case FLOAT -> line.append(payload.get(ValueLayout.JAVA_FLOAT_UNALIGNED, offset));
            case LONG -> line.append(payload.get(ValueLayout.JAVA_LONG_UNALIGNED, offset));
            case DOUBLE -> line.append(payload.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, offset));
        }
    }

    private static void appendHex(StringBuilder line, MemorySegment payload, long length) {
        for (long i = 0; i < length; i++) {
            int b = payload.get(ValueLayout.JAVA_BYTE, i) & 0xff;
            line.append(Character.forDigit(b >>> 4, 16)).append(Character.forDigit(b & 0xf, 16));
        }
    }

    // ---------------------------------------------------------------- check

    private static int check(Options options, PrintStream out) {
        return check(MessageType.parse(options.value("--type", "marketdata")), options, out);
    }

    private static <T> int check(MessageType<T> type, Options options, PrintStream out) {
        Path dir = existingQueue(options.dir());
        requireMessageClass(dir, type.type());
        try (BlitQueue<T> queue = BlitQueue.open(dir, type.type());
             Tailer<T> tailer = queue.tailer()) {
            T md = type.factory().get();
            long expected = 0;
            if (tailer.index() != 0) {
                out.println("check failed: the queue starts at index " + tailer.index() + ", not 0");
                return CHECK_FAILED;
            }
            while (tailer.readNext(md)) {
                long index = tailer.index() - 1;
                if (index != expected) {
                    out.println("check failed: indices " + expected + ".." + (index - 1)
                            + " are missing (abandoned records) before index " + index);
                    return CHECK_FAILED;
                }
                long number = type.checker().number(md);
                if (number != index) {
                    out.println("check failed: record " + index + " has " + type.numberField() + "=" + number
                            + " (expected " + index + ")");
                    return CHECK_FAILED;
                }
                if (!type.checker().consistentFor(md, index)) {
                    StringBuilder line = new StringBuilder("check failed: record " + index + " has inconsistent fields:");
                    for (Field field : fieldsInLayoutOrder(type.type(), queue.descriptor())) {
                        line.append(' ').append(field.getName()).append('=').append(get(field, md));
                    }
                    out.println(line);
                    return CHECK_FAILED;
                }
                expected++;
            }
            out.println(expected + " records ok");
            return OK;
        }
    }

    // ---------------------------------------------------------------- helpers

    /**
     * Refuses a queue written with another message class. The queue's default layout policy matches fields by
     * name, which is meant for versions of one class (a field added, other JVM flags); a BookUpdate queue read as
     * MarketData would share some field names and give a misleading result, so the tool names both classes.
     */
    private static void requireMessageClass(Path dir, Class<?> type) {
        try (BlitQueue<Void> raw = BlitQueue.openRaw(dir)) {
            LayoutDescriptor stored = raw.descriptor();
            if (stored != null && !stored.className().equals(type.getName())) {
                throw new BadInputException("queue " + dir + " holds " + stored.className() + " messages, not "
                        + type.getName() + " (--type selects the message class)");
            }
        }
    }

    /** The directory of an existing queue, or a usage error naming what is missing. */
    private static Path existingQueue(Path dir) {
        if (!Files.exists(dir)) {
            throw new BadInputException("no such directory: " + dir);
        }
        if (!Files.isDirectory(dir)) {
            throw new BadInputException("not a directory: " + dir);
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "segment-*.blitq")) {
            if (!files.iterator().hasNext()) {
                throw new BadInputException("no queue in " + dir + " (no segment-*.blitq file)");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
        return dir;
    }

    private static String oneLine(String message) {
        if (message == null) {
            return "(no message)";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline) + " ...";
    }

    private static long parseLong(String option, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new UsageException(option + " expects an integer, got '" + value + "'");
        }
    }

    /** A command line the tool cannot run: reported in one line, exit {@value #USAGE}. */
    static final class UsageException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message, null, false, false);
        }
    }

    /** Input the tool cannot read (a missing directory, no queue): reported in one line, exit {@value #USAGE}. */
    static final class BadInputException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BadInputException(String message) {
            super(message, null, false, false);
        }
    }

    /** The parsed options of one command: {@code --name value}, {@code --name=value} or a flag. */
    static final class Options {
        private static final Map<String, Set<String>> VALUED = Map.of(
                "produce", Set.of("--dir", "--count", "--rate", "--type"),
                "tail", Set.of("--dir", "--from", "--count"),
                "dump", Set.of("--dir"),
                "check", Set.of("--dir", "--type"),
                "demo", Set.copyOf(LatencyCommand.VALUED),
                "bench", Set.copyOf(LatencyCommand.VALUED));
        private static final Map<String, Set<String>> FLAGS = Map.of("tail", Set.of("--follow"),
                "demo", Set.copyOf(LatencyCommand.FLAGS), "bench", Set.copyOf(LatencyCommand.FLAGS));

        private final Map<String, String> values = new HashMap<>();
        private boolean help;

        static Options parse(String command, String[] args) {
            Options options = new Options();
            Set<String> valued = VALUED.get(command);
            Set<String> flags = FLAGS.getOrDefault(command, Set.of());
            for (int i = 1; i < args.length; i++) {
                String arg = args[i];
                if (arg.equals("--help") || arg.equals("-h")) {
                    options.help = true;
                    continue;
                }
                String name = arg;
                String value = null;
                int eq = arg.indexOf('=');
                if (arg.startsWith("--") && eq > 0) {
                    name = arg.substring(0, eq);
                    value = arg.substring(eq + 1);
                }
                if (valued.contains(name)) {
                    if (value == null) {
                        if (i + 1 >= args.length) {
                            throw new UsageException(name + " needs a value");
                        }
                        value = args[++i];
                    }
                } else if (flags.contains(name) && value == null) {
                    value = "true";
                } else {
                    throw new UsageException(arg.startsWith("-") ? "unknown option '" + arg + "'"
                            : "unexpected argument '" + arg + "'");
                }
                if (options.values.put(name, value) != null) {
                    throw new UsageException(name + " given twice");
                }
            }
            return options;
        }

        boolean has(String name) {
            return values.containsKey(name);
        }

        String value(String name, String otherwise) {
            return values.getOrDefault(name, otherwise);
        }

        Path dir() {
            String dir = values.get("--dir");
            if (dir == null || dir.isEmpty()) {
                throw new UsageException("--dir D is required");
            }
            try {
                return Path.of(dir);
            } catch (java.nio.file.InvalidPathException e) {
                throw new UsageException("--dir: invalid path '" + dir + "'");
            }
        }

        long longValue(String name, long otherwise) {
            String value = values.get(name);
            return value == null ? otherwise : parseLong(name, value);
        }

        double doubleValue(String name, double otherwise) {
            String value = values.get(name);
            if (value == null) {
                return otherwise;
            }
            try {
                return Double.parseDouble(value);
            } catch (NumberFormatException e) {
                throw new UsageException(name + " expects a number, got '" + value + "'");
            }
        }
    }
}
