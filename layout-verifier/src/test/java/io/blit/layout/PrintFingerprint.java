package io.blit.layout;

import io.blit.layout.shapes.Shapes;

/**
 * Main class run in forked JVMs: verifies one class (the name in {@code args[0]}, else
 * {@link Shapes.MarketDataShape}) and prints its fingerprint as the only line on stdout. If the
 * verification throws, prints {@code failed: } and the exception chain, outermost first, as
 * {@code ClassName: message} joined by {@code " <- caused by "}, and exits with status 3.
 */
public final class PrintFingerprint {
    /** Exit status when {@link LayoutVerifier#verify(Class)} throws. */
    public static final int VERIFY_FAILED = 3;

    private PrintFingerprint() {
    }

    public static void main(String[] args) throws ClassNotFoundException {
        Class<?> type = args.length == 0 ? Shapes.MarketDataShape.class : Class.forName(args[0]);
        try {
            System.out.println(LayoutVerifier.verify(type).fingerprint());
        } catch (RuntimeException | Error e) {
            StringBuilder chain = new StringBuilder("failed: ");
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t != e) {
                    chain.append(" <- caused by ");
                }
                chain.append(t.getClass().getName()).append(": ").append(t.getMessage());
            }
            System.out.println(chain);
            System.exit(VERIFY_FAILED);
        }
    }
}
