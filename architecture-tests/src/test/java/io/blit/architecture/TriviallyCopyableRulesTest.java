package io.blit.architecture;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.EvaluationResult;
import io.blit.layout.archunit.TriviallyCopyableRules;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The ArchUnit rules Blit offers its users ({@link TriviallyCopyableRules}) hold for Blit's own
 * message classes, as a user's build would check them. (That each rule can fail is tested in
 * layout-verifier, on generated fixtures.)
 */
class TriviallyCopyableRulesTest {

    @Test
    void blitsOwnTriviallyCopyableClassesPassTheUserRules() {
        List<String> checked = ProductionClasses.get().stream()
                .filter(TriviallyCopyableRules.areTriviallyCopyable())
                .map(JavaClass::getName)
                .toList();
        assertTrue(checked.contains("io.blit.tools.messages.MarketData"), "the rules see the queue's messages: " + checked);

        EvaluationResult result = TriviallyCopyableRules.all().evaluate(ProductionClasses.get());

        assertFalse(result.hasViolation(), result.getFailureReport().toString());
    }
}
