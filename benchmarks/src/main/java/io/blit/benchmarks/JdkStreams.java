package io.blit.benchmarks;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;

/**
 * JDK object serialisation into and out of a reused in-memory buffer, as a user writes it: the byte
 * stream is reused and rewound, the {@code ObjectOutputStream}/{@code ObjectInputStream} is new per
 * message (each stream writes or expects its own header and class descriptors, so a stream cannot be
 * rewound and reused). Shared by {@link MarketDataFormatsBenchmark} and {@link SerializedSizes} so that
 * the sizes are those of the measured code. Stateless.
 */
final class JdkStreams {
    private JdkStreams() {
    }

    /** Rewinds {@code buffer} and writes {@code dto} to it as one complete stream; returns its size. */
    static int write(ByteArrayOutputStream buffer, Object dto) throws IOException {
        buffer.reset();
        try (ObjectOutputStream out = new ObjectOutputStream(buffer)) {
            out.writeObject(dto);
        }
        return buffer.size();
    }

    /** Rewinds {@code buffer} (to its mark, 0 unless set) and reads one object from it. */
    static Object read(ByteArrayInputStream buffer) throws IOException, ClassNotFoundException {
        buffer.reset();
        try (ObjectInputStream in = new ObjectInputStream(buffer)) {
            return in.readObject();
        }
    }
}
