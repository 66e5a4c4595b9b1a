package io.blit.layout.baseline;

import io.blit.layout.FieldDescriptor;
import io.blit.layout.LayoutComparison;
import io.blit.layout.LayoutDescriptor;
import io.blit.layout.LayoutDifference;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * The outcome of checking measured layouts against a recorded {@link Baseline}: every class whose
 * layout changed in some mode (each changed field with its old and new offset and type), every class
 * measured but not recorded, every recorded class no longer found, and every class that is not
 * trivially copyable at all. "Old" is the baseline, "new" the layout measured now.
 *
 * <p>Immutable and thread-safe.
 *
 * @param findings every problem, in the order of the measured, then the recorded entries; empty when the check passed
 */
public record BaselineCheck(List<Finding> findings) {

    /**
     * Copies the findings.
     *
     * @throws NullPointerException if the list or a finding is null
     */
    public BaselineCheck {
        findings = List.copyOf(findings);
    }

    /** One problem found by a check; {@link #describe()} is its text in {@link #report}. */
    public sealed interface Finding {
        /** {@return the class it concerns} */
        String className();

        /** {@return one or more lines, the first naming class and mode} */
        String describe();
    }

    /**
     * A class whose layout in {@code recorded.mode()} differs from the baseline.
     *
     * @param recorded the baseline's entry (old)
     * @param measured the entry measured now (new)
     * @param details  each difference, field by field
     */
    public record Changed(BaselineEntry recorded, BaselineEntry measured, List<String> details) implements Finding {
        /**
         * Copies the details.
         *
         * @throws NullPointerException if the list or a detail is null
         */
        public Changed {
            details = List.copyOf(details);
        }

        @Override
        public String className() {
            return measured.className();
        }

        @Override
        public String describe() {
            StringBuilder out = new StringBuilder(measured + ": layout changed (fingerprint " + recorded.layout().fingerprint()
                    + " -> " + measured.layout().fingerprint() + ")");
            for (String detail : details) {
                out.append("\n    - ").append(detail);
            }
            return out.toString();
        }
    }

    /**
     * A class measured in a mode for which the baseline has no entry.
     *
     * @param measured the entry measured now
     */
    public record Added(BaselineEntry measured) implements Finding {
        @Override
        public String className() {
            return measured.className();
        }

        @Override
        public String describe() {
            return measured + ": not in the baseline (a new class, or a mode not recorded yet), fingerprint "
                    + measured.layout().fingerprint();
        }
    }

    /**
     * A class the baseline records in a checked mode that was not found.
     *
     * @param recorded the baseline's entry
     */
    public record Removed(BaselineEntry recorded) implements Finding {
        @Override
        public String className() {
            return recorded.className();
        }

        @Override
        public String describe() {
            return recorded + ": in the baseline but not found on the class path (removed or renamed?)";
        }
    }

    /**
     * A class that should be checked but has no layout: the verifier refused it.
     *
     * @param className the binary name of the class
     * @param mode      the JVM mode it was measured in
     * @param message   the verifier's reason
     */
    public record NotTriviallyCopyable(String className, JvmMode mode, String message) implements Finding {
        /**
         * Checks the components.
         *
         * @throws NullPointerException if a component is null
         */
        public NotTriviallyCopyable {
            Objects.requireNonNull(className, "className");
            Objects.requireNonNull(mode, "mode");
            Objects.requireNonNull(message, "message");
        }

        @Override
        public String describe() {
            return className + " [" + mode.id() + "]: " + message;
        }
    }

    /**
     * A class whose layout differs between modes that must interoperate: a block written in one of
     * them would be read wrongly in another by a bulk copy.
     *
     * @param className the binary name of the class
     * @param entries   the class's entry in each of those modes
     * @param details   per mode that differs from the first, the differences as a reader in that mode sees them
     */
    public record ModesDiffer(String className, List<BaselineEntry> entries, List<String> details) implements Finding {
        /**
         * Copies the lists.
         *
         * @throws NullPointerException if the class name, a list or an element is null
         */
        public ModesDiffer {
            Objects.requireNonNull(className, "className");
            entries = List.copyOf(entries);
            details = List.copyOf(details);
        }

        @Override
        public String describe() {
            StringBuilder out = new StringBuilder(className + ": layout differs between modes that must interoperate:");
            for (BaselineEntry entry : entries) {
                out.append(' ').append(entry.mode().id()).append('=').append(entry.layout().fingerprint());
            }
            for (String detail : details) {
                out.append("\n    - ").append(detail);
            }
            return out.toString();
        }
    }

    /**
     * A {@link ModesDiffer} for every class of {@code measured} whose fingerprint is not the same in
     * all of {@code mustShare}; classes measured in fewer than two of those modes are skipped.
     *
     * @param measured  the layouts measured now, in any modes
     * @param mustShare the modes whose layouts must be identical; the first of them measured is the one the others
     *                  are compared with
     * @return one finding per class that differs, in the order of {@code measured}
     */
    public static List<ModesDiffer> interoperability(Baseline measured, List<JvmMode> mustShare) {
        List<ModesDiffer> findings = new ArrayList<>();
        List<String> classNames = measured.entries().stream().map(BaselineEntry::className).distinct().toList();
        for (String className : classNames) {
            List<BaselineEntry> entries = new ArrayList<>();
            for (JvmMode mode : mustShare) {
                measured.entry(className, mode).ifPresent(entries::add);
            }
            if (entries.size() < 2) {
                continue;
            }
            BaselineEntry first = entries.getFirst();
            List<String> details = new ArrayList<>();
            for (BaselineEntry other : entries.subList(1, entries.size())) {
                LayoutComparison comparison = LayoutComparison.of(first.layout(), other.layout());
                for (LayoutDifference difference : comparison.differences()) {
                    details.add("written in " + first.mode().id() + ", read in " + other.mode().id() + ": " + difference);
                }
            }
            if (!details.isEmpty()) {
                findings.add(new ModesDiffer(className, entries, details));
            }
        }
        return findings;
    }

