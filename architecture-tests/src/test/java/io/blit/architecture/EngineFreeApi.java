package io.blit.architecture;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which classes of the queue's API package ({@code io.blit.queue}) use no engine: the value types (exceptions,
 * options, policies, the clock, message-type descriptions) that the engine may throw and take. Computed from the
 * bytecode, never listed by hand: a class of {@code io.blit.queue} is engine-free when neither it nor its nested
 * classes use a class of {@code io.blit.queue.internal..} other than the format descriptors
 * ({@code io.blit.queue.internal.format}) or of {@code io.blit.queue.replica}, nor another class of
 * {@code io.blit.queue} that is not engine-free. The format package is the bottom every layer may use.
 *
 * <p>Not thread-safe (memoises per instance); one instance per rule evaluation.
 */
final class EngineFreeApi {
    static final String API = "io.blit.queue";
    static final String FORMAT = "io.blit.queue.internal.format";
    static final String ENGINE = "io.blit.queue.internal";
    static final String REPLICA = "io.blit.queue.replica";

    /** Top-level class name to the engine or replica class it reaches (empty: engine-free). */
    private final Map<String, Optional<String>> verdicts = new HashMap<>();
    /** Top-level class name to it and its nested classes, among the classes imported. */
    private final Map<String, List<JavaClass>> nested = new HashMap<>();

    /** @param imported every class imported for the evaluation: nested classes are found among them by name */
    EngineFreeApi(Iterable<JavaClass> imported) {
        for (JavaClass type : imported) {
            nested.computeIfAbsent(topLevel(type), k -> new ArrayList<>()).add(type);
        }
    }

    /** Whether {@code type} belongs to the engine proper: an engine package other than the format's. */
    static boolean isEngine(JavaClass type) {
        String pkg = type.getPackageName();
        return (pkg.equals(ENGINE) || pkg.startsWith(ENGINE + ".")) && !pkg.equals(FORMAT) && !pkg.startsWith(FORMAT + ".");
    }

    /**
     * The engine or replica class that {@code type} (a class of {@code io.blit.queue}) reaches, through its nested
     * classes and the API classes it uses, as a path {@code A -> B -> engine class}; empty if it is engine-free.
     */
    Optional<String> engineReachedBy(JavaClass type) {
        String name = topLevel(type);
        if (verdicts.containsKey(name)) {
            return verdicts.get(name);
        }
        verdicts.put(name, Optional.empty()); // a cycle among API classes decides nothing by itself
        Optional<String> verdict = Optional.empty();
        for (JavaClass member : nested.getOrDefault(name, List.of(type))) {
            for (Dependency dependency : member.getDirectDependenciesFromSelf()) {
                JavaClass target = dependency.getTargetClass();
                String pkg = target.getPackageName();
                if (isEngine(target) || pkg.equals(REPLICA)) {
                    verdict = Optional.of(member.getName() + " -> " + target.getName());
                } else if (pkg.equals(API) && !topLevel(target).equals(name)) {
                    verdict = engineReachedBy(target).map(path -> member.getName() + " -> " + path);
                }
                if (verdict.isPresent()) {
                    verdicts.put(name, verdict);
                    return verdict;
                }
            }
        }
        return verdict;
    }

    /** The top-level class's name: by name, as a generated nested class may lack its InnerClasses attribute. */
    private static String topLevel(JavaClass type) {
        String name = type.getName();
        int nested = name.indexOf('$');
        return nested < 0 ? name : name.substring(0, nested);
    }
}
