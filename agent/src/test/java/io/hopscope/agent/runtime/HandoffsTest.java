package io.hopscope.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.bootstrap.Bridge;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Attached tasks (fork/join tasks): remembered only in a request, and counted in
 * Bridge.PENDING_TASKS until they run, so that the check every such task in the JVM makes when it
 * runs falls back to one volatile read.
 */
class HandoffsTest {

    private final Handoffs handoffs = new Handoffs(new LibraryRules(), new Carriers());
    private final ThreadState self = ThreadContexts.state();
    private int pendingBefore;

    @BeforeEach
    void enterRequest() {
        pendingBefore = Bridge.PENDING_TASKS.get();
        self.request = new RequestState(42, "test", "HandoffsTest", null, Thread.currentThread(), false, null);
    }

    @AfterEach
    void leaveRequest() {
        self.request = null;
    }

    @Test
    void nothingIsRememberedOutsideARequest() {
        self.request = null;
        Object task = new Object();
        handoffs.attachTask(task, null);
        assertThat(Bridge.PENDING_TASKS.get()).isEqualTo(pendingBefore);
        assertThat(handoffs.attachedTaskEnter(task)).isNull();
    }

    @Test
    void aTaskIsCountedUntilItRunsOnce() throws Exception {
        Object task = new Object();
        handoffs.attachTask(task, null);
        handoffs.attachTask(task, null); // submitted twice (an advised method calling another)
        assertThat(Bridge.PENDING_TASKS.get()).isEqualTo(pendingBefore + 1);
        Object[] tokens = new Object[2];
        onAnotherThread(() -> {
            tokens[0] = handoffs.attachedTaskEnter(task);
            handoffs.taskEnd(tokens[0]);
            tokens[1] = handoffs.attachedTaskEnter(task);
        });
        assertThat(tokens[0]).as("the task's run").isNotNull();
        assertThat(tokens[1]).as("a second run").isNull();
        assertThat(Bridge.PENDING_TASKS.get()).isEqualTo(pendingBefore);
    }

    private static void onAnotherThread(Runnable work) throws InterruptedException {
        Thread worker = new Thread(work, "handoffs-test-worker");
        worker.start();
        worker.join();
    }
}