    /**
     * Compares {@code measured} with the entries of {@code recorded} that are in {@code scope}: a
     * measured entry is always checked; a recorded entry outside the scope (another mode, a class
     * this check was not asked about) is ignored.
     *
     * @param recorded the baseline
     * @param measured the layouts measured now
     * @param scope    the recorded entries that must have been measured (the others are not reported as removed)
     * @return the check, with a finding per changed, added and removed entry
     */
    public static BaselineCheck compare(Baseline recorded, Baseline measured, Predicate<BaselineEntry> scope) {
        List<Finding> findings = new ArrayList<>();
        for (BaselineEntry now : measured.entries()) {
            recorded.entry(now.className(), now.mode()).ifPresentOrElse(
                    old -> {
                        if (!old.sameLayout(now)) {
                            findings.add(new Changed(old, now, details(old.layout(), now.layout())));
                        }
                    },
                    () -> findings.add(new Added(now)));
        }
        for (BaselineEntry old : recorded.entries()) {
            if (scope.test(old) && measured.entry(old.className(), old.mode()).isEmpty()) {
                findings.add(new Removed(old));
            }
        }
        return new BaselineCheck(findings);
    }

    /**
     * {@return this check with more findings after its own}
     *
     * @param more the findings to add
     */
    public BaselineCheck with(List<? extends Finding> more) {
        List<Finding> all = new ArrayList<>(findings);
        all.addAll(more);
        return new BaselineCheck(all);
    }

    /** {@return true when nothing was found} */
    public boolean passed() {
        return findings.isEmpty();
    }

    /**
     * A multi-line report: a line naming the baseline and the number of problems, each problem, and
     * the command that re-records the baseline.
     *
     * @param baselineName  names the baseline, e.g. its path
     * @param reRecordHint  the exact command (or instruction) that re-records it
     * @return the report; a single line saying all layouts match when the check passed
     */
    public String report(String baselineName, String reRecordHint) {
        if (passed()) {
            return "layout baseline " + baselineName + ": all layouts match";
        }
        StringBuilder out = new StringBuilder("layout baseline " + baselineName + " does not match: " + findings.size()
                + (findings.size() == 1 ? " problem" : " problems"));
        for (Finding finding : findings) {
            out.append("\n  ").append(finding.describe());
        }
        out.append("\nIf these changes are intended (and no stored data needs the old layout), re-record the baseline:\n  ")
                .append(reRecordHint);
        return out.toString();
    }

    /** Old (recorded) versus new (measured) layout, one line per change, fields by name. */
    private static List<String> details(LayoutDescriptor old, LayoutDescriptor now) {
        List<String> details = new ArrayList<>();
        if (old.start() != now.start()) {
            details.add("block start changed from @" + old.start() + " to @" + now.start());
        }
        for (LayoutDifference difference : LayoutComparison.of(old, now).differences()) {
            details.add(switch (difference) {
                case LayoutDifference.OffsetChanged d -> "field '" + d.field() + "' moved from @" + (old.start() + d.writerRelativeOffset())
                        + " to @" + (now.start() + d.readerRelativeOffset()) + " (block-relative +" + d.writerRelativeOffset()
                        + " -> +" + d.readerRelativeOffset() + ")";
                case LayoutDifference.TypeChanged d -> "field '" + d.field() + "' type changed from " + d.writerType().keyword()
                        + " @" + old.field(d.field()).offset() + " to " + d.readerType().keyword() + " @" + now.field(d.field()).offset();
                case LayoutDifference.MissingInReader d -> "field '" + d.writerField().name() + "' (" + d.writerField().type().keyword()
                        + " @" + d.writerField().offset() + ") was removed";
                case LayoutDifference.ExtraInReader d -> "field '" + d.readerField().name() + "' (" + d.readerField().type().keyword()
                        + " @" + d.readerField().offset() + ") was added";
                case LayoutDifference.LengthChanged d -> "block length changed from " + d.writerLength() + " to " + d.readerLength();
            });
        }
        for (FieldDescriptor was : old.fields()) {
            for (FieldDescriptor is : now.fields()) {
                if (was.name().equals(is.name()) && !was.declaringClassName().equals(is.declaringClassName())) {
                    details.add("field '" + was.name() + "' declared in " + was.declaringClassName() + " before, now in "
                            + is.declaringClassName());
                }
            }
        }
        List<String> oldOrder = commonNamesByOffset(old, now);
        List<String> newOrder = commonNamesByOffset(now, old);
        if (!oldOrder.equals(newOrder)) {
            // Only the stretch that changed: a class of 200 fields with two swapped gives a short line.
            int first = 0;
            while (oldOrder.get(first).equals(newOrder.get(first))) {
                first++;
            }
            int last = oldOrder.size() - 1;
            while (oldOrder.get(last).equals(newOrder.get(last))) {
                last--;
            }
            details.add("field order changed from " + String.join(", ", oldOrder.subList(first, last + 1)) + " to "
                    + String.join(", ", newOrder.subList(first, last + 1)));
        }
        return details;
    }

    /** The names of {@code layout}'s fields that {@code other} also has, by offset in {@code layout}. */
    private static List<String> commonNamesByOffset(LayoutDescriptor layout, LayoutDescriptor other) {
        List<String> names = new ArrayList<>();
        for (FieldDescriptor field : layout.fields()) {
            if (other.fields().stream().anyMatch(f -> f.name().equals(field.name()))) {
                names.add(field.name());
            }
        }
        return names;
    }
}
