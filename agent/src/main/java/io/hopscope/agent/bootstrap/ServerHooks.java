package io.hopscope.agent.bootstrap;

/**
 * Hooks of inbound requests, those a server receives (runtime's Servers): where a server's handling
 * of one begins on a thread, the layers inside it, where it ends, and the server's hand-over of it
 * to the thread that runs it. See {@link Hook} for the Bridge forwarder the build generates from each.
 */
public interface ServerHooks {

    /**
     * A server begins handling an inbound request on this thread ({@code exchange}: the library's
     * request object). Outside any request it begins one, which ends when this call returns, unless
     * the library's describer says the exchange goes on (an async servlet, a Jetty callback not yet
     * completed) and has arranged for its end. Inside the request it is a layer of it (a servlet
     * inside Tomcat's adapter), or the server's entry on a thread the request hopped to. The token
     * goes to serverExit.
     */
    @Hook(instrumentation = "servers")
    Object serverEnter(String boundary, Object exchange);

    /**
     * The same for a server whose request ends only when {@link #serverEnd} is called with its
     * exchange (Undertow's exchange completion, reactor-netty's last write, gRPC's close), whatever
     * thread its entry returns on.
     */
    @Hook(instrumentation = "servers")
    Object serverEnterUntilEnd(String boundary, Object exchange);

    /**
     * The same as serverEnterUntilEnd for a server whose entry is given the exchange's parts apart
     * (gRPC's transport creating a call's stream, with its method and headers as arguments):
     * {@code exchange} is what the describer keys its end on, {@code name} the request's name (the
     * gRPC method), {@code head} what the describer reads the caller's traceparent from. An exchange
     * no describer knows begins no request (its end would never be reported).
     */
    @Hook(instrumentation = "servers")
    Object serverEnterCall(String boundary, Object exchange, String name, Object head);

    @Hook(instrumentation = "servers", skipWhen = "token == null")
    void serverExit(Object token, Object exchange, Throwable thrown);

    /**
     * serverExit for a server whose response is an object apart from its exchange (a servlet's
     * {@code ServletResponse} beside its {@code ServletRequest}): the request's status is read from
     * {@code response}.
     */
    @Hook(instrumentation = "servers", skipWhen = "token == null")
    void serverExitResponding(Object token, Object exchange, Object response, Throwable thrown);

    /**
     * The server goes on with an exchange on this thread (more of its request's body read on
     * reactor-netty's loop): in the request serverEnterUntilEnd began for it while that is open,
     * else nothing; never begins one. The token goes to serverExit.
     */
    @Hook(instrumentation = "servers", skipWhen = "exchange == null || OPEN_EXCHANGES.get() == 0")
    Object serverResume(Object exchange);

    /**
     * The exchange failed before its end: the handler's error ({@code thrown}), which the server
     * answers with a 500 or by closing the connection, or (thrown null) the client's connection
     * closed before the response was complete. The request serverEnterUntilEnd began for it still
     * ends at {@link #serverEnd}, with outcome {@code error} (thrown's class) or {@code cancelled}.
     */
    @Hook(instrumentation = "servers", skipWhen = "exchange == null || OPEN_EXCHANGES.get() == 0")
    void serverFailed(Object exchange, Throwable thrown);

    /**
     * The exchange's response is complete, or failed ({@code thrown}): ends the request that
     * serverEnterUntilEnd began for it, on this thread. Called for every exchange of the library,
     * so it returns on one volatile read while no such request is open.
     */
    @Hook(instrumentation = "servers", skipWhen = "exchange == null || OPEN_EXCHANGES.get() == 0")
    void serverEnd(Object exchange, Throwable thrown);

    /**
     * The same as serverEnd for a server that reports its exchange's end with the outcome apart
     * (gRPC's stream closing with a Status): the describer reads the request's status code, outcome
     * and error from {@code response}. A thread that was working on the request leaves it here: what
     * follows on it (the server's own bookkeeping of the end) is no part of it.
     */
    @Hook(instrumentation = "servers", skipWhen = "exchange == null || OPEN_EXCHANGES.get() == 0")
    void serverEndWith(Object exchange, Object response);

    /** The route template a framework matched for the current inbound request ({@code /orders/{id}}). */
    @Hook(instrumentation = "servers", skipWhen = "route == null")
    void serverRoute(String route);

    /**
     * serverRoute for a framework whose route is not a String at hand: it has matched the handler of
     * the current inbound request and is about to call it ({@code handler}: what it calls, a JAX-RS
     * resource method; {@code target}: the object it is called on; {@code request}: the framework's
     * own request object). The framework's RouteDescriber makes the route from them (and keeps it),
     * and the request is renamed by it as serverRoute renames it. Outside an inbound request it
     * does nothing.
     */
    @Hook(instrumentation = "servers", skipWhen = "handler == null || request == null")
    void serverHandler(Object handler, Object target, Object request);

    /**
     * A server hands an inbound request's work to another thread (Undertow's dispatch to a worker):
     * the task, wrapped so that its run is the request's hop out of the server's queue, in a request
     * or before one has begun. A null executor is one the server picks only when it hands the task
     * over (Undertow's default worker): the task is wrapped then, by that executor's own hook.
     */
    @Hook(instrumentation = "servers", orElse = "task", skipWhen = "task == null")
    Runnable wrapServerTask(Runnable task, Object executor);

    /**
     * A server queues an inbound request's task in an executor of its own that hands itself, not the
     * task, to the server's executor (gRPC's SerializingExecutor, which runs a call's tasks in turn):
     * when the task is a server's hand-over (LibraryRules#addServerQueueTask) and a request is
     * current, what this thread hands to an executor until serverQueueExit is that hand-over (a hop
     * marked serverQueue). The token goes to serverQueueExit.
     */
    @Hook(instrumentation = "servers", skipWhen = "task == null")
    Object serverQueueEnter(Object task);

    @Hook(instrumentation = "servers", skipWhen = "token == null")
    void serverQueueExit(Object token);
}
