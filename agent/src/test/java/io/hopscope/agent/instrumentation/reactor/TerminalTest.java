package io.hopscope.agent.instrumentation.reactor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

/**
 * The subscriber the agent puts under an async span or a request's Mono: every signal and the
 * downstream's context pass through it, and it reports the terminal signal once.
 */
class TerminalTest {

    /** A downstream with a context of its own, counting how often it is asked for it. */
    static final class Downstream implements CoreSubscriber<String> {
        final List<String> signals = new ArrayList<>();
        int contextLookups;

        @Override
        public Context currentContext() {
            contextLookups++;
            return Context.of("tenant", "blue");
        }

        @Override
        public void onSubscribe(Subscription s) {
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(String value) {
            signals.add("next " + value);
        }

        @Override
        public void onError(Throwable error) {
            signals.add("error " + error.getMessage());
        }

        @Override
        public void onComplete() {
            signals.add("complete");
        }
    }

    @Test
    void theDownstreamsContextReachesTheSourceAndIsAskedForOnce() {
        Downstream downstream = new Downstream();
        List<String> reported = new ArrayList<>();
        // Each deferContextual asks its subscriber, the Terminal, for the context: two lookups
        // through the Terminal (as Reactor's operators above a span repeat them), one reaches the
        // downstream.
        Mono.deferContextual(outer -> Mono.deferContextual(inner ->
                        Mono.just(outer.get("tenant") + "/" + inner.get("tenant"))))
                .subscribe(new ReactorAdapter.Terminal<String>(downstream) {
                    @Override
                    void terminated(String outcome, Throwable error, Object value) {
                        reported.add(outcome + " " + value);
                    }
                });
        assertThat(downstream.signals).containsExactly("next blue/blue", "complete");
        assertThat(reported).containsExactly("ok blue/blue");
        assertThat(downstream.contextLookups).isEqualTo(1);
    }

    @Test
    void anErrorPassesThroughAndIsReportedOnce() {
        Downstream downstream = new Downstream();
        List<String> reported = new ArrayList<>();
        Mono.<String>error(new IllegalStateException("refused"))
                .subscribe(new ReactorAdapter.Terminal<String>(downstream) {
                    @Override
                    void terminated(String outcome, Throwable error, Object value) {
                        reported.add(outcome + " " + error.getMessage());
                    }
                });
        assertThat(downstream.signals).containsExactly("error refused");
        assertThat(reported).containsExactly("error refused");
    }
}
