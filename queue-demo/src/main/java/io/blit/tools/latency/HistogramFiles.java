package io.blit.tools.latency;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * How a consumer process hands its histograms back: one line per run, each HdrHistogram's compressed encoding in
 * Base64, written to a temporary name and moved into place so a reader never sees half a file. Stateless.
 */
final class HistogramFiles {
    private HistogramFiles() {
    }

    static void write(Path file, Histogram[] histograms) {
        StringBuilder text = new StringBuilder();
        for (Histogram histogram : histograms) {
            ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
            int length = histogram.encodeIntoCompressedByteBuffer(buffer);
            byte[] bytes = new byte[length];
            buffer.flip().get(bytes);
            text.append(Base64.getEncoder().encodeToString(bytes)).append('\n');
        }
        writeAtomically(file, text.toString());
    }

    /**
     * @throws IllegalStateException naming the file and line if a line is not an encoded histogram
     */
    static List<Histogram> read(Path file) {
        List<Histogram> histograms = new ArrayList<>();
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the consumer's histograms from " + file, e);
        }
        for (int i = 0; i < lines.size(); i++) {
            try {
                byte[] bytes = Base64.getDecoder().decode(lines.get(i));
                histograms.add(Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(bytes), 0));
            } catch (IllegalArgumentException | DataFormatException e) {
                throw new IllegalStateException(file + " line " + (i + 1) + " is not an encoded histogram: " + e, e);
            }
        }
        return histograms;
    }

    /** Writes {@code text} to a temporary sibling of {@code file}, then renames it atomically. */
    static void writeAtomically(Path file, String text) {
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Files.writeString(temporary, text);
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
