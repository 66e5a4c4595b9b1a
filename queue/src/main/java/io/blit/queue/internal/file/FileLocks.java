package io.blit.queue.internal.file;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Who holds a POSIX record lock ({@code fcntl}) on part of a file: the answer a refusal or a bounded wait names, and,
 * where the kernel can be asked without taking a lock, the liveness test itself. Never takes, waits for or releases a
 * lock.
 *
 * <h2>Two ways to ask</h2>
 * <ul>
 *   <li><b>{@code fcntl(F_OFD_GETLK)}</b> through the FFM API (Linux on x86-64 or AArch64, and only when native access
 *       is enabled for this module: {@code --enable-native-access=io.blit.queue}, or {@code ALL-UNNAMED} on the class
 *       path; without it the JDK would print a warning, which Blit never causes). The kernel reports a lock that
 *       conflicts with a write lock of the range: whether it is shared or exclusive, its range, and its holder's pid in
 *       this process's pid namespace (0 if the holder is not visible in it; -1 for an open file description lock,
 *       whose holder the kernel never names). Every process's locks are seen, in any pid namespace. The answer is
 *       <em>authoritative</em>: no lock reported means none is held. An open file description lock conflicts with
 *       the traditional locks of this process too, so a range this process holds is reported as held by its own
 *       pid: ask only about ranges it does not hold.</li>
 *   <li><b>{@code /proc/locks}</b> otherwise (Linux): read, never locked. It lists the locks of the processes visible
 *       in this pid namespace only, so it names a holder when it can and is never authoritative: a lock of a process
 *       in another pid namespace is not listed. This process's own traditional locks are skipped.</li>
 * </ul>
 * Elsewhere nothing is learnt: a holder is then "another process" and unnamed.
 *
 * <h2>The descriptor</h2>
 * The FFM way needs a descriptor of the file, which a {@link java.nio.channels.FileChannel} does not give: a
 * {@link Probe} opens one of its own ({@code O_RDONLY | O_NOFOLLOW | O_CLOEXEC}). POSIX locks belong to the process and
 * closing <em>any</em> descriptor of a file drops all of the process's locks on it, so a probe must be closed only when
 * the process gives up its locks on the file anyway (with the channel that holds them), or when it holds none.
 *
 * <p>Thread-safe: a probe's queries may run concurrently; {@link Probe#close()} must not race them.
 */
public final class FileLocks {
    /** Linux's {@code F_OFD_GETLK}, the same on every architecture. */
    private static final int F_OFD_GETLK = 36;
    private static final short F_RDLCK = 0;
    private static final short F_WRLCK = 1;
    private static final short F_UNLCK = 2;
    /** {@code struct flock} on 64-bit Linux: l_type, l_whence (shorts), l_start, l_len (off_t), l_pid (pid_t). */
    private static final long FLOCK_SIZE = 32;
    private static final long L_TYPE = 0;
    private static final long L_WHENCE = 2;
    private static final long L_START = 8;
    private static final long L_LEN = 16;
    private static final long L_PID = 24;

    /** The pid of a holder this process cannot learn. */
    public static final long UNKNOWN_PID = Long.MIN_VALUE;

    private static final long OWN_PID = ProcessHandle.current().pid();
    private static final Native NATIVE = Native.load();

    private FileLocks() {
    }

    /** {@return whether queries are answered by the kernel through {@code F_OFD_GETLK}, authoritatively} */
    public static boolean kernelQueries() {
        return NATIVE != null;
    }

    /**
     * A lock that another process (or another open file description) holds over part of a file.
     *
     * @param exclusive whether it is a write (exclusive) lock; false: a read (shared) lock
     * @param pid       its holder's pid in this pid namespace; 0: a process this namespace does not see; -1: an open
     *                  file description lock, whose holder is not reported; {@link #UNKNOWN_PID}: not learnt
     * @param start     the first byte it covers
     * @param end       the byte after the last it covers; {@link Long#MAX_VALUE}: to the end of the file and beyond
     */
    public record Holder(boolean exclusive, long pid, long start, long end) {
        /** A held lock of which nothing is known but that it is held (no way to ask was available). */
        public static Holder unknown(boolean exclusive, long start, long length) {
            return new Holder(exclusive, UNKNOWN_PID, start, start + length);
        }

        /** {@return the holder, for messages: "pid 4242", or what the kernel says instead of a pid} */
        public String who() {
            if (pid > 0) {
                return "pid " + pid;
            }
            if (pid == 0) {
                return "a process of another pid namespace (the kernel names no pid for it here)";
            }
            if (pid == -1) {
                return "an open file description lock (the kernel does not report its holder's pid)";
            }
            return "another process (its pid cannot be learnt here" + (kernelQueries() ? ""
                    : "; lslocks or /proc/locks may name it, or enable native access for io.blit.queue") + ")";
        }

