/** What keeps the single pass's memory bounded by the requests in flight: the detail budget, the spill file, primitive maps. */
package io.hopscope.analyzer.analysis.memory;
