package io.hopscope.analyzer.command;

import static io.hopscope.analyzer.read.HopscopeEvents.each;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.VirtualMachine;
import io.hopscope.analyzer.analysis.AnalysisOptions;
import io.hopscope.analyzer.analysis.live.LiveFigures;
import io.hopscope.analyzer.export.Headers;
import io.hopscope.analyzer.export.LiveMetrics;
import io.hopscope.analyzer.export.OtlpProfiles;
import io.hopscope.analyzer.export.Outbox;
import io.hopscope.analyzer.export.PprofProfile;
import io.hopscope.analyzer.export.ProfileWindows;
import io.hopscope.analyzer.export.SampleType;
import io.hopscope.analyzer.model.LiveInterval;
import io.hopscope.analyzer.output.LiveJson;
import io.hopscope.analyzer.output.LiveText;
import io.hopscope.analyzer.read.HopscopeContract;
import io.hopscope.analyzer.read.HopscopeEvents.HopEvent;
import io.hopscope.analyzer.read.HopscopeEvents.MountsEvent;
import io.hopscope.analyzer.read.HopscopeEvents.RequestEvent;
import io.hopscope.analyzer.read.HopscopeEvents.RequestStartEvent;
import io.hopscope.analyzer.read.HopscopeEvents.SegmentEvent;
import io.hopscope.analyzer.read.JdkEventFields;
import io.hopscope.settings.AttachProperties;
import io.hopscope.settings.HopscopeJfc;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnectionNotification;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import jdk.jfr.consumer.EventStream;
import io.hopscope.analyzer.read.JdkEvent;
import io.hopscope.analyzer.read.JfrEvent;
import jdk.management.jfr.RemoteRecordingStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hopscope live PID}: attaches the agent to a running JVM if it is not there yet, streams its
 * events over the JVM's local JMX agent (JDK's RemoteRecordingStream) and prints per request name,
 * once an interval, what started, finished and is in flight, with the process's threads and GC pauses;
 * with {@code --otlp} also sends them as metrics, and with {@code --otlp} or {@code --push} each
 * window's per-request profiles, kept through an endpoint's outages ({@link Outbox}). With
 * {@code --wait PATTERN} it watches the JVM that matches, then the next one, for as long as it runs.
 */
@Command(name = "live", mixinStandardHelpOptions = true, sortOptions = false,
        customSynopsis = "hopscope live (PID | --wait PATTERN) [AGENT_OPTIONS] [OPTIONS]",
        description = {"Watches a running JVM per request name, once an interval by the events' own timestamps (each"
                + " interval printed once the stream has passed it, about a second late): requests started, finished"
                + " (those begun before live watched apart) and in"
                + " flight (counted from their start, so a growing backlog shows before any of it ends), mean and"
                + " p99 latency, hops per request by kind, queue delay, wake latency, allocation and monitor-enter"
                + " time per request, a server's requests' time in its queue, and the process's live threads and GC"
                + " pause time.",
                "Loads the agent (agent/target/hopscope-agent.jar, or --agent) with AGENT_OPTIONS if the JVM does"
                + " not run it yet; without jfr= the agent starts no recording of its own. Ctrl-C ends it; so does"
                + " the JVM's exit, unless --wait. The JVM must be of this user, JDK 17+, and allow attach.",
                "--otlp also sends the figures as OTLP metrics each interval and, with --otlp or --push, each"
                + " --profile-interval window's per-request profiles (the sample types export gives). When an endpoint"
                + " is away, what live would send is kept (--buffer windows) and sent oldest first when it is back;"
                + " the oldest is dropped when full, counted in hopscope.export.dropped. A refusal that would repeat"
                + " (bad credentials, a wrong path) is one line and exit 2.",
                "--wait PATTERN: watches the JVM whose main class or jar (as jcmd -l shows it, or the jar's file"
                + " name; * and ? match any characters, one) matches, and when it exits waits for the next: a"
                + " sidecar's shape (docs/cli.md, In production).",
                "",
                "Example: hopscope live 4242 requests=com.example.Api#call",
                "         hopscope live 4242 --json --interval 5 > live.jsonl",
                "         hopscope live --wait app.jar --otlp http://collector:4318"})
