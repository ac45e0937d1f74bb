package io.hopscope.analyzer.command;

import io.hopscope.analyzer.analysis.AnalysisOptions;
import io.hopscope.analyzer.analysis.NameGlob;
import io.hopscope.analyzer.analysis.RecordingAnalyzer;
import io.hopscope.analyzer.analysis.SortField;
import io.hopscope.analyzer.analysis.kernel.OffCpuAttribution;
import io.hopscope.analyzer.export.Endpoint;
import io.hopscope.analyzer.export.Headers;
import io.hopscope.analyzer.export.OtlpProfiles;
import io.hopscope.analyzer.export.PprofProfile;
import io.hopscope.analyzer.export.ProfileSamples;
import io.hopscope.analyzer.export.RequestProfiles;
import io.hopscope.analyzer.export.SampleType;
import io.hopscope.analyzer.model.KernelReport;
import io.hopscope.analyzer.model.Report;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.read.BpfInput;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceResponse;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code hopscope export}: the requests' profiles for a fleet's backend, as OTLP profiles or pprof. */
@Command(name = "export", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Per-request profiles for the backends fleets run: an OpenTelemetry Collector (OTLP profiles),"
                + " Pyroscope or go tool pprof (pprof).",
                "Sample types: requests (one per request), cpu, wall (samples), alloc_space (bytes), lock and park (ns),"
                        + " off_cpu (ns, with --bpf), queue_delay, server_queue, wake_latency and return_delay (ns, one per"
                        + " hop).",
                "Attributes: request name and kind, thread pool, hop kind and via; never a request id (backends make series"
                        + " of them).",
                "Headers for the endpoint (Authorization, a tenant) come from OTEL_EXPORTER_OTLP_HEADERS"
                        + " (k1=v1,k2=v2) or --headers-file, never from the command line; no output shows a value.",
                "",
                "Example: hopscope export app.jfr --format otlp --otlp http://127.0.0.1:4318",
                "         hopscope export app.jfr --format pprof -o app.pb.gz && go tool pprof -top app.pb.gz",
                "         hopscope export app.jfr --format pprof --push http://pyroscope:4040"})
public final class ExportCommand implements Callable<Integer> {

    /** What {@code export} writes. */
    enum ExportFormat { otlp, pprof }

    @Spec
    CommandSpec spec;

    @Mixin
    RecordingParameter recording;

    @Mixin
    ReaderOption reader;

    @Option(names = "--format", required = true, paramLabel = "FORMAT",
            description = "otlp (OTLP profiles, v1development, protobuf) or pprof (gzipped protobuf).")
    ExportFormat format;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Target target;

    /** Exactly one place to send the profiles. */
    static final class Target {
        @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write the protobuf to this file.")
        Path file;

        @Option(names = "--otlp", paramLabel = "URL",
                description = "--format otlp: an OTLP/HTTP endpoint, e.g. http://127.0.0.1:4318 (the path"
                        + " /v1development/profiles is added when the URL has none).")
        URI otlp;

        @Option(names = "--push", paramLabel = "URL",
                description = "--format pprof: a Pyroscope-compatible server, e.g. http://127.0.0.1:4040 (posted"
                        + " to /ingest?format=pprof when the URL has no path).")
        URI push;
    }

    @Mixin
    EndpointOptions sent;

    @Mixin
    NameOption name;

    @Mixin
    BpfOption bpf;

    @Mixin
    DetailMemoryOption detailMemory;

