package io.hopscope.settings;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The agent's options, each once: its key, the form of its value and what it means. The agent's
 * parser ({@link AgentOptions}), its error lines and the options table of docs/agent.md (a test
 * checks it is {@link #markdownTable}'s output) all come from here.
 */
public enum AgentOption {

    JFR("jfr", "PATH", "start a recording with hopscope's settings (`hopscope.jfc`, in the jar) and write it to PATH at"
            + " JVM exit; `jcmd PID JFR.dump name=hopscope filename=FILE` takes a snapshot at any time. Without `jfr=`,"
            + " the events go into whatever recording the user starts (`-XX:StartFlightRecording`, JMC): enable them"
            + " with `settings=` pointing at a copy of `hopscope.jfc`, or leave the defaults (all hopscope events are"
            + " enabled by default, no threshold: every span is written)."),
    REQUESTS("requests", "CLASS#METHOD;...", "extra request boundaries: every overload of the method starts a request"
            + " when no request is current on the thread (the name is `Class#method`); a `Mono` or `CompletableFuture`"
            + " result ends it when it completes."),
    POLICIES("policies", "INTERFACE;...", "extra pipeline-stage interfaces: each implementation's methods of the"
            + " interface are timed as `policy` spans."),
    REDACT("redact", "PARAM;...", "URL query parameters kept in `Request.url` (default: those the instrumented"
            + " libraries name as never secret, Azure Storage's `comp;restype;api-version;timeout`; `redact=` keeps"
            + " none). The rest of the query, user-info and fragment are dropped; no header is ever recorded."),
    OKHTTP_INTERNAL("okhttp-internal", "true|false", "whether OkHttp's own interceptors (`okhttp3.internal.*`: retry"
            + " and follow-up, bridge, cache, connect, call-server) are `interceptor` spans (default `false`; the"
            + " application's interceptors always are). Each of the five wraps the whole exchange; together they were"
            + " 5 of the 12 spans per request of the pipeline sample, ~2% of its CPU. The `Call#execute` span (or the"
            + " request itself) already times the exchange."),
    DISABLE("disable", "NAME;...", "instrumentations not to apply, by the names `hopscope.AgentInfo.instrumentations`"
            + " lists: " + AgentOption.INSTRUMENTATIONS + " (to rule one out when an application misbehaves under the"
            + " agent, without removing it)"),
    SPANS("spans", "all|none|1/N", "whose `hopscope.Span` events are recorded: every request's (`all`, the default),"
            + " none, or one request in N, picked by request id (evenly and repeatably). Requests, segments, hops,"
            + " waits and allocation are recorded for every request whatever it says; a request without spans shows no"
            + " policy breakdown. Each written span costs about half a microsecond in place on the pipeline sample (see"
            + " [performance](performance.md#agent)); `1/N` cuts that part N-fold (measured with every span written:"
            + " 0.884 -> 0.919 of the throughput without the agent at `1/8`). It combines with `spanthreshold=`: a"
            + " picked request's spans are still written only from the threshold up."),
    SPAN_THRESHOLD("spanthreshold", "0|N(ns|us|ms|s)", "the shortest `hopscope.Span` the `jfr=` recording writes"
            + " (default `1ms`, from `hopscope.jfc`; `0` writes every span). A span wraps the rest of the pipeline"
            + " below it, so every policy span of a request of 1 ms or more is at least 1 ms long and is written; the"
            + " default drops only the breakdown of sub-millisecond requests (a loopback call), which saves about"
            + " 1.6 µs of CPU per request on the pipeline sample (see [performance](performance.md#agent)). Use"
            + " `spanthreshold=0` to see where a fast request's time goes; then each written span costs about half a"
            + " microsecond in place. A span's self time (analyzer) includes children shorter than the threshold."),
    LOCK_STACKS("lockstacks", "true|false", "whether `jdk.JavaMonitorEnter` events carry stack traces in the `jfr=`"
            + " recording (default `false`; `flame --kind lock` needs them). HotSpot (JDK 17) walks the stack at *every*"
            + " contended monitor enter while that event records stacks, before it checks the 10 ms threshold, so"
            + " nearly all of those walks are for events never written: 1.2% of the pipeline sample's CPU, where eight"
            + " callers share OkHttp's connection-pool lock. Lock contention per request (count, time, monitor class)"
            + " does not need them."),
    CPU_TIME("cputime", "true|false", "whether `Segment.cpuNanos` is measured (default `false`: it is -1). On Linux"
            + " the JDK reads a thread's CPU time with a `clock_gettime(CLOCK_THREAD_CPUTIME_ID)` system call, not a"
            + " vDSO read; two per segment were 1.3% of the pipeline sample's CPU, more than the rest of the segment's"
            + " bookkeeping."),
    START("start", "premain|background", "when the agent installs: in `premain`, before the application's `main`"
            + " (the default: every request from the first is recorded), or on a `background` thread while `main`"
            + " runs: `main` then starts within 0.1 s of an empty agent's instead of 1.2 s later, but the install's"
            + " work runs beside the application's first seconds, whose throughput is lower than in `premain`"
            + " (see [performance](performance.md#agent), the agent floor). In the background, the requests that"
            + " begin before the install and the `jfr=` recording are both in place are not recorded at all (none is"
            + " recorded half seen), and a `reactor-pool` class loaded before it is not instrumented, as after an"
            + " attach."),
    ASPROF("asprof", "EVENT[;interval=N]", "async-profiler, started in-process, writes the `jfr=` recording (it"
            + " needs `jfr=`): EVENT one of `cpu`, `wall`, `alloc`, `lock`, `itimer`, `ctimer`; N e.g. `1ms`, or bytes"
            + " such as `512k` for `alloc` (see [cli](cli.md)). If it cannot start, the JDK records alone.");

    /** Where {@link #markdownTable} puts the instrumentations' names, which only the agent knows. */
    public static final String INSTRUMENTATIONS = "{instrumentations}";

    private final String key;
    private final String value;
    private final String meaning;

    AgentOption(String key, String value, String meaning) {
        this.key = key;
        this.value = value;
        this.meaning = meaning;
    }

    /** The key, as written before the {@code =}. */
    public String key() {
        return key;
    }

    /** The option as a user writes it: {@code key=VALUE-FORM}. */
    public String usage() {
        return key + "=" + value;
    }

    /** Whether {@code pair} ({@code key=value}) sets this option. */
    public boolean isSetBy(String pair) {
        int eq = pair.indexOf('=');
        return eq > 0 && pair.substring(0, eq).trim().equals(key);
    }

    /** The option of this key, if there is one. */
    public static Optional<AgentOption> of(String key) {
        for (AgentOption option : values()) {
            if (option.key.equals(key)) {
                return Optional.of(option);
            }
        }
        return Optional.empty();
    }

    /** Every option's usage, for an error line: {@code jfr=PATH, requests=CLASS#METHOD;..., ...}. */
    public static String usages() {
        List<String> all = new ArrayList<>();
        for (AgentOption option : values()) {
            all.add(option.usage());
        }
        return String.join(", ", all);
    }

    /** Every option's key, for an error line. */
    public static String keys() {
        List<String> all = new ArrayList<>();
        for (AgentOption option : values()) {
            all.add(option.key);
        }
        return String.join(", ", all);
    }

    /** The options table of docs/agent.md, the instrumentations' names given in their order. */
    public static String markdownTable(List<String> instrumentations) {
        StringBuilder table = new StringBuilder("| option | meaning |\n|---|---|\n");
        for (AgentOption option : values()) {
            String names = "`" + String.join("`, `", instrumentations) + "`";
            table.append("| `").append(option.usage().replace("|", "\\|")).append("` | ")
                    .append(option.meaning.replace(INSTRUMENTATIONS, names)).append(" |\n");
        }
        return table.toString();
    }
}
