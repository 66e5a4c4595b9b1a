package example;

import io.blit.core.TriviallyCopyable;

/** Mixed sizes: with a 12-byte header the int goes first (@12), with an 8-byte header the long does. */
public class Mixed extends TriviallyCopyable {
    long time;
    int count;
}
