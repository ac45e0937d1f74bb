package io.hopscope.agent.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.testapps.servers.ServerStudy;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.consumer.RecordedEvent;

/**
 * Runs a server's {@link ServerStudy} app under the agent and checks what issue #40 asks of every
 * server: each inbound request found once, by the traceparent its client sent; its first hop the
 * server's hand-over, whose queue delay fits what the client waited less what the handler
 * measured; the pool hop and its way back; the backend call a boundary span inside it; its
 * allocation exact; its status; a malformed traceparent ignored; a failing handler's request ended
 * with its outcome. Only invariants that hold by construction are asserted, never a timing.
 */
public final class ServerChecks {

    private static final Pattern LINE = Pattern.compile(
            "request (\\S+) (\\S+) status (-?\\d+) waited (\\d+) handled (-?\\d+)");

    /** What one server's study is expected to show. */
    public static final class Expected {
        final String app;
        final String boundary;
        String classPath = "";
        Function<String, String> name = path -> "GET " + path;
        String queueFrom;
        String requestThreads;
        int failedStatus = 500;
        int okStatus = 200;
        boolean laterQueueHops;
        String options = "";
        final List<String> jvmArgs = new ArrayList<>();
        boolean callersSpan = true;
        List<String> args = List.of();
        boolean threadPerRequest;
        int orders = ServerStudy.CLIENTS * ServerStudy.REQUESTS_PER_CLIENT;

        /** {@code app}: the class in io.hopscope.testapps.servers; {@code boundary}: its requests' boundary. */
        public Expected(String app, String boundary) {
            this.app = app;
            this.boundary = boundary;
        }

        /** The server library's jars (a class path), besides the test classes. */
        public Expected classPath(String classPath) {
            this.classPath = classPath;
            return this;
        }

        /** The request's expected name for a request of {@code path} (a route: {@code GET /orders/{id}}). */
        public Expected name(Function<String, String> name) {
            this.name = name;
            return this;
        }

        /**
         * The server hands each request over from a thread whose name starts with {@code from} to one
         * whose name starts with {@code to} (each a regular expression: a server's thread names hold
         * its port): the request's first hop, its server queue. Null {@code from}: no hand-over (the
         * thread that reads the request runs it).
         */
        public Expected queue(String from, String to) {
            this.queueFrom = from;
            this.requestThreads = to;
            return this;
        }

        /** The status an answered request ends with: 200, or the protocol's own (gRPC's OK is 0). */
        public Expected okStatus(int status) {
            this.okStatus = status;
            return this;
        }

        /**
         * The server hands a request's later work over through its queue too, from the same thread,
         * whenever the thread that runs its work has gone idle (gRPC's transport, with a call's
         * half-close or messages): a request has one or more server-queue hops, the first of them
         * its first hop, each from {@code from} to {@code to} (see {@link #queue}); their delays
         * follow one another, so together with the handler's time they fit in what the client waited.
         */
        public Expected laterQueueHops() {
            this.laterQueueHops = true;
            return this;
        }

        /** The status the failing handler's request ends with (-1: the server drops the connection). */
        public Expected failedStatus(int status) {
            this.failedStatus = status;
            return this;
        }

        /** More JVM arguments before the class path (another agent, system properties). */
        public Expected jvmArgs(List<String> args) {
            this.jvmArgs.addAll(args);
            return this;
        }

        /**
         * Whether a request's span id is its caller's (the traceparent's parent id): not where an
         * OpenTelemetry agent starts a server span of its own, which the request takes instead.
         */
        public Expected callersSpan(boolean callersSpan) {
            this.callersSpan = callersSpan;
            return this;
        }

        /**
         * The server starts a thread for each request (virtual request threads): no request waits for
         * another's thread, so no queue is certain; each hand-over is still checked.
         */
        public Expected threadPerRequest() {
            this.threadPerRequest = true;
            return this;
        }

        /** The app's arguments (a configuration of its server). */
        public Expected args(String... args) {
            this.args = List.of(args);
            return this;
        }

        /**
         * The study's load: {@code clients} clients of {@code requestsPerClient} orders each, in place
         * of ServerStudy's (system properties of the app's JVM).
         */
        public Expected load(int clients, int requestsPerClient) {
            this.orders = clients * requestsPerClient;
            jvmArgs.add("-D" + ServerStudy.CLIENTS_PROPERTY + "=" + clients);
            jvmArgs.add("-D" + ServerStudy.REQUESTS_PROPERTY + "=" + requestsPerClient);
            return this;
        }

        /** More agent options, each after a comma. */
        public Expected options(String more) {
            this.options = more;
            return this;
        }
    }

    /** What the study's client printed of one request. */
    static final class Sent {
        final String traceId;
        final String path;
        final int status;
        final long waitedNanos;
        final long handledNanos;

        Sent(Matcher m) {
            traceId = m.group(1);
            path = m.group(2);
            status = Integer.parseInt(m.group(3));
            waitedNanos = Long.parseLong(m.group(4));
            handledNanos = Long.parseLong(m.group(5));
        }
    }

    private ServerChecks() {
    }

