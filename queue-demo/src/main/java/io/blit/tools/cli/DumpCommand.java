package io.blit.tools.cli;

import io.blit.layout.FieldDescriptor;
import io.blit.layout.LayoutDescriptor;
import io.blit.queue.BlitQueue;
import io.blit.queue.Tailer;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code dump}: prints every record of a queue using only the layout stored in its file header. */
@Command(name = "dump", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = {"Print every record using only the stored layout.",
                "",
                "Prints every record of the queue in D (index=I, then name=value for every field) decoding the raw "
                        + "payloads with nothing but the layout descriptor stored in the file header (field names, "
                        + "types and offsets; native byte order), so it needs no message class. A raw queue (no "
                        + "descriptor) is printed as hex. Damage the queue's API exposes is flagged: a payload whose "
                        + "length differs from the descriptor's block length is printed as \"index=I DAMAGED ...\" "
                        + "(and dump exits 1 at the end), indices the queue skipped (abandoned records) as "
                        + "\"# indices A..B abandoned\". The API does not expose the contents of abandoned records, "
                        + "nor a record whose header is invalid: such a header stops the dump with an error naming "
                        + "the file and byte offset (exit 2).",
                ""},
        footer = {"", QueueCli.EXIT_CODES})
final class DumpCommand implements Callable<Integer> {
    private final PrintStream out;

    @Option(names = "--dir", required = true, paramLabel = "D", description = "queue directory")
    private Path dir;

    DumpCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() {
        QueueFiles.existingQueue(dir);
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
                    QueueFiles.reportGap(out, expected, index);
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
        return damaged ? QueueCli.CHECK_FAILED : QueueCli.OK;
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
}
