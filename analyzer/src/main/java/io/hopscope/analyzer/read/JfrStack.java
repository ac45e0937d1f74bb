package io.hopscope.analyzer.read;

import java.util.List;

/** A stack trace of a recording's constant pool, as {@code RecordedStackTrace} gives it; decoded on first use. */
public interface JfrStack {

    boolean isTruncated();

    /** Top frame first. */
    List<JfrFrame> frames();
}