    @Override
    public Integer call() throws Exception {
        if (format == ExportFormat.pprof && target.otlp != null) {
            throw new ParameterException(spec.commandLine(), "--otlp is for --format otlp; pprof goes to -o FILE or --push URL");
        }
        if (format == ExportFormat.otlp && target.push != null) {
            throw new ParameterException(spec.commandLine(), "--push is for --format pprof; OTLP goes to -o FILE or --otlp URL");
        }
        URI endpoint = target.otlp != null ? target.otlp : target.push;
        if (endpoint != null && (!"http".equals(endpoint.getScheme()) && !"https".equals(endpoint.getScheme())
                || endpoint.getHost() == null)) {
            throw new ParameterException(spec.commandLine(), (target.otlp != null ? "--otlp" : "--push")
                    + " must be an http:// or https:// URL with a host");
        }
        if (sent.headersFile != null && endpoint == null) {
            throw new ParameterException(spec.commandLine(), "--headers-file is for --otlp or --push");
        }
        // Told once, here: the join below is given events input.
        if (bpf.isSet() && BpfInput.detect(bpf.file) != BpfInput.EVENTS) {
            throw new CliProblem(bpf.file + ": export needs bpf/offwake.py --events output (folded output has no"
                    + " thread ids or times to put it in requests)");
        }
        Headers headers = endpoint == null ? Headers.NONE : sent.headers("OTEL_EXPORTER_OTLP_PROFILES_HEADERS");

        PrintWriter err = spec.commandLine().getErr();
        ProfileSamples samples = new ProfileSamples();
        Report report = read(samples, err);
        if (samples.isEmpty()) {
            err.println("warning: " + recording.file + ": no request to export (none of the names selected finished in it)");
        }
        long start = report.recording().startEpochNanos();
        long end = report.recording().endEpochNanos();
        byte[] bytes;
        if (format == ExportFormat.otlp) {
            ExportProfilesServiceRequest request = OtlpProfiles.of(samples, sent.service, versionOf(), start, end);
            bytes = request.toByteArray();
            if (endpoint != null) {
                sendOtlp(endpoint, bytes, headers, request);
            }
        } else {
            bytes = PprofProfile.gzipped(PprofProfile.of(samples, start, end));
            if (endpoint != null) {
                push(endpoint, bytes, headers, start, end);
            }
        }
        if (target.file != null) {
            write(target.file, bytes);
        }
        err.println("exported " + summary(samples) + " of " + samples.requests() + " requests to "
                + (target.file != null ? target.file : endpoint));
        err.flush();
        return 0;
    }

    private Report read(ProfileSamples samples, PrintWriter err) throws Exception {
        NameGlob names = name.glob == null ? null : new NameGlob(name.glob);
        RecordingAnalyzer analyzer = new RecordingAnalyzer(recording.file, new AnalysisOptions(name.glob, -1, SortField.start, 5,
                detailMemory.bytes()));
        reader.apply(analyzer);
        RequestProfiles profiles = new RequestProfiles(analyzer, names, samples);
        OffCpuAttribution join = bpf.isSet()
                ? reader.apply(new OffCpuAttribution(recording.file)).readPlacesIn(analyzer, BpfInput.EVENTS) : null;
        Report report;
        try (ProgressBars bar = ProgressBars.reading(analyzer, recording.file)) {
            report = analyzer.analyze();
        }
        report.recording().warnings().forEach(w -> err.println("warning: " + w));
        for (Request r : report.requests()) {
            profiles.add(r);
        }
        if (profiles.withoutLists() > 0) {
            err.println("warning: " + recording.file + ": the hops of " + profiles.withoutLists() + " requests were over"
                    + " the detail budget and are not exported; raise --detail-memory");
        }
        if (bpf.isSet()) {
            // The off-CPU join names requests by id only: their kind and trace context come from the
            // report's. Only those three strings are kept per request (the kinds are the analyzer's
            // interned few), not the requests themselves.
            Map<Long, String[]> tags = new HashMap<>();
            for (Request r : report.requests()) {
                if (r.kind() != null || r.traceId() != null) {
                    tags.put(r.id(), new String[] {r.kind(), r.traceId(), r.spanId()});
                }
            }
            KernelReport kernel = join.onOverlap(o -> {
                if (names == null || names.matches(o.requestName())) {
                    String[] t = tags.getOrDefault(o.requestId(), new String[3]);
                    samples.addOffCpu(o, t[0], t[1], t[2]);
                }
            }).join(bpf.file, BpfInput.EVENTS);
            kernel.notes().forEach(n -> err.println("note: " + n));
        }
        return report;
    }

