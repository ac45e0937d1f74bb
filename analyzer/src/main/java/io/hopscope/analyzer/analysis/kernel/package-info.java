/** The eBPF tracer's off-CPU intervals attributed to the requests of a recording ({@code --bpf}). */
package io.hopscope.analyzer.analysis.kernel;
