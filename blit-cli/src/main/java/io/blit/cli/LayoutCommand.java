package io.blit.cli;

import io.blit.layout.LayoutDescriptor;
import io.blit.layout.LayoutVerifier;
import io.blit.layout.NotTriviallyCopyableException;
import io.blit.queue.BlitQueue;
import io.blit.queue.replica.SourceFiles;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code layout}: the layouts of classes on the class path, or those a queue's newest file stores, as the layout
 * verifier describes them, or ({@code --c-header}) as a C11 header ({@link CHeader}).
 */
@Command(name = "layout", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = {"Print message layouts, or a C header of their payloads.",
                "",
                "Prints the field layout of each --class (a trivially copyable class on the class path, laid out by this "
                        + "JVM: run java -cp blit.jar:your.jar io.blit.cli.BlitCli layout ... with the JVM flags of the "
                        + "writers) or of each message type the newest segment file of the queue in --dir stores "
                        + "(as its writers laid them out): one block line, then one line per field and padding gap. "
                        + "With --c-header it prints a C11 header instead: macros for the record header word's bit "
                        + "fields, and per layout a struct of the payload (named after the class's simple name) with "
                        + "every field at its exact offset, explicit padding members, _Static_assert on offsetof and "
                        + "sizeof, and BLIT_<NAME>_TYPE_ID (with --dir) and BLIT_<NAME>_FINGERPRINT. Reads the queue "
                        + "read-only and creates nothing.",
                ""},
        footer = {"", CliSupport.EXIT_CODES})
public final class LayoutCommand implements Callable<Integer> {
    private final PrintStream out;

    @ArgGroup(exclusive = true, multiplicity = "1")
    private Source source;

    @Option(names = "--c-header", description = "print a C11 header of the payload structs")
    private boolean cHeader;

    /** Where the layouts come from: classes, or a queue's stored layouts. */
    static final class Source {
        @Option(names = "--class", paramLabel = "NAME", description = "binary name of a class on the class path "
                + "(repeatable)")
        List<String> classes;

        @Option(names = "--dir", paramLabel = "D", description = "queue directory: the layouts its newest file stores")
        Path dir;
    }

    /** @param out where the command prints */
    public LayoutCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() {
        List<CHeader.Entry> entries = source.dir != null ? stored(source.dir) : measured(source.classes);
        if (cHeader) {
            String from = source.dir != null ? "the newest file of queue " + source.dir
                    : "class" + (source.classes.size() > 1 ? "es " : " ") + String.join(", ", source.classes);
            out.print(CHeader.render(from, entries));
        } else {
            for (CHeader.Entry entry : entries) {
                out.print((entry.typeId() >= 0 ? "type " + entry.typeId() + " " : "") + entry.layout().describe());
            }
        }
        return CliSupport.OK;
    }

    private static List<CHeader.Entry> stored(Path dir) {
        QueueFiles.existingQueue(dir);
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir, QueueFiles.READ_ONLY)) {
            long[] firsts = queue.fileFirstIndices();
            List<CHeader.Entry> entries = new ArrayList<>();
            for (Map.Entry<Integer, LayoutDescriptor> type
                    : SourceFiles.storedTypes(SourceFiles.fileHeader(queue, firsts[firsts.length - 1])).entrySet()) {
                entries.add(new CHeader.Entry(type.getKey(), type.getValue()));
            }
            if (entries.isEmpty()) {
                throw new BadInputException("queue " + dir + " holds raw payloads: its files store no layout");
            }
            return entries;
        }
    }

    private static List<CHeader.Entry> measured(List<String> classes) {
        List<CHeader.Entry> entries = new ArrayList<>();
        for (String name : classes) {
            Class<?> type;
            try {
                type = Class.forName(name, false, LayoutCommand.class.getClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                throw new BadInputException("--class " + name + ": not found on the class path");
            }
            try {
                entries.add(new CHeader.Entry(-1, LayoutDescriptor.of(LayoutVerifier.verify(type))));
            } catch (NotTriviallyCopyableException e) {
                throw new BadInputException("--class " + name + ": " + CliSupport.oneLine(e.getMessage()));
            }
        }
        return entries;
    }
}
