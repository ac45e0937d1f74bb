package io.hopscope.agent.runtime;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.events.HopEvent;
import io.hopscope.agent.events.MountsEvent;
import io.hopscope.agent.events.NonBlockingWaitEvent;
import io.hopscope.agent.events.RequestEvent;
import io.hopscope.agent.events.RequestStartEvent;
import io.hopscope.agent.events.SegmentEvent;
import io.hopscope.agent.events.SpanEvent;
import io.hopscope.agent.events.WaitEvent;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The agent's runtime, assembled: the parts that do the work ({@link Handoffs}, {@link Carriers},
 * {@link Requests}, {@link Servers}, {@link Spans}, {@link Waits}), each implementing its hook interface itself, which
 * {@link #install} puts behind the {@link Bridge} that advice calls. The instrumentations register
 * their libraries' helpers here at install time. Every hook runs on an application thread, and
 * nothing is allocated where no request is current.
 */
public final class HopscopeRuntime {

    private final LibraryRules rules = new LibraryRules();
    private final List<AsyncAdapter> adapters = new CopyOnWriteArrayList<>();
    private final Carriers carriers = new Carriers();
    private final Handoffs handoffs = new Handoffs(rules, carriers);
    private final Requests requests;
    private final Servers servers;
    private final Spans spans = new Spans(adapters);
    private final Waits waits = new Waits(rules);

    public HopscopeRuntime(UrlRedactor redactor, boolean cpuTime, int spanEvery) {
        this.requests = new Requests(adapters, redactor, spanEvery, carriers);
        this.servers = new Servers(requests, handoffs, redactor);
        ThreadMeter.wantCpuTime(cpuTime);
    }

    // ---------------------------------------------------------------- registration

    public void addDescriber(RequestDescriber describer) {
        requests.addDescriber(describer);
    }

    /** A server library's describer of its exchanges (inbound requests). */
    public void addServerDescriber(ServerDescriber describer) {
        servers.addDescriber(describer);
    }

    /** A framework's describer of the routes of its handlers (JAX-RS resource methods). */
    public void addRouteDescriber(RouteDescriber describer) {
        servers.addRouteDescriber(describer);
    }

    public void addAdapter(AsyncAdapter adapter) {
        adapters.add(adapter);
    }

    /**
     * Adds a function that gives attachContext's keys the key they are remembered by (null: not
     * its kind of key): the JDK HttpClient's socket events are remembered by their channel.
     */
    public void addContextKey(Function<Object, Object> keyOf) {
        handoffs.addContextKey(keyOf);
    }

    /** The libraries' rules (thread classes, housekeeping tasks, wait kinds, timeouts), to add to. */
    public LibraryRules rules() {
        return rules;
    }

    /** How to read the current virtual thread's carrier (Thread.currentCarrierThread), or null. */
    public void readCurrentCarrier(Supplier<Thread> carrier) {
        carriers.readCurrentCarrier(carrier);
    }

    /** How to read a platform thread's Runnable, or null where it cannot be read (see Handoffs#attachThread). */
    public void readThreadTargets(Function<Thread, Object> targetOf) {
        handoffs.readThreadTargets(targetOf);
    }

    // ---------------------------------------------------------------- installing, self-check, warm-up

    /**
     * Puts the parts behind the Bridge: from here on advice reaches them. Errors first, so that a
     * hook that fails as soon as its part is in place is reported.
     */
    public void install() {
        Bridge.errors = AgentErrors.FOR_HOOKS;
        Bridge.handoffs = handoffs;
        Bridge.carriers = carriers;
        Bridge.requests = requests;
        Bridge.servers = servers;
        Bridge.spans = spans;
        Bridge.waits = waits;
    }

    /** Counts executor hooks seen while the current thread runs the self-check. */
    public int selfCheck(Runnable instrumentedCall) {
        return handoffs.selfCheck(instrumentedCall);
    }

    /** Initialises the event classes and the thread meter (see AgentInstaller#warmUpInBackground). */
    public static void warmUp() {
        ThreadMeter.get().allocatedBytes();
        ThreadMeter.get().cpuNanos();
        new RequestEvent().isEnabled();
        new RequestStartEvent().isEnabled();
        new SegmentEvent().isEnabled();
        new HopEvent().isEnabled();
        new SpanEvent().isEnabled();
        new WaitEvent().isEnabled();
        new NonBlockingWaitEvent().isEnabled();
        new MountsEvent().isEnabled();
        new io.hopscope.agent.events.AgentWorkEvent().isEnabled();
    }
}
