/**
 * The single pass over a recording ({@link io.hopscope.analyzer.analysis.RecordingAnalyzer}): the
 * agent's events made into requests, the JDK's events attributed to them, and the requests selected
 * and summed up for a report. What keeps its memory bounded is in {@code memory}, the per-thread
 * segment arrays in {@code threads}, the eBPF side in {@code kernel}, {@code live}'s figures in
 * {@code live}.
 */
package io.hopscope.analyzer.analysis;
