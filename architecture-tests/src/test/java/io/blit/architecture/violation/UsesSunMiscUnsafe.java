package io.blit.architecture.violation;

/** Fixture violating "only UnsafeAccess uses sun.misc.Unsafe": names the class outside UnsafeAccess. */
public final class UsesSunMiscUnsafe {
    private UsesSunMiscUnsafe() {
    }

    public static Class<?> unsafeClass() {
        return sun.misc.Unsafe.class;
    }
}
