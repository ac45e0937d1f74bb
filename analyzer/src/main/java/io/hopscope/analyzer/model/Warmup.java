package io.hopscope.analyzer.model;

/**
 * What the report does with warm-up requests, those during which the agent saw their threads load
 * classes (hopscope.AgentWork): {@code apart} ranks the worst requests among the others and lists
 * the worst warm-up ones on their own; {@code include} ranks them all together; {@code exclude}
 * leaves warm-up requests out of every figure and list.
 */
public enum Warmup {
    apart,
    include,
    exclude;

    /** How many of the worst warm-up requests a report lists on their own with {@code apart}, at most. */
    public static final int SHOWN = 3;
}
