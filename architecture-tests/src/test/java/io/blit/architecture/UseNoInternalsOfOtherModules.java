package io.blit.architecture;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.Map;

/**
 * The condition of {@link BlitRules#INTERNAL_PACKAGES_STAY_IN_THEIR_MODULE}: a class may use a class of
 * an {@code internal} package only if both belong to the same module, or if the pair is one of the named
 * exceptions ({@link BlitRules#ALLOWED_INTERNAL_USES}: module to the internal package it may use).
 * A module is the first three package segments, e.g. {@code io.blit.core}.
 *
 * <p>Each violation names the using class, the internal class and the source location.
 */
final class UseNoInternalsOfOtherModules extends ArchCondition<JavaClass> {

    private final Map<String, String> allowed;

    /** @param allowed module (package root) to the one internal package of another module it may use */
    UseNoInternalsOfOtherModules(Map<String, String> allowed) {
        super("use no internal package of another Blit module (except " + allowed + ")");
        this.allowed = Map.copyOf(allowed);
    }

    @Override
    public void check(JavaClass origin, ConditionEvents events) {
        for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
            JavaClass target = dependency.getTargetClass();
            if (isBlitInternal(target) && !isAllowed(origin, target)) {
                events.add(SimpleConditionEvent.violated(dependency, origin.getName() + " (module " + moduleOf(origin)
                        + ") uses internal class " + target.getName() + " of module " + moduleOf(target)
                        + ": " + dependency.getDescription()));
            }
        }
    }

    private static boolean isBlitInternal(JavaClass type) {
        String pkg = type.getPackageName();
        return pkg.startsWith("io.blit.") && (pkg.endsWith(".internal") || pkg.contains(".internal."));
    }

    private boolean isAllowed(JavaClass origin, JavaClass target) {
        String originModule = moduleOf(origin);
        if (originModule.equals(moduleOf(target))) {
            return true;
        }
        String allowedPackage = allowed.get(originModule);
        return allowedPackage != null && isInPackage(target, allowedPackage);
    }

    private static boolean isInPackage(JavaClass type, String pkg) {
        return type.getPackageName().equals(pkg) || type.getPackageName().startsWith(pkg + ".");
    }

    /** {@code io.blit.X} for a class in {@code io.blit.X..}; the package itself for anything shorter. */
    private static String moduleOf(JavaClass type) {
        String[] segments = type.getPackageName().split("\\.");
        return segments.length < 3 ? type.getPackageName() : segments[0] + "." + segments[1] + "." + segments[2];
    }
}
