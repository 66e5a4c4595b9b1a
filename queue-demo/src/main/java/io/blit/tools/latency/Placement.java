package io.blit.tools.latency;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the harness knows about where a run ran, printed beside each table so that a reader can see why two machines
 * differ: the CPU model, the kernel's clock source (what {@link System#nanoTime()} reads: {@code tsc} is a register
 * read, {@code kvm-clock} or {@code hpet} cost more and may differ between cores), and the CPUs each side's thread was
 * seen on — sampled from {@code /proc/thread-self/stat} (field 39, the CPU the thread last ran on) before and after its
 * loop and every 65,536 messages, right after a message is handled (a read costs a few microseconds). Linux only;
 * elsewhere each item reads "unknown". Thread-safe.
 */
public final class Placement {
    /** Messages between two samples: {@code (sequence & MASK) == 0}. */
    static final long SAMPLE_MASK = 0xFFFF;
    private static final Map<String, BitSet> SEEN = new ConcurrentHashMap<>();
    private static final Path STAT = Path.of("/proc/thread-self/stat");

    private Placement() {
    }

    /** Records the CPU the calling thread runs on as one that {@code side} ran on. */
    static void sample(String side) {
        int cpu = currentCpu();
        if (cpu >= 0) {
            BitSet cpus = SEEN.computeIfAbsent(side, s -> new BitSet());
            synchronized (cpus) {
                cpus.set(cpu);
            }
        }
    }

    /** The CPUs {@code side} was seen on since the last call for it ("0,1"), or "unknown"; forgets them. */
    static String takeCpus(String side) {
        BitSet cpus = SEEN.remove(side);
        if (cpus == null) {
            return "unknown";
        }
        synchronized (cpus) {
            return cpus.isEmpty() ? "unknown" : cpus.stream().mapToObj(Integer::toString)
                    .reduce((a, b) -> a + "," + b).orElse("unknown");
        }
    }

    /** The CPU the calling thread last ran on, or -1 if this system does not say. */
    static int currentCpu() {
        try {
            String stat = Files.readString(STAT);
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Integer.parseInt(fields[39 - 3]); // fields[0] is field 3 (state)
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The CPU model ({@code /proc/cpuinfo}'s first "model name"), or "unknown CPU". */
    public static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).strip();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return "unknown CPU";
    }

    /** The kernel's current clock source, or "unknown". */
    public static String clockSource() {
        try {
            return Files.readString(Path.of("/sys/devices/system/clocksource/clocksource0/current_clocksource")).strip();
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    /** One line: CPU model, clock source, and the CPUs each side ran on. */
    static String describe(String producerCpus, String consumerCpus) {
        return "placement: " + cpuModel() + ", clocksource " + clockSource() + "; producer ran on CPU(s) " + producerCpus
                + ", consumer on CPU(s) " + consumerCpus;
    }
}
