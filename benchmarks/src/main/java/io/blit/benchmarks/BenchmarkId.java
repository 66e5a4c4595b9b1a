package io.blit.benchmarks;

import java.util.Map;
import java.util.Optional;

/**
 * Which suite, variant and operation one JMH benchmark method measures, read from its name: the
 * method {@code io.blit.benchmarks.SizeSweepBenchmark.blitWordLoopWrite} is variant
 * {@code blit_word_loop}, op {@code write}. The trailing {@code Write}/{@code Read} is the op; the rest,
 * camelCase turned into snake_case, is the variant. So the runner needs no list of variants: whatever
 * methods the included classes have, it reports.
 *
 * @param suite   {@link #MARKETDATA}, {@link #SWEEP}, {@link #CROSS_LAYOUT} or {@link #CROSS_LAYOUT_FFM}: the
 *                suite the benchmark's class belongs to
 * @param variant snake_case, e.g. {@code blit}, {@code blit_word_loop}, {@code chronicle}
 * @param op      {@link #WRITE} or {@link #READ}
 */
record BenchmarkId(String suite, String variant, String op) {
    static final String MARKETDATA = "marketdata";
    static final String SWEEP = "sweep";
    /** Reads across layouts beside the bulk read, each class's default engine. */
    static final String CROSS_LAYOUT = "cross_layout";
    /** The same with GENERATED_FFM copiers: segment accessors only, the path under unsafe memory access deny. */
    static final String CROSS_LAYOUT_FFM = "cross_layout_ffm";
    static final String WRITE = "write";
    static final String READ = "read";

    /**
     * Parses a benchmark's full name ({@code package.Class.method}).
     *
     * @param suiteByClass suite per simple class name of the included benchmark classes
     * @return empty if the class is not in {@code suiteByClass}, or the method name does not end in
     *         {@code Write} or {@code Read} after a non-empty variant: such a method is not summarised
     */
    static Optional<BenchmarkId> parse(String benchmark, Map<String, String> suiteByClass) {
        int lastDot = benchmark.lastIndexOf('.');
        String className = benchmark.substring(0, Math.max(lastDot, 0));
        String method = benchmark.substring(lastDot + 1);
        String suite = suiteByClass.get(className.substring(className.lastIndexOf('.') + 1));
        if (suite == null) {
            return Optional.empty();
        }
        for (String op : new String[] {WRITE, READ}) {
            String suffix = Character.toUpperCase(op.charAt(0)) + op.substring(1);
            if (method.endsWith(suffix) && method.length() > suffix.length()) {
                return Optional.of(new BenchmarkId(suite, snakeCase(method.substring(0, method.length() - suffix.length())), op));
            }
        }
        return Optional.empty();
    }

    /** {@code blitWordLoop} → {@code blit_word_loop}. */
    static String snakeCase(String camel) {
        StringBuilder out = new StringBuilder(camel.length() + 8);
        for (int i = 0; i < camel.length(); i++) {
            char c = camel.charAt(i);
            if (Character.isUpperCase(c)) {
                if (i > 0) {
                    out.append('_');
                }
                out.append(Character.toLowerCase(c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
