/**
 * The runtime bridge. Why this package exists: advice is inlined into JDK classes (ThreadPoolExecutor,
 * ForkJoinPool, ForkJoinTask, FutureTask, CompletableFuture, LockSupport,
 * jdk.internal.net.http.HttpClientImpl), which are defined by the bootstrap class loader and cannot
 * see the agent's own classes on the system class path. Everything such advice calls therefore
 * lives here, in the one package the agent extracts into a temporary jar and appends to the
 * bootstrap search path before anything loads it. It holds no logic: the hooks' declarations, one
 * interface per part of the runtime that implements them ({@link io.hopscope.agent.bootstrap.HandoffHooks}
 * and its siblings), the static forwarders the build generates from them ({@code Bridge}, which
 * advice calls, and which keeps a fault in the runtime from ever reaching the application) and the
 * state they read ({@link io.hopscope.agent.bootstrap.BridgeState}: each part, and the counters).
 */
package io.hopscope.agent.bootstrap;
