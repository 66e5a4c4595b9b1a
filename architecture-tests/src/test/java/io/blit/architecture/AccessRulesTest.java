package io.blit.architecture;

import org.junit.jupiter.api.Test;

/** Privileged APIs, public state and internal packages, checked on every module's production classes. */
class AccessRulesTest {

    @Test
    void onlyUnsafeAccessUsesSunMiscUnsafeOrJdkInternal() {
        BlitRules.ONLY_UNSAFE_ACCESS_USES_PRIVILEGED_APIS.check(ProductionClasses.get());
    }

    @Test
    void exportedPackagesHaveNoPublicMutableFields() {
        BlitRules.NO_PUBLIC_MUTABLE_FIELDS_IN_EXPORTED_PACKAGES.check(ProductionClasses.get());
    }

    @Test
    void internalPackagesAreUsedOnlyInsideTheirModule() {
        BlitRules.INTERNAL_PACKAGES_STAY_IN_THEIR_MODULE.check(ProductionClasses.get());
    }
}
