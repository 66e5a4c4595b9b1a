package io.blit.architecture;

import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
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
                // A module-info.class alone names only the packages it exports or opens unless a jar tool added the
                // ModulePackages attribute: read the module through a ModuleFinder of its jar or classes directory,
                // which finds every package, whichever way the build put the module on the class path.
                Path root = moduleRoot(url);
                if (root == null) {
                    continue; // the JDK's own modules (jrt:), never a Blit module
                }
                for (ModuleReference module : ModuleFinder.of(root).findAll()) {
                    ModuleDescriptor descriptor = module.descriptor();
                    if (descriptor.name().startsWith("io.blit.")) {
                        descriptor.packages().forEach(pkg -> owners.put(pkg, descriptor));
                    }
                }
            }
        } catch (IOException | URISyntaxException e) {
            throw new IllegalStateException("cannot read the module descriptors on the class path", e);
        }
        return new ModuleExports(owners);
    }

    /** The jar, or the classes directory, whose {@code module-info.class} {@code url} names; null for a JDK module. */
    private static Path moduleRoot(URL url) throws URISyntaxException, IOException {
        if (url.getProtocol().equals("jar")) {
            String spec = url.getPath(); // file:/.../x.jar!/module-info.class
            return Path.of(new URI(spec.substring(0, spec.indexOf("!/"))));
        }
        if (url.getProtocol().equals("file")) {
            return Path.of(url.toURI()).getParent();
        }
        return null;
    }
}
