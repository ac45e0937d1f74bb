package io.hopscope.agent.instrumentation.parks;

import static net.bytebuddy.matcher.ElementMatchers.isStatic;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.instrumentation.WaitAdvice;
import io.hopscope.agent.runtime.LibraryRules;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Any park: LockSupport#park*, where every java.util.concurrent wait and most libraries' waits end,
 * on a thread of a request and outside any wait known by name (whose own event it is part of). A
 * park the thread leaves because a thread of the same request unparked it is a Wait (its kind from
 * the blocker, see {@link ParkKind}) and a wake hop (see Waits#parkExit); the unpark side is the
 * futures instrumentation's. And Thread#join, a wait of its own (a platform thread's join waits on
 * the thread's monitor, which no park shows): its way back is from the joined thread, when that
 * thread's run was a task of the request (see Handoffs#attachTask).
 */
public final class ParksInstrumentation implements HopscopeInstrumentation {

    @Override
    public String name() {
        return "parks";
    }

    @Override
    public String requiredClass() {
        return null;
    }

    @Override
    public void addRules(LibraryRules rules) {
        for (ParkKind k : ParkKind.values()) {
            rules.addParkKind(k.blockerClassPrefix, k.kind);
        }
    }

    /** Every Wait kind a park can get, in the contract table's order (RecordingContractTest). */
    public static List<String> waitKinds() {
        Set<String> kinds = new LinkedHashSet<>();
        for (ParkKind k : ParkKind.values()) {
            kinds.add(k.kind);
        }
        kinds.add(LibraryRules.PARK);
        return List.copyOf(kinds);
    }

    @Override
    public List<String> preloadedClasses() {
        return List.of("java.util.concurrent.locks.LockSupport");
    }

    @Override
    public List<String> jdkClasses() {
        return List.of("java.util.concurrent.locks.LockSupport", "java.lang.Thread");
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder, ElementMatcher<ClassLoader> libraryLoaders) {
        return builder
                .type(named("java.util.concurrent.locks.LockSupport"))
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(ParkOnAdvice.class).on(isStatic().and(nameStartsWith("park"))
                                .and(takesArgument(0, Object.class))))
                        .visit(Advice.to(ParkAdvice.class).on(isStatic().and(nameStartsWith("park"))
                                .and(not(takesArgument(0, Object.class))))))
                .type(named("java.lang.Thread"))
                .transform((b, type, loader, module, domain) -> b
                        .visit(WaitAdvice.of("Thread.join").on(named("join"))));
    }

    /** park(blocker), parkNanos(blocker, nanos), parkUntil(blocker, deadline). */
    static final class ParkOnAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.Argument(0) Object blocker) {
            return Bridge.parkEnter(blocker);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token) {
            Bridge.parkExit(token);
        }
    }

    /** park(), parkNanos(nanos), parkUntil(deadline): the blocker, if any, is the one the caller set. */
    static final class ParkAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter() {
            return Bridge.parkEnter(null);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token) {
            Bridge.parkExit(token);
        }
    }
}
