package io.hopscope.analyzer.export;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.profiles.v1development.Function;
import io.opentelemetry.proto.profiles.v1development.KeyValueAndUnit;
import io.opentelemetry.proto.profiles.v1development.Line;
import io.opentelemetry.proto.profiles.v1development.Link;
import io.opentelemetry.proto.profiles.v1development.Location;
import io.opentelemetry.proto.profiles.v1development.Mapping;
import io.opentelemetry.proto.profiles.v1development.Profile;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.proto.profiles.v1development.ResourceProfiles;
import io.opentelemetry.proto.profiles.v1development.Sample;
import io.opentelemetry.proto.profiles.v1development.ScopeProfiles;
import io.opentelemetry.proto.profiles.v1development.Stack;
import io.opentelemetry.proto.profiles.v1development.ValueType;
import io.opentelemetry.proto.resource.v1.Resource;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * {@link ProfileSamples} as an OTLP profiles export request ({@code v1development}, OTLP 1.10+), built
 * with the OpenTelemetry project's published Java bindings: one profile per sample type, all sharing
 * one dictionary. Every table's entry 0 is its zero value, as the protocol asks.
 */
public final class OtlpProfiles {

    private final ProfilesDictionary.Builder dictionary = ProfilesDictionary.newBuilder();
    private final Map<String, Integer> strings = new HashMap<>();
    private final Map<String, Integer> locations = new HashMap<>();
    private final Map<List<Integer>, Integer> stacks = new HashMap<>();
    private final Map<String, Integer> attributes = new HashMap<>();
    private final Map<String, Integer> links = new HashMap<>();

    private OtlpProfiles() {
        string("");
        dictionary.addMappingTable(Mapping.getDefaultInstance());
        dictionary.addFunctionTable(Function.getDefaultInstance());
        dictionary.addLocationTable(Location.getDefaultInstance());
        dictionary.addStackTable(Stack.getDefaultInstance());
        dictionary.addAttributeTable(KeyValueAndUnit.getDefaultInstance());
        dictionary.addLinkTable(Link.getDefaultInstance());
    }

    /**
     * The request: {@code service} as the resource's {@code service.name}, the recording's span as each
     * profile's time and duration.
     */
    public static ExportProfilesServiceRequest of(ProfileSamples samples, String service, String scopeVersion,
                                                  long startEpochNanos, long endEpochNanos) {
        OtlpProfiles b = new OtlpProfiles();
        ScopeProfiles.Builder scope = ScopeProfiles.newBuilder()
                .setScope(InstrumentationScope.newBuilder().setName("hopscope").setVersion(scopeVersion));
        for (SampleType type : samples.types()) {
            Profile.Builder profile = Profile.newBuilder()
                    .setSampleType(ValueType.newBuilder().setTypeStrindex(b.string(type.type))
                            .setUnitStrindex(b.string(type.unit)))
                    .setTimeUnixNano(startEpochNanos)
                    .setDurationNano(Math.max(0, endEpochNanos - startEpochNanos))
                    .setProfileId(profileId(startEpochNanos, type));
            samples.of(type).forEach((key, value) -> profile.addSamples(Sample.newBuilder()
                    .setStackIndex(b.stack(key.framesRootFirst()))
                    .addAllAttributeIndices(b.attributes(key))
                    .setLinkIndex(b.link(key.traceId(), key.spanId()))
                    .addValues(value[0])));
            scope.addProfiles(profile);
        }
        return ExportProfilesServiceRequest.newBuilder()
                .addResourceProfiles(ResourceProfiles.newBuilder()
                        .setResource(Resource.newBuilder().addAttributes(KeyValue.newBuilder().setKey("service.name")
                                .setValue(AnyValue.newBuilder().setStringValue(service))))
                        .addScopeProfiles(scope))
                .setDictionary(b.dictionary)
                .build();
    }

    // Same recording, same ids: a re-export is recognisably the same profile.
    private static ByteString profileId(long startEpochNanos, SampleType type) {
        UUID id = UUID.nameUUIDFromBytes((startEpochNanos + "/" + type).getBytes(StandardCharsets.UTF_8));
        return ByteString.copyFrom(ByteBuffer.allocate(16).putLong(id.getMostSignificantBits())
                .putLong(id.getLeastSignificantBits()).array());
    }

    private int string(String s) {
        return strings.computeIfAbsent(s, k -> {
            dictionary.addStringTable(k);
            return dictionary.getStringTableCount() - 1;
        });
    }

    // A Java frame is one function at one location: no addresses, no mappings (the zero mapping).
    private int location(String frame) {
        return locations.computeIfAbsent(frame, k -> {
            dictionary.addFunctionTable(Function.newBuilder().setNameStrindex(string(k)));
            dictionary.addLocationTable(Location.newBuilder()
                    .addLines(Line.newBuilder().setFunctionIndex(dictionary.getFunctionTableCount() - 1)));
            return dictionary.getLocationTableCount() - 1;
        });
    }

    // Leaf first, as in pprof.
    private int stack(List<String> framesRootFirst) {
        List<Integer> leafFirst = new ArrayList<>(framesRootFirst.size());
        for (int k = framesRootFirst.size() - 1; k >= 0; k--) {
            leafFirst.add(location(framesRootFirst.get(k)));
        }
        return stacks.computeIfAbsent(leafFirst, k -> {
            dictionary.addStackTable(Stack.newBuilder().addAllLocationIndices(k));
            return dictionary.getStackTableCount() - 1;
        });
    }

    // The request's trace and span (entry 0, the zero link, when it was made in none; a trace id
    // without a span id links to the trace with a zero span id).
    private int link(String traceId, String spanId) {
        if (traceId == null) {
            return 0;
        }
        return links.computeIfAbsent(traceId + '/' + spanId, k -> {
            dictionary.addLinkTable(Link.newBuilder().setTraceId(hex(traceId, 16))
                    .setSpanId(spanId == null ? ByteString.copyFrom(new byte[8]) : hex(spanId, 8)));
            return dictionary.getLinkTableCount() - 1;
        });
    }

    private static ByteString hex(String id, int bytes) {
        byte[] b = new byte[bytes];
        for (int i = 0; i < bytes; i++) {
            b[i] = (byte) Integer.parseInt(id, 2 * i, 2 * i + 2, 16);
        }
        return ByteString.copyFrom(b);
    }

    private List<Integer> attributes(ProfileSamples.Key key) {
        List<Integer> indices = new ArrayList<>(Attribute.values().length);
        for (Attribute a : Attribute.values()) {
            String value = key.attribute(a);
            if (value != null) {
                indices.add(attributes.computeIfAbsent(a.otlpKey + '\0' + value, k -> {
                    dictionary.addAttributeTable(KeyValueAndUnit.newBuilder().setKeyStrindex(string(a.otlpKey))
                            .setValue(AnyValue.newBuilder().setStringValue(value)));
                    return dictionary.getAttributeTableCount() - 1;
                }));
            }
        }
        return indices;
    }
}
