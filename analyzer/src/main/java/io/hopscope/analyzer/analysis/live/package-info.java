/** The figures of {@code hopscope live}, by event time. */
package io.hopscope.analyzer.analysis.live;
