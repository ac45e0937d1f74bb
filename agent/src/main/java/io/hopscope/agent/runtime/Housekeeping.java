package io.hopscope.agent.runtime;

import java.util.List;

/**
 * Tasks that libraries schedule from inside a request but that are not the request's work (a
 * connection pool's cleanup): they are not followed, so they add no hop to the request. Data, by
 * class-name prefix of the submitted task.
 */
final class Housekeeping {

    /** OkHttp 4's TaskRunner runs connection-pool cleanup and other timers on its own threads. */
    private static final List<String> TASK_CLASS_PREFIXES = List.of(
            "okhttp3.internal.concurrent.TaskRunner");

    private Housekeeping() {
    }

    static boolean isHousekeeping(Object task) {
        String name = task.getClass().getName();
        for (String prefix : TASK_CLASS_PREFIXES) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
