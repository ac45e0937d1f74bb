package io.hopscope.analyzer.command;

import static io.hopscope.analyzer.read.HopscopeEvents.each;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.VirtualMachine;
import io.hopscope.analyzer.analysis.live.LiveFigures;
import io.hopscope.analyzer.export.Headers;
import io.hopscope.analyzer.export.LiveMetrics;
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
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
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
import jdk.jfr.consumer.RecordedEvent;
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
 * once an interval, what started, finished and is in flight, with the process's threads and GC pauses.
 */
@Command(name = "live", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Watches a running JVM per request name, once an interval by the events' own timestamps (each"
                + " interval printed once the stream has passed it, about a second late): requests started, finished"
                + " (those begun before live watched apart) and in"
                + " flight (counted from their start, so a growing backlog shows before any of it ends), mean and"
                + " p99 latency, hops per request by kind, queue delay, wake latency, allocation and monitor-enter"
                + " time per request, a server's requests' time in its queue, and the process's live threads and GC"
                + " pause time.",
                "Loads the agent (agent/target/hopscope-agent.jar, or --agent) with AGENT_OPTIONS if the JVM does"
                + " not run it yet; without jfr= the agent starts no recording of its own. Ctrl-C ends it; so does"
                + " the JVM's exit. The JVM must be of this user, JDK 17+, and allow attach.",
                "",
                "Example: hopscope live 4242 requests=com.example.Api#call",
                "         hopscope live 4242 --json --interval 5 > live.jsonl"})
