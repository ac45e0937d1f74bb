package io.hopscope.settings;

/**
 * The system properties the agent sets in its JVM for {@code hopscope attach} and {@code live},
 * which read them back through the attach API.
 */
public final class AttachProperties {

    /** Set once the agent has started: a second start is refused, and attach knows not to load it. */
    public static final String STARTED = "hopscope.agent.started";
    /**
     * Set once the agent records requests: its instrumentations and its recording are in place (at
     * the end of premain, or of the install's own thread with start=background, or of agentmain).
     */
    public static final String INSTALLED = "hopscope.agent.installed";
    /** Where the jfr= recording goes, set once it runs. */
    public static final String RECORDING = "hopscope.agent.recording";
    /**
     * After a late attach, the instrumentations (comma-separated) that add a field and so skip the
     * classes already loaded.
     */
    public static final String SKIPPED = "hopscope.agent.skipped";
    /** Set when the agent could not raise JFR's stack depth: what to do instead. */
    public static final String SHALLOW_STACKS = "hopscope.agent.shallowstacks";

    private AttachProperties() {
    }
}
