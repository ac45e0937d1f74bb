package io.hopscope.settings;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The agent's options as given: {@code key=value} pairs separated by {@code ,}, list values separated
 * by {@code ;}, each option a field (the table of keys, forms and meanings: {@link AgentOption}). A
 * bad option is reported in one line and skipped: an agent must never stop the application from
 * starting, and the analyzer says the same line before it loads the agent.
 */
public final class AgentOptions {

    private final String raw;
    private String jfrPath;
    private String asprof;
    private final List<String> requests = new ArrayList<>();
    private final List<String> policies = new ArrayList<>();
    private Set<String> keptQueryParameters;
    private boolean cpuTime;
    private boolean okhttpInternal;
    private int spanEvery = 1;
    private String spanThreshold;
    private boolean lockStacks;
    private final Set<String> disabled = new LinkedHashSet<>();
    private boolean background;

    private AgentOptions(String raw) {
        this.raw = raw == null ? "" : raw;
    }

    /** Parses the option string; each problem goes to {@code problems} as one line. */
    public static AgentOptions parse(String raw, Consumer<String> problems) {
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
                problems.accept("hopscope: option '" + pair + "' is not key=value; ignored (options: "
                        + AgentOption.usages() + ")");
                continue;
            }
            String key = pair.substring(0, eq).trim();
            String value = pair.substring(eq + 1).trim();
            AgentOption option = AgentOption.of(key).orElse(null);
            if (option == null) {
                problems.accept("hopscope: option '" + key + "' is unknown; ignored (options: " + AgentOption.keys() + ")");
            } else {
                options.set(option, value, problems);
            }
        }
        return options;
    }

    private void set(AgentOption option, String value, Consumer<String> problems) {
        String key = option.key();
        switch (option) {
            case JFR:
                if (value.isEmpty()) {
                    problems.accept("hopscope: option jfr= needs a file path; no recording started");
                } else {
                    jfrPath = value;
                }
                break;
            case REQUESTS:
                for (String item : list(value)) {
                    int hash = item.indexOf('#');
                    if (hash <= 0 || hash == item.length() - 1 || item.indexOf('#', hash + 1) >= 0) {
                        problems.accept("hopscope: requests= entry '" + item + "' is not CLASS#METHOD; ignored");
                    } else {
                        requests.add(item);
                    }
                }
                break;
            case POLICIES:
                for (String item : list(value)) {
                    if (item.contains("#") || item.contains("/")) {
                        problems.accept("hopscope: policies= entry '" + item
                                + "' is not a fully qualified interface name; ignored");
                    } else {
                        policies.add(item);
                    }
                }
                break;
            // The value keeps its ';' parts: they are async-profiler's, not a list.
            case ASPROF:
                asprof = value;
                break;
            case CPU_TIME:
                cpuTime = flag(key, value, problems);
                break;
            case SPANS:
                spanEvery = spanEvery(value, problems);
                break;
            case SPAN_THRESHOLD:
                spanThreshold = duration(key, value, problems);
                break;
            case LOCK_STACKS:
                lockStacks = flag(key, value, problems);
                break;
            case START:
                if (value.equals("premain") || value.equals("background")) {
                    background = value.equals("background");
                } else {
                    problems.accept("hopscope: option start= takes premain or background, not '" + value
                            + "'; premain");
                }
                break;
            case OKHTTP_INTERNAL:
                okhttpInternal = flag(key, value, problems);
                break;
            // Checked against the instrumentations' names by the agent (checkDisabled), which knows them.
            case DISABLE:
                disabled.addAll(list(value));
                break;
            // redact= lists the query parameters to keep; an empty value keeps none.
            case REDACT:
                keptQueryParameters = new LinkedHashSet<>(list(value));
                break;
        }
    }

    /**
     * Reports each {@code disable=} name that is not one of {@code instrumentations} and drops it.
     */
    public void checkDisabled(Collection<String> instrumentations, Consumer<String> problems) {
        disabled.removeIf(name -> {
            if (instrumentations.contains(name)) {
                return false;
            }
            problems.accept("hopscope: disable= entry '" + name + "' is not an instrumentation; ignored"
                    + " (one of " + String.join(", ", instrumentations) + ")");
            return true;
        });
    }

    /** The option string as given ({@code ""} for none). */
    public String raw() {
        return raw;
    }

    /** jfr=PATH: where the agent's own recording goes; null: no recording of its own. */
    public String jfrPath() {
        return jfrPath;
    }

    /** asprof=EVENT[;interval=N] as given (async-profiler's to parse); null: the JDK records alone. */
    public String asprof() {
        return asprof;
    }

    /** requests=CLASS#METHOD;...: extra request boundaries. */
    public List<String> requests() {
        return requests;
    }

    /** policies=INTERFACE;...: extra pipeline-stage interfaces. */
    public List<String> policies() {
        return policies;
    }

    /** redact=PARAM;...: the query parameters kept; null when not given (the instrumentations' defaults). */
    public Set<String> keptQueryParameters() {
        return keptQueryParameters;
    }

    /** cputime=true: read the thread's CPU time at every segment boundary (a system call each). */
    public boolean cpuTime() {
        return cpuTime;
    }

    /**
     * start=background: the agent installs on a thread of its own while {@code main} runs; requests
     * begin to be recorded once the install and the recording are in place (AgentOption.START).
     */
    public boolean background() {
        return background;
    }

    /** okhttp-internal=true: OkHttp's own interceptors (okhttp3.internal) are spans too. */
    public boolean okhttpInternal() {
        return okhttpInternal;
    }

    /**
     * spans=1/N: the spans of one request in N are recorded (1: every request, the default; 0: none).
     * Requests, segments, hops and waits are recorded for every request whatever N is.
     */
    public int spanEvery() {
        return spanEvery;
    }

    /**
     * spanthreshold=DURATION: the shortest span the jfr= recording writes, in JFR's syntax
     * ({@code 0 ns}: every span); null keeps hopscope.jfc's.
     */
    public String spanThreshold() {
        return spanThreshold;
    }

    /** lockstacks=true: jdk.JavaMonitorEnter with stack traces (see AgentOption.LOCK_STACKS for the cost). */
    public boolean lockStacks() {
        return lockStacks;
    }

    /** disable=NAME;...: instrumentations not applied (names as AgentInfo.instrumentations lists them). */
    public Set<String> disabled() {
        return disabled;
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
