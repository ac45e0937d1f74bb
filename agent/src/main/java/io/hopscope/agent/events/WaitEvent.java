package io.hopscope.agent.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** A blocking wait that really blocked. */
@Name("hopscope.Wait")
@Label("Wait")
@Description("A blocking wait that really blocked.")
@Category("hopscope")
@StackTrace(false)
public final class WaitEvent extends Event {

    @Label("Request Id")
    @Description("The request the waiting thread worked on, or 0.")
    public long requestId;

    @Label("Kind")
    @Description("Mono.block, Flux.blockFirst, Flux.blockLast, CompletableFuture.get, CompletableFuture.join or FutureTask.get.")
    public String kind;

    @Label("Waker Thread")
    @Description("The thread that completed what was waited on, or null if not seen.")
    public Thread wakerThread;

    @Label("Wake Latency Nanos")
    @Description("From the completing signal to the waiter running again, or -1.")
    public long wakeLatencyNanos;

    @Label("Non-Blocking Thread")
    @Description("The waiter is a Netty event loop or a Reactor NonBlocking thread.")
    public boolean nonBlockingThread;

    @Label("Outcome")
    @Description("value, error, timeout or interrupted.")
    public String outcome;
}