    // OTLP/HTTP with protobuf: a 2xx can still carry a partial success that rejected profiles.
    private static void sendOtlp(URI endpoint, byte[] bytes, Headers headers, ExportProfilesServiceRequest request)
            throws CliProblem {
        URI uri = otlpUri(endpoint);
        String rejected = rejected(post(uri, bytes, "application/x-protobuf", headers), profiles(request), uri, headers);
        if (rejected != null) {
            throw new CliProblem(rejected);
        }
    }

    /** Where OTLP profiles go: the URL as given when it has a path, else its /v1development/profiles. */
    static URI otlpUri(URI endpoint) {
        return withPath(endpoint, "/v1development/profiles", "");
    }

    /** The profiles an export request holds. */
    static int profiles(ExportProfilesServiceRequest request) {
        return request.getResourceProfiles(0).getScopeProfiles(0).getProfilesCount();
    }

    /** What a Collector's 2xx answer says it rejected of the {@code sent} profiles, in a line; null when none. */
    static String rejected(byte[] answer, int sent, URI uri, Headers headers) {
        try {
            ExportProfilesServiceResponse response = ExportProfilesServiceResponse.parseFrom(answer);
            long rejected = response.getPartialSuccess().getRejectedProfiles();
            if (rejected > 0) {
                return uri + ": rejected " + rejected + " of " + sent + " profiles: "
                        + headers.scrub(response.getPartialSuccess().getErrorMessage());
            }
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            // Not an OTLP answer, but a 2xx: the collector took it.
        }
        return null;
    }

    private void push(URI endpoint, byte[] bytes, Headers headers, long startEpochNanos, long endEpochNanos)
            throws CliProblem {
        post(pushUri(endpoint, sent.service, startEpochNanos, endEpochNanos), bytes, "application/octet-stream", headers);
    }

    /**
     * Pyroscope's ingest API for a profile of {@code service} spanning these epoch times: the application
     * name and the span in seconds are in the query.
     */
    static URI pushUri(URI endpoint, String service, long startEpochNanos, long endEpochNanos) {
        String query = "format=pprof&name=" + URLEncoder.encode(service, StandardCharsets.UTF_8)
                + "&from=" + startEpochNanos / 1_000_000_000L + "&until=" + Math.max(startEpochNanos / 1_000_000_000L + 1,
                (endEpochNanos + 999_999_999L) / 1_000_000_000L);
        return withPath(endpoint, "/ingest", query);
    }

    private static byte[] post(URI uri, byte[] bytes, String contentType, Headers headers) throws CliProblem {
        try {
            return Endpoint.post(uri, bytes, contentType, null, headers);
        } catch (Endpoint.EndpointProblem e) {
            throw new CliProblem(e.getMessage());
        }
    }

    // The URL as given when it has a path, else with the protocol's own path; the query is added to any.
    static URI withPath(URI base, String path, String query) {
        String p = base.getRawPath() == null || base.getRawPath().isEmpty() || "/".equals(base.getRawPath())
                ? path : base.getRawPath();
        String q = base.getRawQuery() == null ? query : query.isEmpty() ? base.getRawQuery() : base.getRawQuery() + "&" + query;
        String authority = base.getRawAuthority();
        return URI.create(base.getScheme() + "://" + authority + p + (q.isEmpty() ? "" : "?" + q));
    }

    private static void write(Path file, byte[] bytes) throws CliProblem {
        try {
            Files.write(file, bytes);
        } catch (IOException e) {
            Path parent = file.toAbsolutePath().getParent();
            throw new CliProblem(file + ": cannot write output file, " + (parent != null && !Files.isDirectory(parent)
                    ? "its directory does not exist" : "not writable"));
        }
    }

    private static String summary(ProfileSamples samples) {
        if (samples.isEmpty()) {
            return "no samples";
        }
        Map<SampleType, Integer> sizes = new java.util.LinkedHashMap<>();
        samples.types().forEach(t -> sizes.put(t, samples.of(t).size()));
        return sizes.entrySet().stream().map(e -> e.getKey().type() + " " + e.getValue())
                .collect(Collectors.joining(", ", "samples (", ")"));
    }

    /** The analyzer's version, as the profiles' instrumentation scope gives it. */
    static String versionOf() {
        String v = ExportCommand.class.getPackage().getImplementationVersion();
        return v == null ? "0.1.0" : v;
    }
}
