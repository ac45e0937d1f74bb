package io.hopscope.agent;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The agent's options: {@code key=value} pairs separated by {@code ,}, list values separated by
 * {@code ;}. A bad option is reported in one line and skipped: an agent must never stop the
 * application from starting.
 */
public final class AgentOptions {

    /** Query parameters kept by default: Azure Storage's operation selectors, never a credential. */
    static final List<String> DEFAULT_REDACT_ALLOW_LIST = List.of("comp", "restype", "api-version", "timeout");

    /** The instrumentations' names, in the order they are applied (see AgentInstaller). */
    static final List<String> INSTRUMENTATIONS = List.of("executors", "any-executor", "forkjoin", "threads", "futures", "parks", "requests", "reactor", "netty",
            "reactor-pool", "azure-core", "okhttp", "jdk-http", "httpclient5", "httpclient5-async", "async-http-client",
            "httpclient4");

    final String raw;
    String jfrPath;
    /** asprof=EVENT[;interval=N]: async-profiler writes the recording (null: the JDK alone). */
    io.hopscope.agent.asprof.AsyncProfilerRecording.Settings asprof;
    final List<String> requests = new ArrayList<>();
    final List<String> policies = new ArrayList<>();
    final Set<String> keptQueryParameters = new LinkedHashSet<>(DEFAULT_REDACT_ALLOW_LIST);
    /** cputime=true: read the thread's CPU time at every segment boundary (a system call each). */
    boolean cpuTime;
    /** okhttp-internal=true: OkHttp's own interceptors (okhttp3.internal) are spans too. */
    boolean okhttpInternal;
    /**
     * spans=1/N: the spans of one request in N are recorded (1: every request, the default; 0: none).
     * Requests, segments, hops and waits are recorded for every request whatever N is.
     */
    int spanEvery = 1;
    /**
     * spanthreshold=DURATION: the shortest span the jfr= recording writes, in JFR's syntax
     * ({@code 0 ns}: every span); null keeps hopscope.jfc's (1 ms).
     */
    String spanThreshold;
    /** lockstacks=true: jdk.JavaMonitorEnter with stack traces (see RecordingSettings for the cost). */
    boolean lockStacks;
    /** disable=NAME;...: instrumentations not applied (names as AgentInfo.instrumentations lists them). */
    final Set<String> disabled = new LinkedHashSet<>();

    private AgentOptions(String raw) {
        this.raw = raw == null ? "" : raw;
    }

