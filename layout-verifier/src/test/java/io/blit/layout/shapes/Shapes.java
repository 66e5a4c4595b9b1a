package io.blit.layout.shapes;

import java.util.List;

/**
 * Trivially copyable class shapes shared by the layout tests and, through the test jar, by the core
 * tests: every primitive type, mixed sizes, subclass fields that fill superclass holes, three-level
 * hierarchies, a single byte, 216 fields. Fields are public so that tests can fill them reflectively.
 */
@SuppressWarnings("unused")
public final class Shapes {
    private Shapes() {
    }

    public static final class OneBoolean { public boolean a; }
    public static final class OneByte { public byte a; }
    public static final class OneChar { public char a; }
    public static final class OneShort { public short a; }
    public static final class OneInt { public int a; }
    public static final class OneFloat { public float a; }
    public static final class OneLong { public long a; }
    public static final class OneDouble { public double a; }

    public static final class AllPrimitives {
        public boolean z; public byte b; public char c; public short s; public int i; public float f; public long l; public double d;
    }

    public static final class AllPrimitivesReversed {
        public double d; public long l; public float f; public int i; public short s; public char c; public byte b; public boolean z;
    }

    /** The documented example whose order changes with compact object headers (docs/layout-verifier.md). */
    public static final class LongDoubleIntByte { public long a; public double b; public int c; public byte d; }

    /** P: a hole after x that subclass fields fill. */
    public static class ByteLong { public byte x; public long y; }

    /** Q: x@12 z@13 w@14 y@16 v@24 by default. */
    public static final class FillsSuperclassHoles extends ByteLong { public byte z; public short w; public int v; }

    public static class LevelOne { public int a; }
    public static class LevelTwo extends LevelOne { public long b; public byte c; }
    public static final class LevelThree extends LevelTwo { public short d; public double e; public boolean f; }

    public static class HoleyOne { public byte a; public long b; }
    public static class HoleyTwo extends HoleyOne { public byte c; public int d; }
    public static final class HoleyThree extends HoleyTwo { public byte e; public short f; public char g; }

    /** The reference message MarketData: 2 longs + 16 doubles, 144 bytes. */
    public static final class MarketDataShape {
        public long securityId, time;
        public double bidQty0, bidQty1, bidQty2, bidQty3, askQty0, askQty1, askQty2, askQty3;
        public double bidPrice0, bidPrice1, bidPrice2, bidPrice3, askPrice0, askPrice1, askPrice2, askPrice3;
    }

    public static final class ThreeBytes { public byte a, b, c; }
    public static final class ThreeShorts { public short a, b, c; }
    public static final class ThreeInts { public int a, b, c; }
    public static final class NineBooleans { public boolean a, b, c, d, e, f, g, h, i; }
    public static final class SmallMix { public byte a; public short b; public char c; public boolean d; }
    public static final class LongThenBytes { public long a; public byte b, c, d; }
    public static final class IntThenLong { public int a; public long b; }
    public static final class FloatDoubleChar { public float a; public double b; public char c; }
    public static final class IntFloatShort { public int a; public float b; public short c; }

    public static class NoFieldsBase { }
    public static final class FieldsUnderEmptyBase extends NoFieldsBase { public long a; public int b; }

    public static class FieldsOnlyInBase { public int a; public long b; }
    public static final class NoFieldsOfItsOwn extends FieldsOnlyInBase { }

    public static final class VolatileAndTransient { public volatile long a; public transient int b; public byte c; }

    public static final class StaticsIgnored {
        public static Object reference = new Object();
        public static long counter;
        public int a;
    }

    public static final class PrivateFields {
        private long a;
        private char b;
    }

    public abstract static class AbstractBase { public long a; public short b; }
    public static final class ConcreteOfAbstract extends AbstractBase { public byte c; public int d; }

    public static final class OddTail { public long a; public int b; public short c; public byte d; }

    /** Every shape, for tests that run over all of them (at least 30, as the layout tests require). */
    public static final List<Class<?>> ALL = List.of(
            OneBoolean.class, OneByte.class, OneChar.class, OneShort.class,
            OneInt.class, OneFloat.class, OneLong.class, OneDouble.class,
            AllPrimitives.class, AllPrimitivesReversed.class, LongDoubleIntByte.class,
            ByteLong.class, FillsSuperclassHoles.class,
            LevelOne.class, LevelTwo.class, LevelThree.class,
            HoleyOne.class, HoleyTwo.class, HoleyThree.class,
            MarketDataShape.class, ThreeBytes.class, ThreeShorts.class, ThreeInts.class, NineBooleans.class,
            SmallMix.class, LongThenBytes.class, IntThenLong.class, FloatDoubleChar.class, IntFloatShort.class,
            FieldsUnderEmptyBase.class, NoFieldsOfItsOwn.class, VolatileAndTransient.class, StaticsIgnored.class,
            PrivateFields.class, AbstractBase.class, ConcreteOfAbstract.class, OddTail.class, Wide216.class);

    /** The shapes that can be instantiated (all but the abstract ones). */
    public static List<Class<?>> concrete() {
        return ALL.stream().filter(c -> !java.lang.reflect.Modifier.isAbstract(c.getModifiers())).toList();
    }
}
