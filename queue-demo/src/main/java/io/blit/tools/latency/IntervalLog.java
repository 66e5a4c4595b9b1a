package io.blit.tools.latency;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.HdrHistogram.HistogramLogWriter;

/**
 * HdrHistogram interval logs ({@code .hlog}, written by {@link HistogramLogWriter}, the format HistogramLogProcessor,
 * HistogramLogAnalyzer and hdr-plot read) of latency results: one interval histogram per measured run of each kind,
 * tagged with the kind's command-line name ({@code Tag=tc}), starting at the intended send time of the run's first
 * message and ending where the next run's schedule starts (the histogram's {@linkplain Histogram#getStartTimeStamp()
 * start} and {@linkplain Histogram#getEndTimeStamp() end} time stamps, epoch milliseconds, which {@link ReceiveLoop}
 * sets). A comment line states the units: values are nanoseconds; the legend's {@code Interval_Max} column is in
 * milliseconds (HdrHistogram's default ratio of 10^6). Stateless.
 */
public final class IntervalLog {
    /** The comment line that documents the units, as it stands in the log (after its {@code #}). */
    public static final String UNITS = "Values: end-to-end latency in nanoseconds (receive time - intended send time); "
            + "Interval_Max column in milliseconds (max / 10^6)";

    private IntervalLog() {
    }

    /** The log beside a JSON result file: {@code X.json} → {@code X.hlog}; another name gains {@code .hlog}. */
    public static Path fileFor(Path json) {
        String name = json.getFileName().toString();
        String base = name.endsWith(".json") ? name.substring(0, name.length() - ".json".length()) : name;
        return json.resolveSibling(base + ".hlog");
    }

    /**
     * Writes the log of {@code results}: every run of the first result, then of the next, each tagged with its kind.
     *
     * @throws IllegalArgumentException if {@code results} is empty or a run has no start and end time stamps
     * @throws IOException              if the file cannot be written
     */
    public static void write(Path file, List<LatencyResult> results) throws IOException {
        if (results.isEmpty()) {
            throw new IllegalArgumentException("no results to log");
        }
        List<Histogram> tagged = new ArrayList<>();
        for (LatencyResult result : results) {
            for (int r = 0; r < result.runs().size(); r++) {
                Histogram run = result.runs().get(r);
                if (run.getEndTimeStamp() <= 0 || run.getStartTimeStamp() > run.getEndTimeStamp()) {
                    throw new IllegalArgumentException("run " + (r + 1) + " of " + result.kind().cliName()
                            + " has no start and end time stamps");
                }
                // A copy: the result's histograms are not to be modified, and the tag is part of the histogram.
                Histogram copy = run.copy();
                copy.setStartTimeStamp(run.getStartTimeStamp());
                copy.setEndTimeStamp(run.getEndTimeStamp());
                copy.setTag(result.kind().cliName());
                tagged.add(copy);
            }
        }
        LatencyResult first = results.getFirst();
        Files.writeString(file, text(tagged, List.of("Blit latency harness, " + first.mode() + " mode, "
                + first.rate() + " msg/s, one interval per measured run, tagged with the message kind", UNITS)));
    }

    /**
     * The log of {@code histograms}, in order, with {@code comments} first. The base time is the earliest start time
     * stamp, so intervals are written relative to it and read back as absolute times.
     */
    static String text(List<Histogram> histograms, List<String> comments) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream stream = new PrintStream(bytes, false, StandardCharsets.US_ASCII)) {
            HistogramLogWriter writer = new HistogramLogWriter(stream);
            comments.forEach(writer::outputComment);
            long base = histograms.stream().mapToLong(Histogram::getStartTimeStamp).min().orElse(0);
            writer.outputLogFormatVersion();
            writer.outputStartTime(base);
            writer.setBaseTime(base);
            writer.outputBaseTime(base);
            writer.outputLegend();
            histograms.forEach(writer::outputIntervalHistogram);
        }
        return bytes.toString(StandardCharsets.US_ASCII);
    }

    /**
     * The interval histograms of a log, in order, with their tags and time stamps.
     *
     * @throws IllegalArgumentException if an interval is not a {@link Histogram} (a DoubleHistogram's log)
     * @throws RuntimeException         HdrHistogram's, if a line is not an encoded histogram
     */
    public static List<Histogram> read(String log) {
        List<Histogram> histograms = new ArrayList<>();
        try (HistogramLogReader reader = new HistogramLogReader(
                new ByteArrayInputStream(log.getBytes(StandardCharsets.US_ASCII)))) {
            for (EncodableHistogram next = reader.nextIntervalHistogram(); next != null;
                 next = reader.nextIntervalHistogram()) {
                if (!(next instanceof Histogram histogram)) {
                    throw new IllegalArgumentException("interval " + (histograms.size() + 1) + " is a "
                            + next.getClass().getSimpleName() + ", not a Histogram");
                }
                histograms.add(histogram);
            }
        }
        return histograms;
    }
}
