package io.blit.queue;

import io.blit.core.LayoutPolicy;
import io.blit.layout.FieldDescriptor;
import io.blit.layout.JvmFacts;
import io.blit.layout.LayoutDescriptor;
import io.blit.layout.LayoutVerifier;
import java.nio.file.Path;
import java.util.StringJoiner;

/**
 * A child JVM for {@link CompactHeadersLayoutMismatchTest}, run under explicit header flags:
 * <ul>
 *   <li>{@code write <dir> <segment size> mixed|market <count>} appends {@code count} messages
 *       ({@code fillFor(i)}) and prints "done";</li>
 *   <li>{@code read <dir> <segment size> mixed|market STRICT|TRANSLATE} opens the queue with that layout policy
 *       and prints every message as
 *       "VALUE ..." then "read N", or, when the open fails, "EXCEPTION class" and the message between
 *       "MESSAGE-BEGIN" and "MESSAGE-END".</li>
 * </ul>
 * Both first print "MODE header-mode" and "LAYOUT name=relativeOffset ..." for this JVM's layout of the class.
 */
public final class LayoutModeChild {
    private LayoutModeChild() {
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[1]);
        QueueOptions options = QueueOptions.defaults().segmentSize(Long.parseLong(args[2]));
        Class<?> type = switch (args[3]) {
            case "mixed" -> MixedSizes.class;
            case "market" -> MarketData.class;
            default -> throw new IllegalArgumentException(args[3]);
        };
        System.out.println("MODE " + JvmFacts.current().headerMode());
        System.out.println("LAYOUT " + relativeOffsets(LayoutDescriptor.of(LayoutVerifier.verify(type))));
        switch (args[0]) {
            case "write" -> write(dir, options, type, Integer.parseInt(args[4]));
            case "read" -> read(dir, options.layoutPolicy(LayoutPolicy.valueOf(args[4])), type);
            default -> throw new IllegalArgumentException(args[0]);
        }
        System.out.flush();
    }

    static String relativeOffsets(LayoutDescriptor descriptor) {
        StringJoiner out = new StringJoiner(" ");
        for (FieldDescriptor field : descriptor.fields()) {
            out.add(field.name() + "=" + (field.offset() - descriptor.start()));
        }
        return out.toString();
    }

    private static void write(Path dir, QueueOptions options, Class<?> type, int count) {
        if (type == MixedSizes.class) {
            try (BlitQueue<MixedSizes> queue = BlitQueue.open(dir, MixedSizes.class, options);
                 Appender<MixedSizes> appender = queue.appender()) {
                MixedSizes m = new MixedSizes();
                for (int i = 0; i < count; i++) {
                    appender.append(m.fillFor(i));
                }
            }
        } else {
            try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, options);
                 Appender<MarketData> appender = queue.appender()) {
                MarketData md = new MarketData();
                for (int i = 0; i < count; i++) {
                    appender.append(md.fillFor(i, 1_000L + i));
                }
            }
        }
        System.out.println("done");
    }

    private static void read(Path dir, QueueOptions options, Class<?> type) {
        try {
            int n = 0;
            if (type == MixedSizes.class) {
                try (BlitQueue<MixedSizes> queue = BlitQueue.open(dir, MixedSizes.class, options);
                     Tailer<MixedSizes> tailer = queue.tailer()) {
                    MixedSizes m = new MixedSizes();
                    while (tailer.readNext(m)) {
                        System.out.println("VALUE " + m.values());
                        n++;
                    }
                }
            } else {
                try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, options);
                     Tailer<MarketData> tailer = queue.tailer()) {
                    MarketData md = new MarketData();
                    while (tailer.readNext(md)) {
                        System.out.println("VALUE " + md.securityId + " time=" + md.time + " consistent=" + md.isConsistentFor(md.securityId)
                                + " bidQty1=" + md.bidQty1 + " askPrice3=" + md.askPrice3);
                        n++;
                    }
                }
            }
            System.out.println("read " + n);
        } catch (RuntimeException e) {
            System.out.println("EXCEPTION " + e.getClass().getName());
            System.out.println("MESSAGE-BEGIN");
            System.out.println(e.getMessage());
            System.out.println("MESSAGE-END");
        }
    }
}
