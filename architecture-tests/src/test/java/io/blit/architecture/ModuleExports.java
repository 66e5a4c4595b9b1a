package io.blit.architecture;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.module.ModuleDescriptor;
import java.net.URL;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What each Blit module exports, read from the compiled module descriptors ({@code module-info.class}) of the Blit
 * modules on the class path, not from a list kept by hand: for every package of such a module, its module and to whom
 * it is exported (everyone, some modules by name, or nobody). Immutable; thread-safe.
 */
final class ModuleExports {
    private static final ModuleExports ON_CLASS_PATH = read();

    /** Package to the descriptor of the Blit module that holds it. */
    private final Map<String, ModuleDescriptor> owners;

    private ModuleExports(Map<String, ModuleDescriptor> owners) {
        this.owners = Map.copyOf(owners);
    }

    /** {@return the exports of the Blit modules on this JVM's class path} */
    static ModuleExports onClassPath() {
        return ON_CLASS_PATH;
    }

    /** {@return the names of the modules read, e.g. {@code io.blit.queue}} */
    Set<String> modules() {
        return owners.values().stream().map(ModuleDescriptor::name).collect(java.util.stream.Collectors.toSet());
    }

    /** {@return the module that holds {@code pkg}, if a Blit module with a descriptor does} */
    Optional<String> moduleOf(String pkg) {
        return Optional.ofNullable(owners.get(pkg)).map(ModuleDescriptor::name);
    }

    /**
     * Whether code in {@code fromModule} (a module name, or empty for code on the class path outside any Blit module
     * with a descriptor) may use {@code pkg}: the package belongs to no Blit module, to {@code fromModule} itself, or
     * its module exports it to everyone or to {@code fromModule} by name.
     */
    boolean mayUse(Optional<String> fromModule, String pkg) {
        ModuleDescriptor owner = owners.get(pkg);
        if (owner == null || fromModule.filter(owner.name()::equals).isPresent()) {
            return true;
        }
        return owner.exports().stream().filter(e -> e.source().equals(pkg)).anyMatch(e -> !e.isQualified()
                || fromModule.filter(e.targets()::contains).isPresent());
    }

    private static ModuleExports read() {
        Map<String, ModuleDescriptor> owners = new HashMap<>();
        try {
            List<URL> descriptors = Collections.list(ClassLoader.getSystemClassLoader().getResources("module-info.class"));
            for (URL url : descriptors) {
                try (InputStream in = url.openStream()) {
                    ModuleDescriptor descriptor = ModuleDescriptor.read(in);
                    if (descriptor.name().startsWith("io.blit.")) {
                        descriptor.packages().forEach(pkg -> owners.put(pkg, descriptor));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the module descriptors on the class path", e);
        }
        return new ModuleExports(owners);
    }
}
