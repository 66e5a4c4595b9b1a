package io.blit.tools.latency;

import java.io.Serial;
import java.io.Serializable;

/** One level of a {@link NormalBookUpdate}: price and quantity, a plain {@link Serializable} object. */
public final class PriceLevel implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    private final double price;
    private final double quantity;

    public PriceLevel(double price, double quantity) {
        this.price = price;
        this.quantity = quantity;
    }

    public double price() {
        return price;
    }

    public double quantity() {
        return quantity;
    }
}