    /** What a checked study left: its run, and the server's requests by trace id. */
    public static final class Checked {
        public final AgentRun run;
        public final Map<String, Requests.Request> byTrace;

        Checked(AgentRun run, Map<String, Requests.Request> byTrace) {
            this.run = run;
            this.byTrace = byTrace;
        }
    }

    /** Runs the study on {@code java} and checks it. */
    public static Checked check(String java, Expected e) throws Exception {
        AgentRun run = AgentRun.run(java, "jfr=%JFR%,spanthreshold=0" + e.options, command(e));
        String what = e.app + (e.args.isEmpty() ? "" : " " + e.args) + " on " + java;
        assertThat(run.exitCode).as("%s exit; stdout %s; stderr %s", what, run.stdout, run.stderr).isZero();
        Map<String, Requests.Request> byTrace = check(e, run.stdout, run.cleanRequests(e.orders), what);
        return new Checked(run, byTrace);
    }

    /** The study's JVM arguments after the agent's: {@code e}'s, its class path, its app and the app's arguments. */
    private static List<String> command(Expected e) {
        List<String> command = new ArrayList<>(e.jvmArgs);
        command.addAll(List.of("-cp", classPath(e), "io.hopscope.testapps.servers." + e.app));
        command.addAll(e.args);
        return command;
    }

    /** The test applications and the server's libraries. */
    private static String classPath(Expected e) {
        return System.getProperty("hopscope.test.classes")
                + (e.classPath.isEmpty() ? "" : File.pathSeparator + e.classPath);
    }

    /**
     * The study as a program of io.hopscope.testapps.ChaosApp ({@link ChaosRuns}): its libraries, app
     * and arguments. Only for a study that needs no JVM arguments or agent options of its own.
     */
    public static List<String> chaosProgram(Expected e) {
        if (!e.jvmArgs.isEmpty() || !e.options.isEmpty()) {
            throw new IllegalArgumentException(e.app + " needs JVM arguments or agent options of its own");
        }
        List<String> program = new ArrayList<>(List.of("io.hopscope.testapps.servers." + e.app));
        program.addAll(e.args);
        return ChaosRuns.program(e.classPath, program);
    }

    /**
     * Checks one run of the study: what its client printed ({@code stdout}) against the requests
     * recorded meanwhile ({@code all}, by id); {@code what} names the run in messages. The server's
     * requests by trace id.
     */
    public static Map<String, Requests.Request> check(Expected e, String stdout, Map<Long, Requests.Request> all,
            String what) {
        List<Sent> sent = new ArrayList<>();
        for (String line : stdout.split("\n")) {
            Matcher m = LINE.matcher(line.trim());
            if (m.matches()) {
                sent.add(new Sent(m));
            }
        }
        int orders = e.orders;
        assertThat(sent).as("%s: the client's lines", what).hasSize(orders + 2);
        assertThat(all.size()).as("%s: requests", what).isGreaterThanOrEqualTo(orders);
        List<Requests.Request> served = new ArrayList<>();
        for (Requests.Request r : all.values()) {
            assertThat(r.request).as("%s: request %d ended (its Request event)", what, r.id).isNotNull();
            // The study's backend is a JDK server in the same JVM: its requests are apart (and with an
            // OpenTelemetry agent propagating the trace, in the same trace as the request that called it).
            if ("server".equals(r.request.getString("kind")) && e.boundary.equals(r.request.getString("boundary"))
                    && !r.request.getString("name").equals("GET " + ServerStudy.BACKEND_PATH)) {
                served.add(r);
            }
        }
        Map<String, Requests.Request> byTrace = new LinkedHashMap<>();
        List<Requests.Request> untraced = new ArrayList<>();
        List<Requests.Request> failures = new ArrayList<>();
        String failedTrace = sent.get(orders + 1).traceId;
        for (Requests.Request r : served) {
            String traceId = r.request.getString("traceId");
            if (traceId == null) {
                untraced.add(r);
            } else if (traceId.equals(failedTrace)) {
                failures.add(r); // its client may retry it once (HttpURLConnection does, on a dropped connection)
            } else {
                assertThat(byTrace.put(traceId, r)).as("%s: trace %s found once", what, traceId).isNull();
            }
        }
        long held = 0;
        for (int i = 0; i < orders; i++) {
            Sent s = sent.get(i);
            Requests.Request r = byTrace.get(s.traceId);
            assertThat(r).as("%s: the request of trace %s (%s)", what, s.traceId, s.path).isNotNull();
            held = Math.max(held, checkOrder(r, s, e, what + " trace " + s.traceId + " " + hops(r)));
        }
        if (e.queueFrom != null && !e.threadPerRequest) {
            assertThat(held).as("%s: the longest server queue, of the request the first handler held its thread for",
                    what).isGreaterThanOrEqualTo(Duration.ofMillis(ServerStudy.HOLD_MILLIS).toNanos());
        }
        // A malformed traceparent is no trace context (and no failure in the server).
        Sent malformed = sent.get(orders);
        assertThat(malformed.status).as("%s: malformed traceparent's status", what).isEqualTo(e.okStatus);
        assertThat(untraced).as("%s: the request with a malformed traceparent", what)
                .filteredOn(r -> r.request.getString("name").equals(e.name.apply(malformed.path))).hasSize(1);
        // The failing handler: each of its requests (one, or two where the client retried) ends in error.
        Sent failed = sent.get(orders + 1);
        assertThat(failed.status).as("%s: the failing handler's status at the client", what).isEqualTo(e.failedStatus);
        assertThat(failures).as("%s: the failing handler's request", what).hasSizeBetween(1, 2).allSatisfy(r -> {
            assertThat(r.request.getString("name")).isEqualTo(e.name.apply(ServerStudy.FAIL));
            assertThat(r.request.getString("outcome")).isEqualTo("error");
            assertThat(r.request.getInt("statusCode")).isEqualTo(e.failedStatus);
        });
        return byTrace;
    }

