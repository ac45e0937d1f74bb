package io.hopscope.samples.knownpath;

import io.hopscope.samples.common.Options;
import io.hopscope.samples.common.ResponseCheckException;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code known-path}: runs {@link KnownPath#request()} on thread {@code known-path-caller}. */
@Command(name = "known-path", mixinStandardHelpOptions = true,
        description = {"A request of exactly 3 hops over 3 threads (caller -> A -> B -> caller), "
                + "B blocked on a monitor held by known-path-holder. Boundary: "
                + "io.hopscope.samples.knownpath.KnownPath#request.",
                "Example: known-path --count 3 --lock-hold-ms 30"})
public final class KnownPathCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--count", defaultValue = "5", description = "Requests (default ${DEFAULT-VALUE}).")
    int count;

    @Option(names = "--pause-ms", defaultValue = "100", description = "Pause between requests in ms (default ${DEFAULT-VALUE}).")
    long pauseMs;

    @Option(names = "--alloc-bytes", defaultValue = "1048576", description = "Bytes allocated by A and again by B (default ${DEFAULT-VALUE}).")
    int allocBytes;

    @Option(names = "--lock-hold-ms", defaultValue = "30", description = "How long the holder keeps the monitor B needs (default ${DEFAULT-VALUE}).")
    long lockHoldMs;

    @Override
    public Integer call() throws Exception {
        Options.atLeast(spec, "--count", count, 0);
        Options.atLeast(spec, "--pause-ms", pauseMs, 0);
        Options.atLeast(spec, "--alloc-bytes", allocBytes, 0);
        Options.atLeast(spec, "--lock-hold-ms", lockHoldMs, 0);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try (KnownPath path = new KnownPath(allocBytes, lockHoldMs)) {
            Thread caller = new Thread(() -> {
                try {
                    callerLoop(path);
                } catch (Throwable t) {
                    failure.set(t);
                }
            }, "known-path-caller");
            caller.start();
            caller.join();
        }
        Throwable t = failure.get();
        if (t instanceof ResponseCheckException) {
            throw (ResponseCheckException) t;
        } else if (t instanceof Exception) {
            throw (Exception) t;
        } else if (t != null) {
            throw (Error) t;
        }
        return 0;
    }

    private void callerLoop(KnownPath path) throws Exception {
        for (int i = 1; i <= count; i++) {
            path.holdLockBeforeRequest();
            long startNanos = System.nanoTime();
            KnownPath.Result result = path.request();
            long tookMicros = (System.nanoTime() - startNanos) / 1000;
            if (result.allocatedBytes() != path.expectedAllocatedBytes()) {
                throw new ResponseCheckException("request " + i + " allocated " + result.allocatedBytes()
                        + " bytes, expected " + path.expectedAllocatedBytes());
            }
            String caller = Thread.currentThread().getName();
            System.out.printf("request: %d latency_us: %d b_blocked_us: %d allocated_bytes: %d path: %s>%s>%s>%s%n",
                    i, tookMicros, result.bBlockedNanos() / 1000, result.allocatedBytes(),
                    caller, result.threadA(), result.threadB(), caller);
            if (i < count) {
                Thread.sleep(pauseMs);
            }
        }
    }
}
