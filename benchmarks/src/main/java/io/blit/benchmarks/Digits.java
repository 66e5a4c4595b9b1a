package io.blit.benchmarks;

import java.math.BigDecimal;
import java.math.MathContext;

/** Number formatting shared by the summary's JSON, table and chart. */
final class Digits {
    private Digits() {
    }

    /**
     * {@code value} rounded to {@code digits} significant digits, in plain notation with no trailing
     * zeros: {@code significant(7.9123, 3)} is {@code 7.91}, {@code significant(130277.9, 3)} is
     * {@code 130000}. Only for finite values.
     */
    static String significant(double value, int digits) {
        return rounded(value, digits).toPlainString();
    }

    /** {@code value} rounded to {@code digits} significant digits, trailing zeros stripped. Only for finite values. */
    static BigDecimal rounded(double value, int digits) {
        return new BigDecimal(value).round(new MathContext(digits)).stripTrailingZeros();
    }
}
