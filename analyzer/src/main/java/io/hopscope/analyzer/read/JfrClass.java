package io.hopscope.analyzer.read;

/** A class of a recording's constant pool, as {@code RecordedClass} gives it. */
public interface JfrClass {

    /** The class's name as JFR writes it ({@code java.lang.String}, {@code [B}); null when absent. */
    String name();
}
