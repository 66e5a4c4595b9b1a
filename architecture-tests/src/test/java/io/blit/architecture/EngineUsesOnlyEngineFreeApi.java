package io.blit.architecture;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.Collection;
import java.util.Optional;

/**
 * The queue's class-level DAG: an engine class ({@code io.blit.queue.internal..}, format included) may use a class of
 * the API package only if that class is engine-free ({@link EngineFreeApi}): the engine takes and throws the API's
 * values and never reaches back into a facade. Each violation names the engine class, the API class it uses and the
 * path by which that class reaches the engine.
 */
final class EngineUsesOnlyEngineFreeApi extends ArchCondition<JavaClass> {
    private EngineFreeApi api;

    EngineUsesOnlyEngineFreeApi() {
        super("use, if an engine class, only classes of io.blit.queue that use no engine (derived, never listed)");
    }

    @Override
    public void init(Collection<JavaClass> allObjectsToTest) {
        api = new EngineFreeApi(allObjectsToTest);
    }

    @Override
    public void check(JavaClass item, ConditionEvents events) {
        String pkg = item.getPackageName();
        if (!pkg.equals(EngineFreeApi.ENGINE) && !pkg.startsWith(EngineFreeApi.ENGINE + ".")) {
            return;
        }
        for (Dependency dependency : item.getDirectDependenciesFromSelf()) {
            JavaClass target = dependency.getTargetClass();
            if (!target.getPackageName().equals(EngineFreeApi.API)) {
                continue;
            }
            Optional<String> path = api.engineReachedBy(target);
            path.ifPresent(reached -> events.add(SimpleConditionEvent.violated(dependency, item.getName()
                    + " uses " + target.getName() + ", which is no value type: it reaches the engine (" + reached
                    + ") in " + dependency.getSourceCodeLocation())));
        }
    }
}
