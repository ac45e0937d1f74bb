package io.hopscope.samples.knownpath;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The known path's promises to the agent, analyzer and eBPF tests: its threads, its wait, its bytes. */
class KnownPathTest {

    @Test
    void requestRunsOnAThenBAndBWaitsForTheHolder() throws Exception {
        try (KnownPath path = new KnownPath(4096, 50)) {
            path.holdLockBeforeRequest();
            long start = System.nanoTime();
            KnownPath.Result result = path.request();
            long tookMs = (System.nanoTime() - start) / 1_000_000;

            assertThat(result.threadA()).isEqualTo("known-path-A");
            assertThat(result.threadB()).isEqualTo("known-path-B");
            assertThat(result.allocatedBytes()).isEqualTo(8192).isEqualTo(path.expectedAllocatedBytes());
            // The holder lets go 50 ms after B arrives at the monitor, however late that is: B waits
            // and the request lasts at least that (less a millisecond Thread.sleep may round off).
            assertThat(tookMs).isGreaterThanOrEqualTo(49);
            assertThat(result.bBlockedNanos() / 1_000_000).isGreaterThanOrEqualTo(49);
        }
    }

    @Test
    void withoutTheHolderBDoesNotWait() throws Exception {
        try (KnownPath path = new KnownPath(16, 1000)) {
            KnownPath.Result result = path.request();

            assertThat(result.bBlockedNanos() / 1_000_000).isLessThan(500);
        }
    }

    @Test
    void boundaryIsThePublicMethodTheAgentIsToldAbout() throws Exception {
        // requests=io.hopscope.samples.knownpath.KnownPath#request is how the agent finds it.
        assertThat(KnownPath.class.getName()).isEqualTo("io.hopscope.samples.knownpath.KnownPath");
        assertThat(java.lang.reflect.Modifier.isPublic(KnownPath.class.getMethod("request").getModifiers())).isTrue();
    }
}
