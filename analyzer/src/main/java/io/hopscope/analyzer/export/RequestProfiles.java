package io.hopscope.analyzer.export;

import io.hopscope.analyzer.analysis.NameGlob;
import io.hopscope.analyzer.analysis.RecordingAnalyzer;
import io.hopscope.analyzer.analysis.SegmentJoin;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.model.StackSample;

/**
 * The one place per-request profiles are made, for {@code export} (a recording's, into one
 * {@link ProfileSamples}) and {@code live} (a window's, into each request's window): the JDK events each
 * sample type takes ({@link SampleType#events()}), joined to their requests in the analyzer's single pass,
 * and each finished request's count and hops. Only requests whose name {@code names} matches (null: every
 * name) are added.
 */
public final class RequestProfiles {

    private final NameGlob names;
    private ProfileSamples samples;
    private long withoutLists;

    /** Adds to {@code analyzer} (before its pass) a join of every event each sample type takes, into {@code samples}. */
    public RequestProfiles(RecordingAnalyzer analyzer, NameGlob names, ProfileSamples samples) {
        this.names = names;
        this.samples = samples;
        for (SampleType type : SampleType.values()) {
            for (String event : type.events()) {
                analyzer.join(event, new SegmentJoin() {
                    @Override
                    public void accept(StackSample sample, long id, String requestName) {
                        accept(sample, id, requestName, null, null, null);
                    }

                    @Override
                    public void accept(StackSample sample, long id, String requestName, String requestKind,
                                       String traceId, String spanId) {
                        if (id != 0 && (names == null || names.matches(requestName))) {
                            RequestProfiles.this.samples.addJoined(type, requestName, requestKind, traceId, spanId, sample);
                        }
                    }
                });
            }
        }
    }

    /**
     * Where joined events go from now on: a watch hands each request over right before its joined events
     * ({@link RecordingAnalyzer#watching}), so live points this at the window of the request it was just given.
     */
    public void into(ProfileSamples samples) {
        this.samples = samples;
    }

    /** A finished request, counted and with its hops, into the samples joined events go to now. */
    public void add(Request r) {
        if (names != null && !names.matches(r.name() == null ? "?" : r.name())) {
            return;
        }
        if (!samples.addRequest(r)) {
            withoutLists++;
        }
    }

    /** Requests added whose hops were over the analyzer's detail budget, and so are not in a profile. */
    public long withoutLists() {
        return withoutLists;
    }
}