        /** {@return the lock, for messages: "a shared lock of bytes [16, 24) held by pid 4242"} */
        public String describe() {
            return (exclusive ? "an exclusive" : "a shared") + " lock of bytes [" + start + ", "
                    + (end == Long.MAX_VALUE ? "end of file" : Long.toString(end)) + ") held by " + who();
        }
    }

    /**
     * Opens a probe of {@code file}: a descriptor of its own where the kernel is asked (see the class comment on
     * closing it), else the file's device and inode for {@code /proc/locks}. Never fails: a file that cannot be
     * opened or identified gives a probe that learns nothing.
     */
    public static Probe probe(Path file) {
        int fd = -1;
        if (NATIVE != null) {
            fd = NATIVE.open(file);
        }
        long dev = -1;
        long ino = -1;
        if (fd < 0) {
            try {
                dev = (Long) Files.getAttribute(file, "unix:dev", LinkOption.NOFOLLOW_LINKS);
                ino = (Long) Files.getAttribute(file, "unix:ino", LinkOption.NOFOLLOW_LINKS);
            } catch (IOException | RuntimeException e) {
                // no unix view, or the file is gone: nothing to match in /proc/locks
            }
        }
        return new Probe(fd, dev, ino);
    }

    /** A way to ask who holds locks of one file. */
    public static final class Probe implements AutoCloseable {
        private final int fd;
        private final long dev;
        private final long ino;

        private Probe(int fd, long dev, long ino) {
            this.fd = fd;
            this.dev = dev;
            this.ino = ino;
        }

        /** {@return whether {@link #holder} is authoritative: no holder reported means none is held} */
        public boolean authoritative() {
            return fd >= 0;
        }

        /**
         * {@return a lock another owner holds over bytes [{@code start}, {@code start + length}) of the file
         * ({@code length} 0: to its end and beyond), or null if none is known} Where several are listed, an exclusive
         * one is preferred. Null is proof that none is held only when the probe is {@link #authoritative()}.
         *
         * @throws IOException if the kernel was asked and failed to answer (never for {@code /proc/locks}: a file that
         *                     cannot be read there just names nobody)
         */
        public Holder holder(long start, long length) throws IOException {
            if (fd >= 0) {
                return NATIVE.query(fd, start, length);
            }
            return dev < 0 ? null : fromProcLocks(dev, ino, start, length);
        }

        /** {@link #holder}, or null if the kernel failed to answer: for messages, which name what can be learnt. */
        public Holder holderIfKnown(long start, long length) {
            try {
                return holder(start, length);
            } catch (IOException e) {
                return null;
            }
        }

        /** Closes the probe's descriptor, if it has one: only when the process holds no lock of the file it keeps. */
        @Override
        public void close() {
            if (fd >= 0) {
                NATIVE.close(fd);
            }
        }
    }

    /** The lock {@code /proc/locks} lists over the range, of another process visible here; null if none is listed. */
    static Holder fromProcLocks(long dev, long ino, long start, long length) {
        List<String> lines;
        try {
            lines = Files.readAllLines(Path.of("/proc/locks"), StandardCharsets.US_ASCII);
        } catch (IOException | RuntimeException e) {
            return null;
        }
        long major = ((dev >>> 8) & 0xfffL) | ((dev >>> 32) & 0xfffff000L);
        long minor = (dev & 0xffL) | ((dev >>> 12) & 0xffffff00L);
        String file = String.format(Locale.ROOT, "%02x:%02x:%d", major, minor, ino);
        long end = length == 0 ? Long.MAX_VALUE : start + length;
        Holder found = null;
        for (String line : lines) {
            Holder holder = parse(line, file);
            if (holder != null && holder.start() < end && start < holder.end()
                    && (found == null || holder.exclusive() && !found.exclusive())) {
                found = holder;
            }
        }
        return found;
    }

