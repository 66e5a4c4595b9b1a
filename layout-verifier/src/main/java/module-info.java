/**
 * Blit's layout verifier: decides whether a class is <em>trivially copyable</em> (every instance
 * field in its whole hierarchy is a primitive) and computes where its field block lies inside a heap
 * object, see {@link io.blit.layout.LayoutVerifier}.
 *
 * <p>{@code io.blit.layout.internal} holds the one privileged accessor of the project and is exported
 * only to {@code io.blit.core}.
 */
module io.blit.layout {
    requires jdk.unsupported;
    requires jdk.management;

    exports io.blit.layout;
    exports io.blit.layout.internal to io.blit.core;
}
