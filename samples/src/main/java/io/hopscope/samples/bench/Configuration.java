package io.hopscope.samples.bench;

/**
 * One way to run the workload's JVM: without anything (the baseline), with hopscope, with the
 * tool a user would pick instead, or with an agent that does (almost) nothing (the floor). The JVM
 * options themselves are {@link BenchTools}'s to build.
 */
enum Configuration {
    NONE("none", true, "no agent: the baseline"),
    /** Issue #45's floor: what any java agent costs, the figure hopscope's first window is held against. */
    EMPTY_AGENT("empty-agent", true, "a java agent whose premain does nothing"),
    /** Issue #45's floor with hopscope's bridge step: class-data sharing off for all but the boot loader. */
    BOOT_APPEND("boot-append", true, "a java agent that only appends a jar of 3 classes to the boot class path"),
    HOPSCOPE("hopscope", true, "hopscope agent, JFR output"),
    /** Issue #45: the agent installed on its own thread while main runs (start=background). */
    HOPSCOPE_BACKGROUND("hopscope-bg", true, "hopscope agent, start=background, JFR output"),
    HOPSCOPE_ASPROF("hopscope+asprof", false, "hopscope agent with asprof=cpu"),
    HOPSCOPE_OFFWAKE("hopscope+offwake", false, "hopscope agent, bpf/offwake.py tracing the JVM beside it"),
    /** Only with --agent-b: another build of the agent, run interleaved with the first to compare builds. */
    HOPSCOPE_B("hopscope-b", true, "the hopscope agent of --agent-b (another build), JFR output"),
    OTEL("otel", true, "OpenTelemetry java agent, all exporters none"),
    /** Issue #43's baseline for live: the agent as production runs it without jfr=, no recording, nobody watching. */
    HOPSCOPE_UNWATCHED("hopscope-unwatched", false, "hopscope agent without a recording, not watched"),
    /** The same JVM watched by hopscope live --otlp from its start: what being watched (its JFR stream) costs it. */
    HOPSCOPE_LIVE("hopscope+live", false, "hopscope agent without a recording, watched by hopscope live --otlp"),
    ASPROF_WALL("asprof-wall", false, "async-profiler alone, wall clock, JFR output"),
    JFR_PROFILE("jfr-profile", false, "JFR alone, the JDK's profile settings");

    final String label;
    /** Run on every workload; the others run on the first workload only unless --every-workload. */
    final boolean everyWorkload;
    final String description;

    Configuration(String label, boolean everyWorkload, String description) {
        this.label = label;
        this.everyWorkload = everyWorkload;
        this.description = description;
    }

    static Configuration byLabel(String label) {
        for (Configuration c : values()) {
            if (c.label.equals(label)) {
                return c;
            }
        }
        return null;
    }

    static String labels() {
        StringBuilder b = new StringBuilder();
        for (Configuration c : values()) {
            b.append(b.length() == 0 ? "" : ", ").append(c.label);
        }
        return b.toString();
    }
}
