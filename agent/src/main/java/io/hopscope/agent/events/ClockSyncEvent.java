package io.hopscope.agent.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;

/** Maps the recording's time to System.nanoTime (CLOCK_MONOTONIC). */
@Name("hopscope.ClockSync")
@Label("Clock Sync")
@Description("Maps the recording's time to System.nanoTime (CLOCK_MONOTONIC).")
@Category("hopscope")
@StackTrace(false)
@Period("1 s")
public final class ClockSyncEvent extends Event {

    @Label("Monotonic Nanos")
    @Description("System.nanoTime() read at the event's start time.")
    public long monotonicNanos;
}
