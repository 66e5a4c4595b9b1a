package io.blit.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.blit.layout.shapes.Shapes;
import org.junit.jupiter.api.Test;

class LayoutVerifierSmokeTest {
    @Test
    void marketDataBlockIs144Bytes() {
        assertEquals(144, LayoutVerifier.verify(Shapes.MarketDataShape.class).length());
    }
}
