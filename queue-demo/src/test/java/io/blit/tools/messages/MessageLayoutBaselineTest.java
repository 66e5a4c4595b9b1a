package io.blit.tools.messages;

import io.blit.layout.baseline.LayoutBaseline;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The persisted message classes keep the layouts recorded in {@code layout-baseline.txt}, checked
 * from JUnit in this test JVM's mode (the build's {@code check-layout} step, blit-maven-plugin, checks all
 * three modes). This is the snippet docs/layout-compatibility.md offers users.
 */
class MessageLayoutBaselineTest {

    @Test
    void persistedMessagesKeepTheirRecordedLayout() {
        LayoutBaseline.assertMatches(Path.of("layout-baseline.txt"), MarketData.class);
    }
}