    /** Parses the option string; each problem goes to {@code problems} as one line. */
    static AgentOptions parse(String raw, Consumer<String> problems) {
        AgentOptions options = new AgentOptions(raw);
        if (raw == null || raw.isBlank()) {
            return options;
        }
        for (String pair : raw.split(",")) {
            if (pair.isBlank()) {
                continue;
            }
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                problems.accept("hopscope: option '" + pair + "' is not key=value; ignored (options: jfr=PATH,"
                        + " requests=CLASS#METHOD;..., policies=INTERFACE;..., redact=PARAM;..., cputime=true|false,"
                        + " okhttp-internal=true|false, lockstacks=true|false, spans=all|none|1/N, spanthreshold=0|Nns|Nus|Nms|Ns,"
                        + " disable=NAME;...,"
                        + " asprof=EVENT;interval=N)");
                continue;
            }
            String key = pair.substring(0, eq).trim();
            String value = pair.substring(eq + 1).trim();
            switch (key) {
                case "jfr":
                    if (value.isEmpty()) {
                        problems.accept("hopscope: option jfr= needs a file path; no recording started");
                    } else {
                        options.jfrPath = value;
                    }
                    break;
                case "requests":
                    for (String item : list(value)) {
                        int hash = item.indexOf('#');
                        if (hash <= 0 || hash == item.length() - 1 || item.indexOf('#', hash + 1) >= 0) {
                            problems.accept("hopscope: requests= entry '" + item
                                    + "' is not CLASS#METHOD; ignored");
                        } else {
                            options.requests.add(item);
                        }
                    }
                    break;
                case "policies":
                    for (String item : list(value)) {
                        if (item.contains("#") || item.contains("/")) {
                            problems.accept("hopscope: policies= entry '" + item
                                    + "' is not a fully qualified interface name; ignored");
                        } else {
                            options.policies.add(item);
                        }
                    }
                    break;
                case "asprof":
                    // The value keeps its ';' parts: they are async-profiler's, not a list.
                    options.asprof = io.hopscope.agent.asprof.AsyncProfilerRecording.parse(value, problems);
                    break;
                case "cputime":
                    options.cpuTime = flag(key, value, problems);
                    break;
                case "spans":
                    options.spanEvery = spanEvery(value, problems);
                    break;
                case "spanthreshold":
                    options.spanThreshold = duration(key, value, problems);
                    break;
                case "lockstacks":
                    options.lockStacks = flag(key, value, problems);
                    break;
                case "okhttp-internal":
                    options.okhttpInternal = flag(key, value, problems);
                    break;
                case "disable":
                    for (String item : list(value)) {
                        if (INSTRUMENTATIONS.contains(item)) {
                            options.disabled.add(item);
                        } else {
                            problems.accept("hopscope: disable= entry '" + item + "' is not an instrumentation; ignored"
                                    + " (one of " + String.join(", ", INSTRUMENTATIONS) + ")");
                        }
                    }
                    break;
                case "redact":
                    // redact= lists the query parameters to keep; an empty value keeps none.
                    options.keptQueryParameters.clear();
                    options.keptQueryParameters.addAll(list(value));
                    break;
                default:
                    problems.accept("hopscope: unknown option '" + key
                            + "'; ignored (options: jfr, requests, policies, redact, cputime, okhttp-internal, lockstacks, spans,"
                            + " spanthreshold,"
                            + " disable,"
                            + " asprof)");
            }
        }
        return options;
    }

    /** spans=all|none|1/N as the number of requests per request with spans (0: none); bad: all. */
    private static int spanEvery(String value, Consumer<String> problems) {
        if (value.equals("all")) {
            return 1;
        }
        if (value.equals("none")) {
            return 0;
        }
        if (value.startsWith("1/")) {
            try {
                int n = Integer.parseInt(value.substring(2));
                if (n >= 1) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        problems.accept("hopscope: option spans= takes all, none or 1/N with N >= 1, not '" + value
                + "'; recording the spans of every request");
        return 1;
    }

    /**
     * A duration option ({@code 0}, or a whole number with ns, us, ms or s) in JFR's syntax
     * ({@code 500 us}); anything else is reported and taken as null (the shipped setting).
     */
    private static String duration(String key, String value, Consumer<String> problems) {
        if (value.equals("0")) {
            return "0 ns";
        }
        int unit = 0;
        while (unit < value.length() && Character.isDigit(value.charAt(unit))) {
            unit++;
        }
        String number = value.substring(0, unit);
        String suffix = value.substring(unit).trim();
        if (unit > 0 && unit <= 12 && List.of("ns", "us", "ms", "s").contains(suffix)) {
            return Long.parseLong(number) + " " + suffix;
        }
        problems.accept("hopscope: option " + key + "= takes 0 or a whole number with ns, us, ms or s (500us), not '"
                + value + "'; keeping the recording settings' own");
        return null;
    }

    /** A true|false option; anything else is reported and taken as false. */
    private static boolean flag(String key, String value, Consumer<String> problems) {
        if (!value.equals("true") && !value.equals("false")) {
            problems.accept("hopscope: option " + key + "= takes true or false, not '" + value + "'; ignored");
        }
        return value.equals("true");
    }

    private static List<String> list(String value) {
        List<String> items = new ArrayList<>();
        for (String item : value.split(";")) {
            if (!item.isBlank()) {
                items.add(item.trim());
            }
        }
        return items;
    }
}
