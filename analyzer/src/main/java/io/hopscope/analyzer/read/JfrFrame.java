package io.hopscope.analyzer.read;

/** One frame of a {@link JfrStack}, as {@code RecordedFrame} and its method give it. */
public interface JfrFrame {

    /** Whether the frame has a method (JFR may write none). */
    boolean hasMethod();

    /** The method's class name, or null when the method has no class (or there is no method). */
    String typeName();

    /** The method's name, or null. */
    String methodName();

    /** The line number, -1 when absent (as {@code RecordedFrame#getLineNumber}). */
    int lineNumber();
}
