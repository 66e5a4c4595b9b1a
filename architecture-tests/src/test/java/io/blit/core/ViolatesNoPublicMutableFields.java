package io.blit.core;

/**
 * Fixture violating "no public mutable fields in exported packages": it sits in the exported package
 * io.blit.core (of the test sources only) and has a public non-final field.
 */
public final class ViolatesNoPublicMutableFields {
    public long counter;
}
