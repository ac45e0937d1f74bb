package io.hopscope.agent.runtime;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.bootstrap.CarrierHooks;
import io.hopscope.agent.events.MountsEvent;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The carriers of the virtual threads that work on a request. A virtual thread is carried from
 * the moment it starts in a request (or begins one) until it ends (or the request it began ends).
 * Its submissions to its scheduler (start, unpark, yield) and its runs on a carrier
 * (VirtualThread#runContinuation, on the carrier) find it here and add up; the virtual thread
 * writes them as one {@link MountsEvent} when it is done with the request. JFR has no mount event
 * of its own, and events committed on a carrier right after it unmounts a virtual thread were seen
 * to go missing (Temurin 25), which is why the virtual thread writes them itself.
 *
 * <p>A virtual thread has no allocation counter of its own (ThreadMXBean says -1 on JDK 21-25),
 * but what it allocates while mounted is counted on its carrier: each run reads the carrier's
 * counter when it begins and ends, which makes the thread's allocation in the request exact.
 *
 * <p>It implements the carrier hooks itself: the Bridge calls it straight.
 */
final class Carriers implements CarrierHooks {

    /** Distinct carrier names kept per virtual thread and request; more are counted. */
    private static final int MAX_CARRIERS = 8;

    /** Virtual threads carried now: bounded by the live virtual threads working on requests. */
    private final ConcurrentHashMap<Thread, Mounts> carried = new ConcurrentHashMap<>();

    /**
     * One carried virtual thread. Its runs are sequential, so the carrier running it is the only
     * writer of the figures; the scheduler's hand-over orders one run's writes before the next.
     */
    private static final class Mounts {
        final RequestState request;
        final MountsEvent event = new MountsEvent();
        /** When the thread was last submitted to its scheduler and not run since; 0 when not seen. */
        volatile long submittedNanos;
        int mounts;
        long mountWaitNanos;
        long maxMountWaitNanos;
        long mountedNanos;
        /** When the current run began, 0 between runs; its carrier, and that carrier's allocation counter then. */
        long runStartNanos;
        Thread runCarrier;
        long runStartAllocated;
        /** What the thread allocated in its runs so far, -1 once a carrier's counter could not be read. */
        long allocatedBytes;
        final Thread[] carriers = new Thread[MAX_CARRIERS];
        int carrierCount;
        int moreCarriers;

        Mounts(RequestState request, long submittedNanos) {
            this.request = request;
            this.submittedNanos = submittedNanos;
            event.begin();
        }

        /** A run's allocation, from its carrier's counter at its start and now (-1: unreadable). */
        void addAllocated(long atStart, long now) {
            if (allocatedBytes < 0 || atStart < 0 || now < 0) {
                allocatedBytes = -1;
            } else {
                allocatedBytes += Math.max(0, now - atStart);
            }
        }

        void addCarrier(Thread carrier) {
            if (carrier == null) {
                return;
            }
            for (int i = 0; i < carrierCount; i++) {
                if (carriers[i] == carrier) {
                    return;
                }
            }
            if (carrierCount < MAX_CARRIERS) {
                carriers[carrierCount++] = carrier;
            } else {
                moreCarriers++;
            }
        }
    }

    /** Whether t is a virtual thread (java.lang.VirtualThread; a JDK 17 build has no isVirtual()). */
    static boolean isVirtual(Thread t) {
        return t.getClass().getName().equals("java.lang.VirtualThread");
    }

    /** Virtual thread vt is started in r now: its first run waits from here. */
    void started(Thread vt, RequestState r) {
        carry(vt, new Mounts(r, System.nanoTime()));
    }

    /** The virtual thread of s begins request r (a virtual caller): its runs from now on count. */
    void began(ThreadState s, RequestState r) {
        if (s.virtual) {
            Mounts m = new Mounts(r, 0);
            // This run began before the request: it counts as mounted from here.
            Thread carrier = currentCarrier();
            m.mounts = 1;
            m.runStartNanos = System.nanoTime();
            m.runStartAllocated = ThreadMeter.get().allocatedBytesOf(carrier);
            m.runCarrier = carrier;
            m.addCarrier(carrier);
            carry(s.thread, m);
        }
    }

    private void carry(Thread vt, Mounts m) {
        Mounts before = carried.put(vt, m);
        if (before == null) {
            Bridge.CARRIED.incrementAndGet();
        }
    }

    /** Virtual thread vt turned out to be no part of its request (a library's housekeeping): nothing is written. */
    void forget(Thread vt) {
        if (carried.remove(vt) != null) {
            Bridge.CARRIED.decrementAndGet();
        }
    }

    /**
     * Virtual thread vt, the current thread, is done with its request (it ends, or the request it
     * began ends): its mounts are written.
     */
    @Override
    public void virtualThreadEnded(Thread vt) {
        released(vt);
    }

    void released(Thread vt) {
        Mounts m = carried.remove(vt);
        if (m == null) {
            return;
        }
        Bridge.CARRIED.decrementAndGet();
        MountsEvent e = m.event;
        if (!e.isEnabled()) {
            return;
        }
        e.end();
        e.requestId = m.request.id;
        e.mounts = m.mounts;
        e.mountWaitNanos = m.mountWaitNanos;
        e.maxMountWaitNanos = m.maxMountWaitNanos;
        e.mountedNanos = m.mountedNanos + (m.runStartNanos == 0 ? 0 : System.nanoTime() - m.runStartNanos);
        if (m.runStartNanos != 0) {
            // This run goes on: its carrier's counter so far (read from here, the virtual thread).
            m.addAllocated(m.runStartAllocated, ThreadMeter.get().allocatedBytesOf(currentCarrier()));
        }
        e.allocatedBytes = m.allocatedBytes;
        StringBuilder names = new StringBuilder();
        for (int i = 0; i < m.carrierCount; i++) {
            names.append(i == 0 ? "" : ", ").append(m.carriers[i].getName());
        }
        if (m.moreCarriers > 0) {
            names.append(", +").append(m.moreCarriers);
        }
        e.carriers = names.toString();
        e.commit();
    }

    /** vt is submitted to its scheduler (of nested submit calls, the first counts). */
    @Override
    public void virtualThreadSubmitted(Thread vt) {
        Mounts m = carried.get(vt);
        if (m != null && m.submittedNanos == 0) {
            m.submittedNanos = System.nanoTime();
        }
    }

    /** A carrier, the current thread, starts running vt: the run's token, or null when vt is not carried. */
    @Override
    public Object mountEnter(Thread vt) {
        Mounts m = carried.get(vt);
        if (m == null || m.runStartNanos != 0) {
            // Not carried; or running on another carrier, which a second submission cannot change
            // (runContinuation finds it not runnable and returns).
            return null;
        }
        long now = System.nanoTime();
        long submitted = m.submittedNanos;
        m.submittedNanos = 0;
        if (submitted != 0) {
            long wait = Math.max(0, now - submitted);
            m.mountWaitNanos += wait;
            m.maxMountWaitNanos = Math.max(m.maxMountWaitNanos, wait);
        }
        m.mounts++;
        m.runStartNanos = now;
        m.runStartAllocated = ThreadMeter.get().allocatedBytesOrUnknown();
        m.runCarrier = Thread.currentThread();
        m.addCarrier(m.runCarrier);
        return m;
    }

    /**
     * The carrier is done running vt (it unmounted). The run ends for vt's request of now, which
     * need not be the one mountEnter saw: vt may have ended a request and begun another (or begun
     * its first) during the run, whose first part ends here.
     */
    @Override
    public void mountExit(Object token, Thread vt) {
        Mounts m = carried.get(vt);
        if (m != null && m.runStartNanos != 0 && m.runCarrier == Thread.currentThread()) {
            m.mountedNanos += System.nanoTime() - m.runStartNanos;
            m.addAllocated(m.runStartAllocated, ThreadMeter.get().allocatedBytesOrUnknown());
            m.runStartNanos = 0;
        }
    }

    /** Thread.currentCarrierThread(), package-private in java.lang, when the agent could open it. */
    private volatile Supplier<Thread> currentCarrier;

    void readCurrentCarrier(Supplier<Thread> carrier) {
        currentCarrier = carrier;
    }

    /** The current virtual thread's carrier, or null where it cannot be read. */
    private Thread currentCarrier() {
        Supplier<Thread> carrier = currentCarrier;
        return carrier == null ? null : carrier.get();
    }
}