public final class LiveCommand implements Callable<Integer> {

    /** The system property that seeds the jitter of the retries' backoff (tests fix it; else one per process). */
    static final String RETRY_SEED_PROPERTY = "hopscope.retry.seed";
    private static final long DEFAULT_PROFILE_INTERVAL_SECONDS = 60;
    // At live's end, what is queued for an endpoint gets this long to be taken.
    private static final long DRAIN_NANOS = TimeUnit.SECONDS.toNanos(10);
    // How often --wait looks for a matching JVM.
    private static final long WAIT_POLL_MILLIS = 500;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "PID",
            description = "The process id of the JVM to watch (jps lists them); none with --wait.")
    String pid;

    @Parameters(index = "1", arity = "0..1", paramLabel = "AGENT_OPTIONS", defaultValue = "",
            description = "The agent's key=value,... options when it is loaded now (as after -javaagent:...=),"
                    + " e.g. requests=com.example.Api#call; ignored when the agent already runs.")
    String agentOptions;

    @Option(names = "--wait", paramLabel = "PATTERN",
            description = "Instead of a PID: watch the JVM whose main class or jar matches PATTERN (as jcmd -l shows"
                    + " it, or the jar's file name; * and ? wildcards), and when it exits the next one, until Ctrl-C.")
    String waitPattern;

    @Option(names = "--json", description = "One JSON object per interval and line on stdout (keys: docs/cli.md).")
    boolean json;

    @Option(names = "--interval", defaultValue = "1", paramLabel = "SECONDS",
            description = "Seconds between lines, 0.1 to 3600 (default ${DEFAULT-VALUE}).")
    double intervalSeconds;

    @Mixin
    AgentJarOption agent;

    @Option(names = "--otlp", paramLabel = "URL",
            description = "Also send the figures as OTLP metrics once an interval to this OTLP/HTTP endpoint, e.g."
                    + " http://127.0.0.1:4318 (/v1/metrics added when the URL has no path), and each window's"
                    + " profiles (/v1development/profiles); headers as for export.")
    URI otlp;

    @Option(names = "--push", paramLabel = "URL",
            description = "Also send each window's profiles as pprof to a Pyroscope-compatible server, e.g."
                    + " http://pyroscope:4040 (/ingest added when the URL has no path).")
    URI push;

    @Option(names = "--profile-interval", paramLabel = "SECONDS",
            description = "Seconds of each profile window, 1 to 3600, or 0 for no profiles (default "
                    + DEFAULT_PROFILE_INTERVAL_SECONDS + "; with --otlp or --push).")
    Long profileIntervalSeconds;

    @Option(names = "--buffer", paramLabel = "WINDOWS",
            description = "While an endpoint is away, keep this many profile windows, and the metrics of as long"
                    + " (default ${DEFAULT-VALUE}); then the oldest are dropped.", defaultValue = "5")
    int bufferWindows;

    @Mixin
    EndpointOptions sent;

    /** Counted down when live stops: Ctrl-C, SIGTERM, an endpoint's refusal. */
    private final CountDownLatch stopped = new CountDownLatch(1);
    /** Why live stopped: the first reason given. */
    private final AtomicReference<String> why = new AtomicReference<>();
    /** An endpoint's refusal that would repeat: live ends with it, exit 2. */
    private final AtomicReference<String> refusal = new AtomicReference<>();
    /** The watch of the JVM watched now (counted down when it ends), or null. */
    private volatile CountDownLatch watching;
    private volatile String watchEnd;

    // What live sends, when it sends: the endpoints' outboxes, the metrics, and the profiles' headers.
    private Outbox otlpOutbox;
    private Outbox pushOutbox;
    private LiveMetrics metrics;
    private Headers profileHeaders = Headers.NONE;
    private final AtomicLong lastThreads = new AtomicLong();
    private final AtomicLong windows = new AtomicLong();

    @Override
    public Integer call() throws Exception {
        if (!(intervalSeconds >= 0.1 && intervalSeconds <= 3600)) {
            throw new ParameterException(spec.commandLine(), "--interval must be between 0.1 and 3600 seconds, got "
                    + intervalSeconds);
        }
        JvmPattern wait = null;
        long target = -1;
        if (waitPattern != null) {
            if (pid != null && !agentOptions.isEmpty() || pid != null && pid.matches("\\d+")) {
                throw new ParameterException(spec.commandLine(), "give a PID or --wait PATTERN, not both");
            }
            if (waitPattern.isBlank()) {
                throw new ParameterException(spec.commandLine(), "--wait needs a main class or jar to match, e.g. app.jar");
            }
            if (pid != null) {
                agentOptions = pid; // the one word after live is the agent's options when there is no PID
            }
            wait = new JvmPattern(waitPattern);
        } else if (pid == null) {
            throw new ParameterException(spec.commandLine(), "give the PID of the JVM to watch, or --wait PATTERN");
        } else {
            target = AttachTarget.parse(pid, "live");
        }
        AgentJar.checkOptions(agentOptions, "live");
        checkEndpoint(otlp, "--otlp");
        checkEndpoint(push, "--push");
        boolean sends = otlp != null || push != null;
        if (sent.headersFile != null && !sends) {
            throw new ParameterException(spec.commandLine(), "--headers-file is for --otlp or --push");
        }
        if (profileIntervalSeconds != null && (!sends || profileIntervalSeconds != 0 && (profileIntervalSeconds < 1
                || profileIntervalSeconds > 3600))) {
            throw new ParameterException(spec.commandLine(), !sends ? "--profile-interval is for --otlp or --push"
                    : "--profile-interval must be 0 (no profiles) or between 1 and 3600 seconds, got " + profileIntervalSeconds);
        }
        long profileSeconds = !sends ? 0 : profileIntervalSeconds == null ? DEFAULT_PROFILE_INTERVAL_SECONDS
                : profileIntervalSeconds;
        if (push != null && profileSeconds == 0) {
            throw new ParameterException(spec.commandLine(), "--push sends profiles: --profile-interval 0 leaves it nothing");
        }
        if (bufferWindows < 1) {
            throw new ParameterException(spec.commandLine(), "--buffer must be at least 1 window, got " + bufferWindows);
        }
        Headers metricHeaders = otlp != null ? sent.headers("OTEL_EXPORTER_OTLP_METRICS_HEADERS") : Headers.NONE;
        profileHeaders = sends ? sent.headers("OTEL_EXPORTER_OTLP_PROFILES_HEADERS") : Headers.NONE;
        if (target > 0) {
            AttachTarget.check(target, "live");
        }
        PrintWriter err = spec.commandLine().getErr();
        // From here on Ctrl-C stops cleanly; loading the agent cannot be cut short (it retransforms
        // the target's classes: seconds with hundreds of threads), so a second Ctrl-C ends us at once.
        Runnable restoreSignals = Signals.onInterrupt(() -> {
            if (stopped.getCount() == 0) {
                Runtime.getRuntime().halt(130);
            }
            stopBecause("interrupted");
        });
        ScheduledExecutorService collector = null;
        int intervals = 0;
        int watched = 0;
        try {
            startSending(profileSeconds, metricHeaders, err);
            if (metrics != null) {
                // Once an interval while a JVM is watched: the figures gathered, one export for the outbox.
                collector = daemonScheduler("hopscope-live-metrics");
                long periodMillis = Math.round(intervalSeconds * 1000);
                collector.scheduleAtFixedRate(() -> {
                    if (watching != null) {
                        metrics.collect();
                    }
                }, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
            }
            Set<Long> refusedPids = new HashSet<>();
            while (stopped.getCount() != 0) {
                long pidNow = target > 0 ? target : awaitMatch(wait, refusedPids, err);
                if (pidNow < 0) {
                    break;
                }
                int done;
                try {
                    done = watch(pidNow, profileSeconds, err);
                } catch (CliProblem e) {
                    if (wait == null) {
                        throw e;
                    }
                    // One JVM that cannot be watched (another JDK, gone meanwhile): said, and not tried again.
                    err.println(e.getMessage() + "; waiting for another JVM matching '" + wait + "'");
                    err.flush();
                    refusedPids.add(pidNow);
                    continue;
                }
                if (done < 0) {
                    err.println("live: stopped, " + why.get() + ", before watching");
                    err.flush();
                    break;
                }
                intervals += done;
                watched++;
                if (wait == null || stopped.getCount() == 0) {
                    break;
                }
                err.println("live: " + watchEnd + " after " + done + " intervals; waiting for the next JVM matching '"
                        + wait + "'");
                err.flush();
            }
        } finally {
            if (collector != null) {
                collector.shutdownNow();
                collector.awaitTermination(5, TimeUnit.SECONDS);
            }
            String sentLine = stopSending();
            restoreSignals.run();
            if (refusal.get() != null) {
                err.println("hopscope: " + refusal.get());
                err.flush();
            } else if (watched > 0) {
                String reason = wait == null && why.get() == null ? watchEnd : why.get();
                err.println("live: stopped, " + reason + ", after " + intervals + " intervals" + sentLine);
                err.flush();
            } else if (wait != null && why.get() != null) {
                err.println("live: stopped, " + why.get() + ", no JVM matching '" + wait + "' watched" + sentLine);
                err.flush();
            }
        }
        return refusal.get() != null ? 2 : 0;
    }

    private void checkEndpoint(URI uri, String option) {
        if (uri != null && (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null)) {
            throw new ParameterException(spec.commandLine(), option + " must be an http:// or https:// URL with a host");
        }
    }

    private void stopBecause(String reason) {
        why.compareAndSet(null, reason);
        stopped.countDown();
        CountDownLatch w = watching;
        if (w != null) {
            w.countDown();
        }
    }

    // The endpoints' outboxes and the metrics, for as long as live runs (through every JVM it watches).
    private void startSending(long profileSeconds, Headers metricHeaders, PrintWriter err) {
        long seed = Long.getLong(RETRY_SEED_PROPERTY, ProcessHandle.current().pid() * 1_000_003L ^ System.nanoTime());
        Random jitter = new Random(seed);
        // The metrics of as long as the profile windows kept (a minute a window when there are none).
        long keptSeconds = bufferWindows * (profileSeconds > 0 ? profileSeconds : DEFAULT_PROFILE_INTERVAL_SECONDS);
        int keptMetrics = (int) Math.max(1, Math.min(100_000, Math.round(keptSeconds / intervalSeconds)));
        if (otlp != null) {
            Map<Outbox.Signal, Integer> capacity = new EnumMap<>(Outbox.Signal.class);
            if (profileSeconds > 0) {
                capacity.put(Outbox.Signal.profiles, bufferWindows);
            }
            capacity.put(Outbox.Signal.metrics, keptMetrics);
            otlpOutbox = new Outbox(Outbox.endpointOf(otlp), capacity, jitter, err, this::refused);
            metrics = LiveMetrics.start(otlp, metricHeaders, sent.service, lastThreads::get, this::dropped,
                    otlpOutbox::offer);
        }
        if (push != null) {
            pushOutbox = new Outbox(Outbox.endpointOf(push), Map.of(Outbox.Signal.profiles, bufferWindows), jitter, err,
                    this::refused);
        }
    }

    private void refused(String line) {
        String hint = line.contains("HTTP 401") || line.contains("HTTP 403")
                ? " (its headers come from OTEL_EXPORTER_OTLP_HEADERS, the signal's own variable or --headers-file)"
                : line.contains("/v1development/profiles") && line.contains("HTTP 404")
                ? " (a Collector takes profiles with --feature-gates=+service.profilesSupport; --profile-interval 0"
                        + " sends metrics only)" : "";
        if (refusal.compareAndSet(null, line + hint)) {
            stopBecause("an endpoint refused");
        }
    }

    private long dropped(Outbox.Signal signal) {
        return (otlpOutbox == null ? 0 : otlpOutbox.dropped(signal)) + (pushOutbox == null ? 0 : pushOutbox.dropped(signal));
    }

    // The last metrics export and what the outboxes hold get their chance; returns what was sent, for the last line.
    private String stopSending() {
        if (metrics != null) {
            metrics.close();
        }
        List<String> parts = new ArrayList<>();
        for (Outbox o : new Outbox[] {otlpOutbox, pushOutbox}) {
            if (o != null) {
                o.close(DRAIN_NANOS);
            }
        }
        if (otlpOutbox != null || pushOutbox != null) {
            long profilesSent = (otlpOutbox == null ? 0 : otlpOutbox.sent(Outbox.Signal.profiles))
                    + (pushOutbox == null ? 0 : pushOutbox.sent(Outbox.Signal.profiles));
            parts.add("; sent " + profilesSent + " of " + windows.get() * ((otlpOutbox != null ? 1 : 0)
                    + (pushOutbox != null ? 1 : 0)) + " profile windows, dropped " + dropped(Outbox.Signal.profiles));
            if (otlpOutbox != null) {
                parts.add("; sent " + otlpOutbox.sent(Outbox.Signal.metrics) + " metrics exports, dropped "
                        + dropped(Outbox.Signal.metrics));
            }
        }
        return String.join("", parts);
    }

    /** A closed window's profiles, into each endpoint's outbox. */
    private void ship(ProfileWindows.Window w) {
        windows.incrementAndGet();
        if (otlpOutbox != null) {
            ExportProfilesServiceRequest request = OtlpProfiles.of(w.samples(), sent.service, ExportCommand.versionOf(),
                    w.startNanos(), w.endNanos());
            URI uri = ExportCommand.otlpUri(otlp);
            int profiles = ExportCommand.profiles(request);
            Headers headers = profileHeaders;
            otlpOutbox.offer(new Outbox.Batch(Outbox.Signal.profiles, uri, request.toByteArray(), "application/x-protobuf",
                    headers, answer -> ExportCommand.rejected(answer, profiles, uri, headers)));
        }
        if (pushOutbox != null) {
            pushOutbox.offer(new Outbox.Batch(Outbox.Signal.profiles, ExportCommand.pushUri(push, sent.service,
                    w.startNanos(), w.endNanos()), PprofProfile.gzipped(PprofProfile.of(w.samples(), w.startNanos(),
                    w.endNanos())), "application/octet-stream", profileHeaders, null));
        }
    }

    /** Waits for a JVM that matches (none of {@code refused}); -1 when live is stopped first. */
    private long awaitMatch(JvmPattern wait, Set<Long> refused, PrintWriter err) throws InterruptedException {
        boolean said = false;
        while (stopped.getCount() != 0) {
            refused.removeIf(p -> ProcessHandle.of(p).map(h -> !h.isAlive()).orElse(true));
            List<JvmPattern.Match> matches = new ArrayList<>(wait.find());
            matches.removeIf(m -> refused.contains(m.pid()));
            if (!matches.isEmpty()) {
                JvmPattern.Match first = matches.get(0);
                if (matches.size() > 1) {
                    Set<Long> others = new LinkedHashSet<>();
                    matches.subList(1, matches.size()).forEach(m -> others.add(m.pid()));
                    err.println("live: " + matches.size() + " JVMs match '" + wait + "'; watching " + first.pid()
                            + " (" + first.main() + "), the oldest, not " + others);
                }
                err.println("live: process " + first.pid() + " (" + first.main() + ") matches '" + wait + "'");
                err.flush();
                return first.pid();
            }
            if (!said) {
                err.println("live: waiting for a JVM matching '" + wait + "'; Ctrl-C to end");
                err.flush();
                said = true;
            }
            stopped.await(WAIT_POLL_MILLIS, TimeUnit.MILLISECONDS);
        }
        return -1;
    }

    /**
     * Attaches to {@code target} and watches it until it exits or live stops; returns the intervals
     * printed, or -1 when live was stopped while the agent loaded.
     */
    private int watch(long target, long profileSeconds, PrintWriter err) throws Exception {
        String url = attach(target, err);
        if (stopped.getCount() == 0) {
            return -1;
        }
        JMXConnector connector;
        try {
            connector = JMXConnectorFactory.connect(new JMXServiceURL(url));
        } catch (IOException e) {
            throw new CliProblem("live: cannot connect to the JMX agent of process " + target + " (" + e.getMessage() + ")");
        }
        try {
            return stream(target, connector, profileSeconds, err);
        } finally {
            try {
                connector.close();
            } catch (IOException e) {
                // The target is gone: nothing to close.
            }
        }
    }

    private int stream(long target, JMXConnector connector, long profileSeconds, PrintWriter err) throws Exception {
        MBeanServerConnection connection = connector.getMBeanServerConnection();
        ThreadMXBean threads = ManagementFactory.newPlatformMXBeanProxy(connection,
                ManagementFactory.THREAD_MXBEAN_NAME, ThreadMXBean.class);
        long intervalNanos = Math.round(intervalSeconds * 1e9);
        LiveFigures figures = new LiveFigures(intervalNanos);
        CountDownLatch ended = new CountDownLatch(1);
        watchEnd = null;
        Runnable targetGone = () -> {
            if (watchEnd == null) {
                watchEnd = "process " + target + " exited";
            }
            ended.countDown();
        };
        connector.addConnectionNotificationListener((n, h) -> {
            if (JMXConnectionNotification.FAILED.equals(n.getType()) || JMXConnectionNotification.CLOSED.equals(n.getType())) {
                targetGone.run();
            }
        }, null, null);
        RemoteRecordingStream stream;
        try {
            stream = new RemoteRecordingStream(connection);
        } catch (IOException | RuntimeException e) {
            throw new CliProblem("live: process " + target + " offers no JFR stream over JMX (" + e.getMessage()
                    + "); it needs JDK 17 or newer");
        }
        AtomicInteger intervals = new AtomicInteger();
        ScheduledExecutorService poller = daemonScheduler("hopscope-live-poller");
        ProfileWindows profiles = profileSeconds == 0 ? null : new ProfileWindows("process " + target,
                TimeUnit.SECONDS.toNanos(profileSeconds), epochNanos(Instant.now()), AnalysisOptions.defaultDetailBytes(),
                this::ship);
        if (metrics != null) {
            metrics.newTarget();
        }
        try {
            stream.setSettings(settings(intervalNanos, profiles != null));
            feed(stream, figures, metrics);
            if (profiles != null) {
                profiles.watch(stream);
            }
            PrintWriter out = spec.commandLine().getOut();
            // After each flush every event committed before it has been read: print the intervals it passed.
            stream.onFlush(() -> {
                for (LiveInterval interval : figures.passed()) {
                    if (json) {
                        out.println(LiveJson.line(interval));
                    } else {
                        LiveText.lines(interval).forEach(out::println);
                    }
                    intervals.incrementAndGet();
                }
                out.flush();
            });
            stream.onClose(targetGone);
            stream.onError(e -> targetGone.run());
            // The stream's copy of the target's chunks is kept on this machine's disk: a minute is plenty.
            stream.setMaxAge(Duration.ofMinutes(1));
            watching = ended;
            if (stopped.getCount() == 0) {
                ended.countDown();
            }
            stream.startAsync();
            // The thread count over JMX, asked apart from the stream (a slow answer never holds it) a few times
            // an interval and put in the interval of when it was asked; the call fails once the JVM is gone.
            poller.scheduleAtFixedRate(() -> {
                try {
                    int count = threads.getThreadCount();
                    lastThreads.set(count);
                    figures.threads(count, epochNanos(Instant.now()));
                } catch (RuntimeException e) {
                    targetGone.run();
                }
            }, 0, Math.min(250, Math.max(25, Math.round(intervalSeconds * 250))), TimeUnit.MILLISECONDS);
            err.println("live: watching process " + target + " every " + intervalSeconds + " s"
                    + (profiles == null ? "" : ", its profiles every " + profileSeconds + " s") + "; Ctrl-C to end");
            err.flush();
            ended.await();
        } finally {
            watching = null;
            poller.shutdownNow();
            poller.awaitTermination(5, TimeUnit.SECONDS);
            try {
                stream.close();
            } catch (RuntimeException e) {
                // The target is gone, and its recording with it.
            }
            // Closing a gone target's stream can fail, and its thread may still be handing over events:
            // the profiles' last windows are closed once it is done.
            stream.awaitTermination(Duration.ofSeconds(10));
        }
        if (profiles != null) {
            // The stream's thread is done: the requests that waited for their lag, and the last windows.
            profiles.end(epochNanos(Instant.now()));
        }
        return intervals.get();
    }

    private static ScheduledExecutorService daemonScheduler(String name) {
        return Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * The events live reads, in the target's stream: the agent's clock as a tick a quarter interval; with
     * profiles, the JDK events their sample types join, with hopscope.jfc's settings (what export finds in
     * the agent's own recording). All are given at once, as {@code event#setting} keys: JDK 17's
     * {@code RemoteRecordingStream.enable(event).with(setting, value)} sends the setting without its
     * event's name, so the target never applies it (a threshold or period set that way is not set).
     */
    static Map<String, String> settings(long intervalNanos, boolean profiles) {
        Map<String, String> settings = new java.util.LinkedHashMap<>();
        // The agent's clock event as a tick: the stream's position moves on in a quiet application too,
        // so its quiet intervals print on time (a quarter of the interval late at most, after the flush).
        settings.put(HopscopeContract.CLOCK_SYNC + "#enabled", "true");
        settings.put(HopscopeContract.CLOCK_SYNC + "#period", Math.min(250, intervalNanos / 4_000_000L) + " ms");
        for (String event : List.of(HopscopeContract.REQUEST_START, HopscopeContract.REQUEST, HopscopeContract.HOP,
                HopscopeContract.SEGMENT, HopscopeContract.MOUNTS, HopscopeContract.GARBAGE_COLLECTION)) {
            settings.put(event + "#enabled", "true");
        }
        // hopscope.jfc's threshold (shorter monitor enters are a pool's normal rhythm), without the
        // stacks that cost at every contended enter (docs/agent.md, lockstacks=).
        Set<String> jfc = new LinkedHashSet<>(List.of(HopscopeContract.MONITOR_ENTER));
        if (profiles) {
            for (SampleType type : SampleType.values()) {
                jfc.addAll(type.events());
            }
        }
        for (String event : jfc) {
            // Those hopscope.jfc does not record (native method samples, async-profiler's) stay off, as in the
            // agent's own recording.
            jfcSettings(event).forEach((setting, value) -> settings.put(event + "#" + setting, value));
        }
        return settings;
    }

    /** Every setting hopscope.jfc gives {@code event} (threshold, stackTrace, period...), none when it has none. */
    static Map<String, String> jfcSettings(String event) {
        Map<String, String> settings = new java.util.LinkedHashMap<>();
        try {
            jdk.jfr.Configuration.create(new java.io.StringReader(HopscopeJfc.text())).getSettings().forEach((key, value) -> {
                if (key.startsWith(event + "#")) {
                    settings.put(key.substring(event.length() + 1), value);
                }
            });
        } catch (IOException | java.text.ParseException e) {
            throw new IllegalStateException(HopscopeJfc.RESOURCE + " cannot be read: " + e.getMessage(), e);
        }
        return settings;
    }

    /**
     * Hands {@code stream}'s events to the figures and, with {@code --otlp}, the metrics (null: none): the
     * target's stream here, a recording's in tests ({@code EventStream.openFile}), the same handlers.
     */
    static void feed(EventStream stream, LiveFigures figures, LiveMetrics metrics) {
        stream.onEvent(HopscopeContract.CLOCK_SYNC, e -> figures.tick(epochNanos(e.getEndTime())));
        // Each handler has its own view: the stream calls them on its one thread.
        stream.onEvent(HopscopeContract.REQUEST_START, JdkEvent.adapt(each(new RequestStartEvent(),
                e -> figures.started(e.requestId(), e.name(), e.startNanos()))));
        stream.onEvent(HopscopeContract.REQUEST, JdkEvent.adapt(each(new RequestEvent(), e -> figures.finished(e.requestId(),
                e.name(), e.kind(), e.durationNanos(), e.endNanos()))));
        stream.onEvent(HopscopeContract.HOP, JdkEvent.adapt(each(new HopEvent(), e -> figures.hop(e.requestId(), e.kind(),
                e.delayNanos(), e.serverQueue(), e.endNanos()))));
        stream.onEvent(HopscopeContract.SEGMENT, JdkEvent.adapt(each(new SegmentEvent(), e -> figures.segment(e.requestId(),
                e.eventThread() == null ? -1 : e.eventThread().javaThreadId(), e.startNanos(), e.endNanos(),
                e.allocatedBytes()))));
        stream.onEvent(HopscopeContract.MOUNTS, JdkEvent.adapt(each(new MountsEvent(), e -> figures.mounts(e.requestId(),
                e.allocatedBytes()))));
        stream.onEvent(HopscopeContract.MONITOR_ENTER, JdkEvent.adapt(e -> figures.monitorEnter(threadId(e),
                e.startNanos(), e.endNanos())));
        stream.onEvent(HopscopeContract.GARBAGE_COLLECTION, JdkEvent.adapt(e -> figures.gcPause(
                JdkEventFields.sumOfPausesNanos(e, e.durationNanos()), e.endNanos())));
        if (metrics != null) {
            stream.onEvent(HopscopeContract.REQUEST_START, JdkEvent.adapt(each(new RequestStartEvent(),
                    e -> metrics.started(e.requestId()))));
            stream.onEvent(HopscopeContract.HOP, JdkEvent.adapt(each(new HopEvent(), e -> metrics.hop(e.requestId(), e.kind(),
                    e.delayNanos(), e.serverQueue()))));
            stream.onEvent(HopscopeContract.REQUEST, JdkEvent.adapt(each(new RequestEvent(), e -> metrics.finished(e.requestId(),
                    e.name(), e.kind(), e.durationNanos()))));
        }
    }

    private static long threadId(JfrEvent e) {
        return e.thread() == null ? -1 : e.thread().javaThreadId();
    }

    private static long epochNanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    /** The oldest JDK whose JFR streams its events (JEP 349), which live reads. */
    static final int OLDEST_STREAMING_FEATURE = 14;

    /**
     * Refuses, before loading the agent, a target whose JDK cannot stream its recording: the agent
     * runs there (JDK 11+), but live has nothing to read; attach records it.
     */
    static void checkStreams(long target, Properties properties) throws CliProblem {
        String spec = properties.getProperty("java.specification.version", "");
        int feature;
        try {
            feature = Integer.parseInt(spec.startsWith("1.") ? spec.substring(2) : spec);
        } catch (NumberFormatException e) {
            return; // unknown: try, and say what fails
        }
        if (feature < OLDEST_STREAMING_FEATURE) {
            throw new CliProblem("live: process " + target + " runs JDK " + properties.getProperty("java.version", spec)
                    + ", whose JFR cannot stream events (JDK " + OLDEST_STREAMING_FEATURE + "+); record it instead:"
                    + " hopscope attach " + target + ", then hopscope attach " + target + " --stop -o FILE");
        }
    }

    /** Attaches, loads the agent unless it runs already, and returns the JVM's local JMX address. */
    private String attach(long target, PrintWriter err) throws CliProblem {
        VirtualMachine vm = AttachTarget.attach(target, "live");
        try {
            Properties properties = vm.getSystemProperties();
            checkStreams(target, properties);
            if (properties.getProperty(AttachProperties.STARTED) == null) {
                Path jar = agent.find("live");
                vm.loadAgent(jar.toString(), agentOptions);
                err.println("live: loaded the agent into process " + target
                        + (agentOptions.isEmpty() ? "" : " with " + agentOptions));
            } else if (!agentOptions.isEmpty()) {
                err.println("live: the agent already runs in process " + target + "; " + agentOptions + " ignored");
            }
            return vm.startLocalManagementAgent();
        } catch (AgentLoadException | AgentInitializationException e) {
            throw new CliProblem("live: the agent did not load into process " + target + " (" + e.getMessage() + ")");
        } catch (IOException e) {
            throw new CliProblem("live: process " + target + " stopped answering the attach API (" + e.getMessage() + ")");
        } finally {
            try {
                vm.detach();
            } catch (IOException e) {
                // Detaching from a JVM that is gone: nothing left to do.
            }
        }
    }
}
