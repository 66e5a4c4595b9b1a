package io.blit.architecture;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.Map;
import java.util.Optional;

/**
 * The condition of {@link BlitRules#ONLY_EXPORTED_PACKAGES_CROSS_MODULES}: a class may use a class of another Blit
 * module only in a package that module exports, to everyone or to the using module by name, as its compiled
 * module descriptor says ({@link ModuleExports}). A class on the class path outside every Blit module with a descriptor
 * (benchmarks, stress tests) may use exported packages only, unless the pair is one of the named exceptions: the
 * package root of the user to the unexported package it may use.
 *
 * <p>Each violation names the using class, the class used, its module and the source location.
 */
final class UseOnlyExportedPackagesOfOtherModules extends ArchCondition<JavaClass> {
    private final ModuleExports exports;
    private final Map<String, String> allowed;

    /**
     * @param exports what each module exports
     * @param allowed package root of a user (e.g. {@code io.blit.stress}) to the unexported package (and its sub-packages) it may use
     */
    UseOnlyExportedPackagesOfOtherModules(ModuleExports exports, Map<String, String> allowed) {
        super("use only the packages other Blit modules export to them (module-info), except " + allowed);
        this.exports = exports;
        this.allowed = Map.copyOf(allowed);
    }

    @Override
    public void check(JavaClass origin, ConditionEvents events) {
        Optional<String> fromModule = exports.moduleOf(origin.getPackageName());
        for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
            String pkg = dependency.getTargetClass().getPackageName();
            if (!exports.mayUse(fromModule, pkg) && !isAllowed(origin.getPackageName(), pkg)) {
                events.add(SimpleConditionEvent.violated(dependency, origin.getName() + " (module "
                        + fromModule.orElse("none: class path") + ") uses " + dependency.getTargetClass().getName()
                        + " of package " + pkg + ", which module " + exports.moduleOf(pkg).orElseThrow()
                        + " does not export to it: " + dependency.getDescription()));
            }
        }
    }

    private boolean isAllowed(String originPackage, String targetPackage) {
        return allowed.entrySet().stream().anyMatch(e -> within(originPackage, e.getKey())
                && within(targetPackage, e.getValue()));
    }

    private static boolean within(String pkg, String root) {
        return pkg.equals(root) || pkg.startsWith(root + ".");
    }
}