    /**
     * One line of {@code /proc/locks} ({@code 5: POSIX  ADVISORY  READ 19541 fe:00:9978437 16 23}) as a holder, if it
     * is a granted POSIX or open file description lock of {@code file} held by another process; else null.
     */
    static Holder parse(String line, String file) {
        String[] f = line.trim().split("\\s+");
        if (f.length < 8 || f[1].equals("->") || !(f[1].equals("POSIX") || f[1].equals("OFDLCK"))
                || !f[5].equals(file)) {
            return null; // a waiter, a flock() lock (they do not conflict with record locks), a lease, another file
        }
        try {
            long pid = Long.parseLong(f[4]);
            if (f[1].equals("POSIX") && pid == OWN_PID) {
                return null; // this process's own: never a conflict for it
            }
            long start = Long.parseLong(f[6]);
            long end = f[7].equals("EOF") ? Long.MAX_VALUE : Long.parseLong(f[7]) + 1;
            return new Holder(f[3].equals("WRITE"), f[1].equals("OFDLCK") ? -1 : pid, start, end);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The downcalls, if this platform has them and native access is enabled; else never loaded. */
    private static final class Native {
        private final MethodHandle open;
        private final MethodHandle fcntl;
        private final MethodHandle close;
        private final int openFlags;

        private Native(MethodHandle open, MethodHandle fcntl, MethodHandle close, int openFlags) {
            this.open = open;
            this.fcntl = fcntl;
            this.close = close;
            this.openFlags = openFlags;
        }

        /** The downcalls, or null: not Linux on x86-64 or AArch64, native access not enabled, or a lookup failed. */
        static Native load() {
            String os = System.getProperty("os.name", "");
            String arch = System.getProperty("os.arch", "");
            int noFollow;
            if (arch.equals("amd64") || arch.equals("x86_64")) {
                noFollow = 0x20000; // O_NOFOLLOW, 0400000
            } else if (arch.equals("aarch64")) {
                noFollow = 0x8000; // O_NOFOLLOW, 0100000
            } else {
                return null;
            }
            if (!os.equals("Linux") || !FileLocks.class.getModule().isNativeAccessEnabled()
                    || Boolean.getBoolean("blit.queue.noNativeLocks")) {
                return null;
            }
            try {
                Linker linker = Linker.nativeLinker();
                SymbolLookup libc = linker.defaultLookup();
                MethodHandle open = linker.downcallHandle(libc.find("open").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT,
                                ValueLayout.JAVA_INT), Linker.Option.firstVariadicArg(2));
                MethodHandle fcntl = linker.downcallHandle(libc.find("fcntl").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                                ValueLayout.ADDRESS), Linker.Option.firstVariadicArg(2));
                MethodHandle close = linker.downcallHandle(libc.find("close").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
                return new Native(open, fcntl, close, noFollow | 0x80000 /* O_CLOEXEC */);
            } catch (RuntimeException | LinkageError e) {
                return null;
            }
        }

        /** {@code open(file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)}: a descriptor, or -1. */
        int open(Path file) {
            try (Arena arena = Arena.ofConfined()) {
                return (int) open.invokeExact(arena.allocateFrom(file.toString()), openFlags, 0);
            } catch (Throwable e) {
                return -1;
            }
        }

        /** {@code fcntl(fd, F_OFD_GETLK)} for a write lock of the range: the conflicting lock, null if none. */
        Holder query(int fd, long start, long length) throws IOException {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment flock = arena.allocate(FLOCK_SIZE, 8);
                flock.set(ValueLayout.JAVA_SHORT, L_TYPE, F_WRLCK);
                flock.set(ValueLayout.JAVA_SHORT, L_WHENCE, (short) 0); // SEEK_SET
                flock.set(ValueLayout.JAVA_LONG, L_START, start);
                flock.set(ValueLayout.JAVA_LONG, L_LEN, length);
                flock.set(ValueLayout.JAVA_INT, L_PID, 0); // F_OFD_GETLK requires 0
                int result = (int) fcntl.invokeExact(fd, F_OFD_GETLK, flock);
                short type = flock.get(ValueLayout.JAVA_SHORT, L_TYPE);
                if (result != 0 || type != F_UNLCK && type != F_RDLCK && type != F_WRLCK) {
                    throw new IOException("fcntl(F_OFD_GETLK) of bytes [" + start + ", +" + length + ") returned "
                            + result + ", lock type " + type);
                }
                if (type == F_UNLCK) {
                    return null;
                }
                long from = flock.get(ValueLayout.JAVA_LONG, L_START);
                long len = flock.get(ValueLayout.JAVA_LONG, L_LEN);
                return new Holder(type == F_WRLCK, flock.get(ValueLayout.JAVA_INT, L_PID), from,
                        len == 0 ? Long.MAX_VALUE : from + len);
            } catch (IOException | RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new IOException("fcntl(F_OFD_GETLK) failed", e);
            }
        }

        void close(int fd) {
            try {
                int ignored = (int) close.invokeExact(fd);
            } catch (Throwable e) {
                // the descriptor is gone either way
            }
        }
    }
}
