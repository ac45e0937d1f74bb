/** Segments per thread as sorted primitive arrays: what attributes an event on a thread at a time to a request. */
package io.hopscope.analyzer.analysis.threads;
