package io.hopscope.agent.instrumentation.reactor;

import io.hopscope.agent.runtime.AgentErrors;
import io.hopscope.agent.runtime.AsyncAdapter;
import io.hopscope.agent.runtime.AsyncSpan;
import io.hopscope.agent.runtime.RequestCarrier;
import io.hopscope.agent.runtime.RequestState;
import io.hopscope.agent.runtime.Requests;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

/**
 * Ends requests and async policy spans at a Mono's terminal signal. Defined for each copy of
 * Reactor by a {@link io.hopscope.agent.instrumentation.LibraryHelper} (public for it), so nothing
 * else in the agent depends on Reactor, and the agent reaches it by name only.
 */
public final class ReactorAdapter implements AsyncAdapter {

    @Override
    public Object endRequestOnCompletion(Requests requests, RequestState request, Object result) {
        if (!(result instanceof Mono)) {
            return null;
        }
        return new RequestMono<>((Mono<?>) result, requests, request);
    }

    @Override
    public Object spanOnSubscription(AsyncSpan span, Object result) {
        if (!(result instanceof Mono)) {
            return null;
        }
        return new SpanMono<>((Mono<?>) result, span);
    }

    /** A request's result: subscribing to it carries the request; its terminal signal ends it. */
    static final class RequestMono<T> extends Mono<T> implements RequestCarrier {
        private final Mono<T> source;
        private final Requests requests;
        private final RequestState request;

        @SuppressWarnings("unchecked")
        RequestMono(Mono<?> source, Requests requests, RequestState request) {
            this.source = (Mono<T>) source;
            this.requests = requests;
            this.request = request;
        }

        @Override
        public RequestState hopscopeRequest() {
            return request;
        }

        @Override
        public void subscribe(CoreSubscriber<? super T> actual) {
            Object attached = null;
            try {
                attached = requests.attachForSubscribe(request);
            } catch (Throwable t) {
                AgentErrors.report("reactor", t);
            }
            try {
                source.subscribe(new Terminal<T>(actual) {
                    @Override
                    void terminated(String outcome, Throwable error, Object value) {
                        requests.asyncTerminated(request, outcome, error, value);
                    }
                });
            } finally {
                try {
                    requests.detachAfterSubscribe(attached);
                } catch (Throwable t) {
                    AgentErrors.report("reactor", t);
                }
            }
        }
    }

    /** An async policy's result: the span runs from this subscription to the terminal signal. */
    static final class SpanMono<T> extends Mono<T> {
        private final Mono<T> source;
        private final AsyncSpan span;

        @SuppressWarnings("unchecked")
        SpanMono(Mono<?> source, AsyncSpan span) {
            this.source = (Mono<T>) source;
            this.span = span;
        }

        @Override
        public void subscribe(CoreSubscriber<? super T> actual) {
            AsyncSpan opened = null;
            try {
                opened = span.subscribe();
            } catch (Throwable t) {
                AgentErrors.report("reactor", t);
            }
            if (opened == null) {
                source.subscribe(actual);
                return;
            }
            AsyncSpan subscription = opened;
            try {
                source.subscribe(new Terminal<T>(actual) {
                    @Override
                    void terminated(String outcome, Throwable error, Object value) {
                        subscription.end();
                    }
                });
            } finally {
                try {
                    subscription.subscribed();
                } catch (Throwable t) {
                    AgentErrors.report("reactor", t);
                }
            }
        }
    }

    /**
     * Passes every signal through and reports the first terminal one. For a Mono, onNext is
     * reported too (with outcome "ok"): a block() waiter wakes on onNext, before onComplete.
     */
    abstract static class Terminal<T> implements CoreSubscriber<T>, Subscription {
        @SuppressWarnings("rawtypes")
        private static final AtomicIntegerFieldUpdater<Terminal> DONE =
                AtomicIntegerFieldUpdater.newUpdater(Terminal.class, "done");

        private final CoreSubscriber<? super T> actual;
        /** 1 once the terminal signal has been reported (a field, not an AtomicBoolean per subscription). */
        private volatile int done;
        private Subscription upstream;
        /**
         * The downstream's context, asked for once. Reactor looks a context up by walking the
         * subscriber chain down, each operator an interface call, and every contextWrite above asks
         * again at subscription: with a Terminal per async policy span the walks through Terminals
         * were 1.1% of the CPU of Netty sync-over-async (docs/performance.md). A subscriber's
         * context is fixed by the time it is subscribed (Reactor's own contextWrite keeps the one it
         * computed), so the first answer stands for the rest.
         */
        private volatile Context context;

        Terminal(CoreSubscriber<? super T> actual) {
            this.actual = actual;
        }

        abstract void terminated(String outcome, Throwable error, Object value);

        private void report(String outcome, Throwable error, Object value) {
            if (DONE.compareAndSet(this, 0, 1)) {
                try {
                    terminated(outcome, error, value);
                } catch (Throwable t) {
                    AgentErrors.report("reactor", t);
                }
            }
        }

        @Override
        public Context currentContext() {
            Context c = context;
            if (c == null) {
                c = actual.currentContext();
                context = c;
            }
            return c;
        }

        @Override
        public void onSubscribe(Subscription s) {
            upstream = s;
            actual.onSubscribe(this);
        }

        @Override
        public void onNext(T value) {
            report("ok", null, value);
            actual.onNext(value);
        }

        @Override
        public void onError(Throwable error) {
            report("error", error, null);
            actual.onError(error);
        }

        @Override
        public void onComplete() {
            report("ok", null, null);
            actual.onComplete();
        }

        @Override
        public void request(long n) {
            upstream.request(n);
        }

        @Override
        public void cancel() {
            report("cancelled", null, null);
            upstream.cancel();
        }
    }
}
