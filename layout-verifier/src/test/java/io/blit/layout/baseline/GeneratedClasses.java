package io.blit.layout.baseline;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.classfile.ClassFile;
import java.lang.constant.ClassDesc;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

/**
 * Writes class files with chosen fields into a directory with {@code java.lang.classfile}, so that a
 * test can have two variants of the same-named class (in two directories) and a stand-in for core's
 * {@code io.blit.core.TriviallyCopyable}, which this module cannot depend on. The classes have no
 * methods: layout tools only load and reflect on them.
 */
final class GeneratedClasses {
    private GeneratedClasses() {
    }

    /** An instance field: name, type descriptor ({@code "J"}, {@code "Ljava/lang/String;"}), final or not. */
    record Field(String name, String descriptor, boolean isFinal) {
        static Field of(String name, String descriptor) {
            return new Field(name, descriptor, false);
        }
    }

    /** Writes the stand-in for {@code io.blit.core.TriviallyCopyable}: abstract, no fields. */
    static void writeTriviallyCopyable(Path dir) {
        write(dir, ClassScanner.TRIVIALLY_COPYABLE, "java.lang.Object", true, List.of());
    }

    /** Writes a concrete class extending {@code superName} with the fields, in declaration order. */
    static void write(Path dir, String name, String superName, Field... fields) {
        write(dir, name, superName, false, List.of(fields));
    }

    static void write(Path dir, String name, String superName, boolean isAbstract, List<Field> fields) {
        byte[] bytes = ClassFile.of().build(ClassDesc.of(name), type -> {
            type.withFlags(ClassFile.ACC_PUBLIC | (isAbstract ? ClassFile.ACC_ABSTRACT : 0) | ClassFile.ACC_SUPER);
            type.withSuperclass(ClassDesc.of(superName));
            for (Field field : fields) {
                type.withField(field.name(), ClassDesc.ofDescriptor(field.descriptor()),
                        ClassFile.ACC_PUBLIC | (field.isFinal() ? ClassFile.ACC_FINAL : 0));
            }
        });
        writeBytes(dir, name, bytes);
    }

    /** Writes an interface. */
    static void writeInterface(Path dir, String name) {
        byte[] bytes = ClassFile.of().build(ClassDesc.of(name), type -> type
                .withFlags(ClassFile.ACC_PUBLIC | ClassFile.ACC_INTERFACE | ClassFile.ACC_ABSTRACT));
        writeBytes(dir, name, bytes);
    }

    /** Packs every file under {@code dir} into {@code jar}. */
    static Path jar(Path dir, Path jar) {
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
             var files = Files.walk(dir)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                out.putNextEntry(new JarEntry(dir.relativize(file).toString().replace('\\', '/')));
                out.write(Files.readAllBytes(file));
                out.closeEntry();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return jar;
    }

    /** Loads the named classes from the directories, in a loader of their own. */
    static List<Class<?>> load(List<Path> dirs, String... names) {
        List<URL> urls = new ArrayList<>();
        try {
            for (Path dir : dirs) {
                urls.add(dir.toUri().toURL());
            }
            URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), GeneratedClasses.class.getClassLoader());
            List<Class<?>> classes = new ArrayList<>();
            for (String name : names) {
                classes.add(Class.forName(name, false, loader));
            }
            return classes;
        } catch (MalformedURLException | ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void writeBytes(Path dir, String name, byte[] bytes) {
        Path file = dir.resolve(name.replace('.', '/') + ".class");
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
