package io.blit.architecture;

import org.junit.jupiter.api.Test;

/** Which Blit module may depend on which, checked on every module's production classes. */
class ModuleRulesTest {

    @Test
    void layoutVerifierDependsOnNoOtherBlitModule() {
        BlitRules.LAYOUT_DEPENDS_ON_NO_OTHER_MODULE.check(ProductionClasses.get());
    }

    @Test
    void coreDependsOnlyOnLayoutVerifier() {
        BlitRules.CORE_DEPENDS_ONLY_ON_LAYOUT.check(ProductionClasses.get());
    }

    @Test
    void nothingDependsOnBenchmarks() {
        BlitRules.NOTHING_DEPENDS_ON_BENCHMARKS.check(ProductionClasses.get());
    }

    @Test
    void nothingDependsOnQueueDemo() {
        BlitRules.NOTHING_DEPENDS_ON_QUEUE_DEMO.check(ProductionClasses.get());
    }
}
