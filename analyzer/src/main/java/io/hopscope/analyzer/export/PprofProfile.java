package io.hopscope.analyzer.export;

import io.hopscope.analyzer.export.pprof.Function;
import io.hopscope.analyzer.export.pprof.Label;
import io.hopscope.analyzer.export.pprof.Line;
import io.hopscope.analyzer.export.pprof.Location;
import io.hopscope.analyzer.export.pprof.Profile;
import io.hopscope.analyzer.export.pprof.Sample;
import io.hopscope.analyzer.export.pprof.ValueType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/**
 * {@link ProfileSamples} as one pprof profile (gzipped protobuf, as {@code go tool pprof} and
 * Pyroscope's {@code /ingest?format=pprof} read it), from the Java classes protoc generates out of
 * pprof's profile.proto: one value column per sample type that has values, each sample's
 * attributes as string labels, and {@code span_id} where the request was made in a trace.
 */
public final class PprofProfile {

    /** The label Pyroscope reads as a sample's span (and the only one it does not make a series of). */
    static final String SPAN_ID_LABEL = "span_id";

    private final Profile.Builder profile = Profile.newBuilder();
    private final Map<String, Long> strings = new HashMap<>();
    private final Map<String, Long> locations = new HashMap<>();

    private PprofProfile() {
        string("");
    }

    /** The profile, not yet gzipped; the recording's span as its time and duration. */
    public static Profile of(ProfileSamples samples, long startEpochNanos, long endEpochNanos) {
        PprofProfile b = new PprofProfile();
        List<SampleType> types = samples.types();
        for (SampleType type : types) {
            b.profile.addSampleType(ValueType.newBuilder().setType(b.string(type.type)).setUnit(b.string(type.unit)));
        }
        for (int column = 0; column < types.size(); column++) {
            int c = column;
            samples.of(types.get(column)).forEach((key, value) -> {
                Sample.Builder sample = Sample.newBuilder();
                List<String> frames = key.framesRootFirst();
                for (int k = frames.size() - 1; k >= 0; k--) {
                    sample.addLocationId(b.location(frames.get(k)));
                }
                for (int t = 0; t < types.size(); t++) {
                    sample.addValue(t == c ? value[0] : 0);
                }
                for (Attribute a : Attribute.values()) {
                    String v = key.attribute(a);
                    if (v != null) {
                        sample.addLabel(Label.newBuilder().setKey(b.string(a.pprofLabel)).setStr(b.string(v)));
                    }
                }
                if (key.spanId() != null) {
                    // Pyroscope keeps span_id as the sample's link to its span, not as a series label.
                    sample.addLabel(Label.newBuilder().setKey(b.string(SPAN_ID_LABEL)).setStr(b.string(key.spanId())));
                }
                b.profile.addSample(sample);
            });
        }
        return b.profile.setTimeNanos(startEpochNanos).setDurationNanos(Math.max(0, endEpochNanos - startEpochNanos))
                .build();
    }

    /** The profile as pprof files hold it: gzipped. */
    public static byte[] gzipped(Profile profile) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(bytes)) {
            profile.writeTo(gzip);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in memory: cannot happen
        }
        return bytes.toByteArray();
    }

    private long string(String s) {
        return strings.computeIfAbsent(s, k -> {
            profile.addStringTable(k);
            return (long) profile.getStringTableCount() - 1;
        });
    }

    // Ids start at 1: 0 means "none" in pprof. One function per frame name, one location per function.
    private long location(String frame) {
        return locations.computeIfAbsent(frame, k -> {
            long id = profile.getLocationCount() + 1L;
            profile.addFunction(Function.newBuilder().setId(id).setName(string(k)).setSystemName(string(k)));
            profile.addLocation(Location.newBuilder().setId(id).addLine(Line.newBuilder().setFunctionId(id)));
            return id;
        });
    }
}