public final class LiveCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "PID", description = "The process id of the JVM to watch (jps lists them).")
    String pid;

    @Parameters(index = "1", arity = "0..1", paramLabel = "AGENT_OPTIONS", defaultValue = "",
            description = "The agent's key=value,... options when it is loaded now (as after -javaagent:...=),"
                    + " e.g. requests=com.example.Api#call; ignored when the agent already runs.")
    String agentOptions;

    @Option(names = "--json", description = "One JSON object per interval and line on stdout (keys: docs/cli.md).")
    boolean json;

    @Option(names = "--interval", defaultValue = "1", paramLabel = "SECONDS",
            description = "Seconds between lines, 0.1 to 3600 (default ${DEFAULT-VALUE}).")
    double intervalSeconds;

    @Mixin
    AgentJarOption agent;

    @Option(names = "--otlp", paramLabel = "URL",
            description = "Also send the figures as OTLP metrics once an interval to this OTLP/HTTP endpoint, e.g."
                    + " http://127.0.0.1:4318 (/v1/metrics added when the URL has no path); headers as for export.")
    URI otlp;

    @Mixin
    EndpointOptions sent;

    /** Counted down to stop: Ctrl-C, SIGTERM, the target's exit. */
    private final CountDownLatch stop = new CountDownLatch(1);
    /** Why it stopped: the first reason given. */
    private final AtomicReference<String> why = new AtomicReference<>();

    @Override
    public Integer call() throws Exception {
        if (!(intervalSeconds >= 0.1 && intervalSeconds <= 3600)) {
            throw new ParameterException(spec.commandLine(), "--interval must be between 0.1 and 3600 seconds, got "
                    + intervalSeconds);
        }
        long target = AttachTarget.parse(pid, "live");
        AgentJar.checkOptions(agentOptions, "live");
        Headers headers = Headers.NONE;
        if (otlp != null) {
            if (!"http".equals(otlp.getScheme()) && !"https".equals(otlp.getScheme()) || otlp.getHost() == null) {
                throw new ParameterException(spec.commandLine(), "--otlp must be an http:// or https:// URL with a host");
            }
            headers = sent.headers("OTEL_EXPORTER_OTLP_METRICS_HEADERS");
        } else if (sent.headersFile != null) {
            throw new ParameterException(spec.commandLine(), "--headers-file is for --otlp");
        }
        AttachTarget.check(target, "live");
        PrintWriter err = spec.commandLine().getErr();
        // From here on Ctrl-C stops cleanly; loading the agent cannot be cut short (it retransforms
        // the target's classes: seconds with hundreds of threads), so a second Ctrl-C ends us at once.
        Runnable restoreSignals = Signals.onInterrupt(() -> {
            if (stop.getCount() == 0) {
                Runtime.getRuntime().halt(130);
            }
            stopBecause("interrupted");
        });
        try {
            String url = attach(target, err);
            if (stop.getCount() == 0) {
                err.println("live: stopped, " + why.get() + ", before watching");
                err.flush();
                return 0;
            }
            JMXConnector connector;
            try {
                connector = JMXConnectorFactory.connect(new JMXServiceURL(url));
            } catch (IOException e) {
                throw new CliProblem("live: cannot connect to the JMX agent of process " + target + " (" + e.getMessage() + ")");
            }
            try {
                return watch(target, connector, err, headers);
            } finally {
                try {
                    connector.close();
                } catch (IOException e) {
                    // The target is gone: nothing to close.
                }
            }
        } finally {
            restoreSignals.run();
        }
    }

    private void stopBecause(String reason) {
        why.compareAndSet(null, reason);
        stop.countDown();
    }

    private int watch(long target, JMXConnector connector, PrintWriter err, Headers headers) throws Exception {
        MBeanServerConnection connection = connector.getMBeanServerConnection();
        ThreadMXBean threads = ManagementFactory.newPlatformMXBeanProxy(connection,
                ManagementFactory.THREAD_MXBEAN_NAME, ThreadMXBean.class);
        long intervalNanos = Math.round(intervalSeconds * 1e9);
        LiveFigures figures = new LiveFigures(intervalNanos);
        Runnable targetGone = () -> stopBecause("process " + target + " exited");
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
        AtomicLong lastThreads = new AtomicLong();
        AtomicReference<String> otlpProblem = new AtomicReference<>();
        LiveMetrics metrics = otlp == null ? null : LiveMetrics.start(otlp, headers, sent.service, lastThreads::get);
        ScheduledExecutorService poller = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hopscope-live-poller");
            t.setDaemon(true);
            return t;
        });
        try {
            stream.setSettings(settings(intervalNanos));
            feed(stream, figures, metrics);
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
            if (metrics != null) {
                long periodMillis = Math.round(intervalSeconds * 1000);
                poller.scheduleAtFixedRate(() -> {
                    String problem = metrics.flush();
                    // Once stopping, an export cut short by the stop is not the endpoint's refusal.
                    if (problem != null && stop.getCount() != 0 && otlpProblem.compareAndSet(null, problem)) {
                        stopBecause("the OTLP endpoint did not take the metrics");
                    }
                }, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
            }
            err.println("live: watching process " + target + " every " + intervalSeconds + " s; Ctrl-C to end");
            err.flush();
            stop.await();
        } finally {
            poller.shutdownNow();
            poller.awaitTermination(5, TimeUnit.SECONDS);
            try {
                stream.close();
            } catch (RuntimeException e) {
                // The target is gone, and its recording with it.
            }
        }
        if (metrics != null) {
            metrics.close();
        }
        if (otlpProblem.get() != null) {
            err.println("hopscope: " + otlpProblem.get());
            err.flush();
            return 2;
        }
        err.println("live: stopped, " + why.get() + ", after " + intervals.get() + " intervals");
        err.flush();
        return 0;
    }

    /**
     * The events live reads, in the target's stream: the agent's clock as a tick a quarter interval, and
     * hopscope.jfc's settings for the JDK events it reads. All are given at once, as {@code event#setting} keys: JDK 17's
     * {@code RemoteRecordingStream.enable(event).with(setting, value)} sends the setting without its
     * event's name, so the target never applies it (a threshold or period set that way is not set).
     */
    static Map<String, String> settings(long intervalNanos) {
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
        jfcSettings(HopscopeContract.MONITOR_ENTER).forEach((setting, value) ->
                settings.put(HopscopeContract.MONITOR_ENTER + "#" + setting, value));
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
        stream.onEvent(HopscopeContract.REQUEST_START, each(new RequestStartEvent(), e -> figures.started(e.requestId(),
                e.name(), e.startNanos())));
        stream.onEvent(HopscopeContract.REQUEST, each(new RequestEvent(), e -> figures.finished(e.requestId(), e.name(),
                e.kind(), e.durationNanos(), e.endNanos())));
        stream.onEvent(HopscopeContract.HOP, each(new HopEvent(), e -> figures.hop(e.requestId(), e.kind(),
                e.delayNanos(), e.serverQueue(), e.endNanos())));
        stream.onEvent(HopscopeContract.SEGMENT, each(new SegmentEvent(), e -> figures.segment(e.requestId(),
                e.eventThread() == null ? -1 : e.eventThread().getJavaThreadId(), e.startNanos(), e.endNanos(),
                e.allocatedBytes())));
        stream.onEvent(HopscopeContract.MOUNTS, each(new MountsEvent(), e -> figures.mounts(e.requestId(),
                e.allocatedBytes())));
        stream.onEvent(HopscopeContract.MONITOR_ENTER, e -> figures.monitorEnter(threadId(e),
                epochNanos(e.getStartTime()), epochNanos(e.getEndTime())));
        stream.onEvent(HopscopeContract.GARBAGE_COLLECTION, e -> figures.gcPause(JdkEventFields.sumOfPausesNanos(e, e.getDuration().toNanos()),
                epochNanos(e.getEndTime())));
        if (metrics != null) {
            stream.onEvent(HopscopeContract.REQUEST_START, each(new RequestStartEvent(),
                    e -> metrics.started(e.requestId())));
            stream.onEvent(HopscopeContract.HOP, each(new HopEvent(), e -> metrics.hop(e.requestId(), e.kind(),
                    e.delayNanos(), e.serverQueue())));
            stream.onEvent(HopscopeContract.REQUEST, each(new RequestEvent(), e -> metrics.finished(e.requestId(),
                    e.name(), e.kind(), e.durationNanos())));
        }
    }

    private static long threadId(RecordedEvent e) {
        return e.getThread() == null ? -1 : e.getThread().getJavaThreadId();
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
