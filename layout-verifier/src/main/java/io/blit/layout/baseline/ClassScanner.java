package io.blit.layout.baseline;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.reflect.AccessFlag;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Finds the classes of a class path that extend a given class, directly or through other classes of
 * that class path, by reading class files ({@code java.lang.classfile}) — no class is loaded or
 * initialised. The base class is matched by name, so the layout verifier finds subclasses of
 * {@code io.blit.core.TriviallyCopyable} without depending on core.
 *
 * <p>Scans directories (recursively) and jar files. Skipped: {@code module-info} and
 * {@code package-info}, everything under {@code META-INF/} (including multi-release versions), and
 * interfaces and abstract classes (not layouts anyone stores). A superclass outside the class path
 * (e.g. in the JDK) ends the walk up the hierarchy. Stateless; thread-safe.
 */
public final class ClassScanner {
    /** The binary name of core's base class of trivially copyable messages. */
    public static final String TRIVIALLY_COPYABLE = "io.blit.core.TriviallyCopyable";

    private ClassScanner() {
    }

    /** What the scan needs of one class file. */
    private record Header(String superName, boolean concrete) {
    }

    /**
     * Splits a class path in the platform's syntax ({@code :} or {@code ;}) into entries.
     *
     * @param classPath the class path; blank entries are skipped
     * @return its entries, in order
     * @throws IllegalArgumentException if an entry does not exist, naming it
     */
    public static List<Path> parseClassPath(String classPath) {
        List<Path> entries = new ArrayList<>();
        for (String part : classPath.split(File.pathSeparator)) {
            if (part.isBlank()) {
                continue;
            }
            Path entry = Path.of(part);
            if (!Files.exists(entry)) {
                throw new IllegalArgumentException("class path entry " + entry + " does not exist");
            }
            entries.add(entry);
        }
        return entries;
    }

    /**
     * The binary names of every concrete class in {@code classPath} that extends {@code baseName},
     * sorted by name.
     *
     * @param baseName  the binary name of the base class, e.g. {@code io.blit.core.TriviallyCopyable}
     * @param classPath directories and jars, searched in order (the first that holds a class wins)
     * @return the binary names of its concrete subclasses, direct or not
     * @throws IllegalArgumentException if an entry is neither a directory nor a readable jar, or a
     *                                  class file cannot be parsed; the message names the file (and
     *                                  the jar entry)
     * @throws UncheckedIOException     on an I/O error, naming the file
     */
    public static List<String> subclassesOf(String baseName, List<Path> classPath) {
        Map<String, Header> headers = new HashMap<>();
        for (Path entry : classPath) {
            if (Files.isDirectory(entry)) {
                scanDirectory(entry, headers);
            } else {
                scanJar(entry, headers);
            }
        }
        Set<String> found = new TreeSet<>();
        for (Map.Entry<String, Header> entry : headers.entrySet()) {
            if (entry.getValue().concrete() && extendsBase(entry.getKey(), baseName, headers)) {
                found.add(entry.getKey());
            }
        }
        return List.copyOf(found);
    }

    private static boolean extendsBase(String name, String baseName, Map<String, Header> headers) {
        Set<String> seen = new HashSet<>();
        Header header = headers.get(name);
        while (header != null && header.superName() != null && seen.add(name)) {
            if (header.superName().equals(baseName)) {
                return true;
            }
            name = header.superName();
            header = headers.get(name);
        }
        return false;
    }

    private static void scanDirectory(Path root, Map<String, Header> headers) {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String relative = root.relativize(file).toString().replace(File.separatorChar, '/');
                if (isScanned(relative)) {
                    read(Files.readAllBytes(file), file.toString(), headers);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot scan class path directory " + root + ": " + e, e);
        }
    }

    private static void scanJar(Path jar, Map<String, Header> headers) {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            Enumeration<? extends ZipEntry> entries = zip.entries();
            while (entries.hasMoreElements()) {
                ZipEntry entry = entries.nextElement();
                if (!entry.isDirectory() && entry.getName().endsWith(".class") && isScanned(entry.getName())) {
                    try (InputStream in = zip.getInputStream(entry)) {
                        read(in.readAllBytes(), jar + "!/" + entry.getName(), headers);
                    }
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("class path entry " + jar + " is neither a directory nor a readable jar: " + e, e);
        }
    }

    private static boolean isScanned(String relativePath) {
        String fileName = relativePath.substring(relativePath.lastIndexOf('/') + 1);
        return !relativePath.startsWith("META-INF/") && !fileName.equals("module-info.class") && !fileName.equals("package-info.class");
    }

    private static void read(byte[] bytes, String where, Map<String, Header> headers) {
        ClassModel model;
        try {
            model = ClassFile.of().parse(bytes);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot parse class file " + where + ": " + e.getMessage(), e);
        }
        String name = model.thisClass().asInternalName().replace('/', '.');
        String superName = model.superclass().map(s -> s.asInternalName().replace('/', '.')).orElse(null);
        boolean concrete = !model.flags().has(AccessFlag.INTERFACE) && !model.flags().has(AccessFlag.ABSTRACT);
        // The first class path entry that holds a class wins, as with a class loader.
        headers.putIfAbsent(name, new Header(superName, concrete));
    }
}