    /** Checks one answered order; returns its server queue delay, all its server-queue hops' (0 without a hand-over). */
    private static long checkOrder(Requests.Request r, Sent s, Expected e, String what) {
        RecordedEvent request = r.request;
        assertThat(s.status).as(what).isEqualTo(e.okStatus);
        assertThat(request.getString("name")).as(what).isEqualTo(e.name.apply(s.path));
        assertThat(request.getInt("statusCode")).as(what).isEqualTo(e.okStatus);
        assertThat(request.getString("outcome")).as(what).isEqualTo("ok");
        if (e.callersSpan) {
            int n = Integer.parseInt(s.path.substring(ServerStudy.ORDERS.length()));
            assertThat(request.getString("spanId")).as(what + ": the caller's span").isEqualTo(String.format("%016x", 0x100 + n));
        }
        // The handler's own time is inside the request. (Its end may come after the client has read the
        // response: a server ends an exchange once it has written it, so no bound by what the client waited.)
        assertThat(request.getDuration().toNanos()).as(what + ": duration holds the handler's time")
                .isGreaterThanOrEqualTo(s.handledNanos);
        long queue = 0;
        List<RecordedEvent> queueHops = new ArrayList<>();
        for (RecordedEvent h : r.hops) {
            if (h.getBoolean("serverQueue")) {
                queueHops.add(h);
            }
        }
        if (e.queueFrom == null) {
            assertThat(queueHops).as(what + ": no hand-over").isEmpty();
        } else {
            if (e.laterQueueHops) {
                assertThat(queueHops).as(what + ": the server's hand-overs").isNotEmpty();
            } else {
                assertThat(queueHops).as(what + ": the server's hand-over").hasSize(1);
            }
            assertThat(r.hops.get(0)).as(what + ": the hand-over is the first hop").isSameAs(queueHops.get(0));
            for (RecordedEvent hop : queueHops) {
                assertThat(hop.getString("kind")).as(what).isEqualTo("handoff");
                assertThat(Requests.threadName(hop, "fromThread")).as(what).containsPattern("^" + e.queueFrom);
                assertThat(Requests.threadName(hop, "toThread")).as(what).containsPattern("^" + e.requestThreads);
                assertThat(hop.getLong("delayNanos")).as(what + ": queue delay").isNotNegative();
                queue += hop.getLong("delayNanos");
            }
            assertThat(queue + s.handledNanos).as(what + ": queue and handler within what the client waited")
                    .isLessThanOrEqualTo(s.waitedNanos);
        }
        // The pool's hop and its way back.
        assertThat(r.hops).as(what + ": the handoff to the pool").anySatisfy(h -> {
            assertThat(h.getString("kind")).isEqualTo("handoff");
            assertThat(h.getBoolean("serverQueue")).isFalse();
            assertThat(Requests.threadName(h, "toThread")).isEqualTo("study-pool");
        });
        assertThat(r.hops).as(what + ": the way back from the pool").anySatisfy(h -> {
            assertThat(h.getString("kind")).isIn("wake", "return");
            assertThat(Requests.threadName(h, "fromThread")).isEqualTo("study-pool");
        });
        assertThat(r.spans).as(what + ": the backend call, a span inside").anySatisfy(span -> {
            assertThat(span.getString("kind")).isEqualTo("boundary");
            assertThat(span.getString("name")).isEqualTo(ServerStudy.BACKEND_BOUNDARY);
        });
        // Exact allocation: the pool's task allocated this much in a segment of the request.
        assertThat(r.allocatedBytesOn("study-pool")).as(what).isGreaterThanOrEqualTo(ServerStudy.POOL_TASK_BYTES);
        return queue;
    }

    /** A request's hops as "kind from->to", for messages. */
    private static List<String> hops(Requests.Request r) {
        List<String> hops = new ArrayList<>();
        for (RecordedEvent h : r.hops) {
            hops.add(h.getString("kind") + (h.getBoolean("serverQueue") ? "(server queue)" : "") + " "
                    + Requests.threadName(h, "fromThread") + "->" + Requests.threadName(h, "toThread"));
        }
        return hops;
    }

    /** The provided-scope libraries the agent compiles against, as a class path (the servers among them). */
    public static String libraries() throws Exception {
        return Files.readString(Path.of(System.getProperty("hopscope.client.classpath"))).trim();
    }
}
