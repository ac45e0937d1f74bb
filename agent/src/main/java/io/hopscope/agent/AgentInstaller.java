package io.hopscope.agent;

import static net.bytebuddy.matcher.ElementMatchers.any;
import static net.bytebuddy.matcher.ElementMatchers.isSynthetic;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.events.AgentErrorEvent;
import io.hopscope.agent.events.AgentInfoEvent;
import io.hopscope.agent.events.ClockSyncEvent;
import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.instrumentation.LibraryLoaders;
import io.hopscope.agent.instrumentation.Matchers;
import io.hopscope.agent.runtime.AgentErrors;
import io.hopscope.agent.runtime.AgentWork;
import io.hopscope.agent.runtime.HopscopeRuntime;
import io.hopscope.agent.runtime.UrlRedactor;
import io.hopscope.settings.AgentOptions;
import io.hopscope.settings.AttachProperties;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import jdk.jfr.FlightRecorder;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;
import net.bytebuddy.dynamic.loading.ClassInjector;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.utility.JavaModule;

/**
 * Parses the options, installs the instrumentations, checks them, and has {@link AgentRecording}
 * start the recording.
 */
final class AgentInstaller {

    static final String VERSION = "0.1.0";

    private AgentInstaller() {
    }

    /**
     * {@code late}: loaded into a running JVM (agentmain), where classes are already loaded. With
     * {@code start=background} in premain, the install runs on a thread of its own and premain
     * returns at once: {@code main} runs meanwhile, as after an attach.
     */
    static void install(String rawOptions, Instrumentation instrumentation, boolean late) throws Exception {
        AgentOptions options = AgentOptions.parse(rawOptions, System.err::println);
        if (!options.background() || late) {
            install(options, instrumentation, late, false);
            return;
        }
        long begin = System.nanoTime();
        Thread start = new Thread(() -> {
            try {
                install(options, instrumentation, false, true);
                if (Boolean.getBoolean("hopscope.debug")) {
                    System.err.println("hopscope: installed in the background in "
                            + (System.nanoTime() - begin) / 1_000_000 + " ms");
                }
            } catch (Throwable t) {
                System.err.println("hopscope: agent not started (" + t + "); the application runs without it");
            }
        }, "hopscope-start");
        start.setDaemon(true);
        start.start();
    }

    /**
     * Installs the instrumentations, starts the recording, and only then has the bridge call the
     * runtime: a request that begins before both are in place is not one (no request is recorded
     * half seen: a boundary instrumented before the executors, events before the recording).
     * {@code background}: premain's start=background, classes of the application may be loaded.
     */
    private static void install(AgentOptions options, Instrumentation instrumentation, boolean late,
            boolean background) {
        List<HopscopeInstrumentation> all = instrumentations(options);
        options.checkDisabled(all.stream().map(HopscopeInstrumentation::name).collect(Collectors.toList()),
                System.err::println);
        HopscopeRuntime runtime = new HopscopeRuntime(new UrlRedactor(keptQueryParameters(options, all)),
                options.cpuTime(), options.spanEvery());
        boolean debug = Boolean.getBoolean("hopscope.debug");

        Map<HopscopeInstrumentation, LibraryLoaders> applied = installInstrumentations(all, options.disabled(), runtime,
                instrumentation, late, background, debug);
        addPeriodicEvents(options.raw(), applied);
        AgentRecording.start(options, instrumentation, debug);
        runtime.install();
        selfCheck(runtime);
        warmUpInBackground();
        System.setProperty(AttachProperties.INSTALLED, "true");
        if (debug) {
            System.err.println("hopscope: agent " + VERSION + " installed: "
                    + String.join(";", applied.keySet().stream().map(HopscopeInstrumentation::name)
                            .collect(Collectors.toList())));
        }
    }

    /**
     * The query parameters {@code Request.url} keeps: {@code redact=}'s, or those the instrumented
     * libraries name as never a credential.
     */
    private static Set<String> keptQueryParameters(AgentOptions options, List<HopscopeInstrumentation> all) {
        if (options.keptQueryParameters() != null) {
            return options.keptQueryParameters();
        }
        Set<String> kept = new LinkedHashSet<>();
        all.forEach(each -> kept.addAll(each.keptQueryParameters()));
        return kept;
    }

    /**
     * Installs every instrumentation not {@code disabled} whose JDK module is there, registered with
     * {@code runtime} (the bridge calls it once the caller installs it); returns each one applied
     * with the loaders its library is looked for in (null: the JDK's).
     */
    private static Map<HopscopeInstrumentation, LibraryLoaders> installInstrumentations(List<HopscopeInstrumentation> all,
            Set<String> disabled, HopscopeRuntime runtime, Instrumentation instrumentation, boolean late,
            boolean background, boolean debug) {
        // Byte Buddy looks for sun.misc.Unsafe when its class injectors load, which the agent never
        // uses (advice is inlined, the bridge is on the boot path, initialization is NoOp): JDK 24+
        // warns on the first Unsafe call. The safe property (the shaded copy's own name, so the
        // application's Byte Buddy is not affected) tells it not to look.
        if (System.getProperty(ClassInjector.UsingUnsafe.SAFE_PROPERTY) == null) {
            System.setProperty(ClassInjector.UsingUnsafe.SAFE_PROPERTY, "true");
        }
        TypePoolCache poolCache = new TypePoolCache();
        // Name tests only, before the synthetic test (which reads the class file): the JDK's
        // classes but those an instrumentation names are never parsed.
        Set<String> jdkClasses = new TreeSet<>();
        all.forEach(each -> jdkClasses.addAll(each.jdkClasses()));
        AgentBuilder builder = new AgentBuilder.Default()
                .disableClassFormatChanges()
                .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
                // The JVM retransforms a batch of classes all or none: a class it refuses (one
                // another agent, given first, changed when it loaded it) must not keep the others
                // (LockSupport, ThreadPoolExecutor, Thread) untransformed. Split until alone.
                .with(AgentBuilder.RedefinitionStrategy.Listener.BatchReallocator.splitting())
                .with(new RetransformRefused())
                .with(AgentBuilder.InitializationStrategy.NoOp.INSTANCE)
                .with(AgentBuilder.TypeStrategy.Default.REDEFINE)
                .with(poolCache)
                .with(AgentBuilder.LocationStrategy.ForClassLoader.WEAK)
                .with(new ErrorListener(debug))
                .with(new AgentWorkMeter(true))
                // JDK modules (java.base, java.net.http) must read the bridge's module to call it.
                .assureReadEdgeTo(instrumentation, Bridge.class)
                .ignore(nameStartsWith("io.hopscope.agent.")
                        .or(nameStartsWith("net.bytebuddy."))
                        .or(nameStartsWith("jdk.internal.reflect."))
                        .or(nameStartsWith("sun.reflect."))
                        .or(Matchers.jdkExcept(jdkClasses))
                        .or(isSynthetic()));
        // For instrumentations that add a field: classes not loaded yet only, so no retransformation.
        // Its rules are name tests (a library's named classes): nothing else needs the class file.
        AgentBuilder fieldBuilder = new AgentBuilder.Default()
                .with(poolCache)
                .with(AgentBuilder.LocationStrategy.ForClassLoader.WEAK)
                .with(new ErrorListener(debug))
                .with(new AgentWorkMeter(false))
                .ignore(nameStartsWith("io.hopscope.agent.").or(nameStartsWith("net.bytebuddy."))
                        .or(Matchers.jdkExcept(jdkClasses)));
        // Each instrumentation applied, with the loaders its library is looked for in (any: the JDK's).
        Map<HopscopeInstrumentation, LibraryLoaders> applied = new LinkedHashMap<>();
        List<String> skippedLate = new ArrayList<>();
        ClassLoader agentLoader = AgentInstaller.class.getClassLoader();
        for (HopscopeInstrumentation each : all) {
            // A library's rules hold even where it is not instrumented (see addRules).
            each.addRules(runtime.rules());
            if (disabled.contains(each.name()) || !each.availableInJdk()) {
                continue; // turned off by the user (disable=), or a JDK module this runtime lacks
            }
            // A library is looked for in the loader of each class to transform, wherever the
            // application loads it from; its helpers are defined there when its objects turn up.
            String required = each.requiredClass();
            LibraryLoaders libraryLoaders = required == null ? null
                    : new LibraryLoaders(required, each.requiredClassOfCopy(), each.libraryPackage());
            ElementMatcher<ClassLoader> loaders = libraryLoaders == null ? any() : libraryLoaders;
            if (libraryLoaders != null) {
                libraryLoaders.matches(agentLoader); // found from the start when on the class path
                for (String prefix : each.knownRelocations()) {
                    libraryLoaders.sees(agentLoader, prefix);
                }
            }
            if (each.addsFields()) {
                fieldBuilder = each.extend(fieldBuilder, loaders);
                if (late && (libraryLoaders == null || libraryLoaders.found()
                        || loadedAnywhere(instrumentation, required))) {
                    skippedLate.add(each.name());
                } else if (background && required != null && loadedAnywhere(instrumentation, required)) {
                    System.err.println("hopscope: instrumentation " + each.name() + " not applied: " + required
                            + " was loaded before the background install (start=premain applies it)");
                }
            } else {
                builder = each.extend(builder, loaders);
            }
            each.register(runtime, instrumentation);
            applied.put(each, libraryLoaders);
        }
        if (!skippedLate.isEmpty()) {
            System.setProperty(AttachProperties.SKIPPED, String.join(",", skippedLate));
        }

        // Load the JDK classes the instrumentations transform now, so that they are transformed
        // here, in premain, and not in the middle of the application's first request; and so that
        // none of them is first loaded while Byte Buddy transforms another (CompletableFuture's
        // thread per task executor was, by its class's initialisation), which it would then leave
        // untransformed.
        for (HopscopeInstrumentation each : applied.keySet()) {
            for (String jdkClass : each.preloadedClasses()) {
                try {
                    Class.forName(jdkClass, false, null);
                } catch (ClassNotFoundException e) {
                    // Not in this JDK: nothing to transform.
                }
            }
        }
        // Initialised here, not first inside the transformer it measures (recursively, half-initialised).
        AgentWork.end(AgentWork.begin(false));
        builder.installOn(instrumentation);
        fieldBuilder.installOn(instrumentation);
        return applied;
    }

    /**
     * ClockSync every second (its own period) and at each chunk start and end: a JFR setting has
     * one period, so the AgentInfo (chunk start and end) and AgentError (chunk end) hooks add one.
     * AgentInfo at the end too: it names the library copies found during the chunk.
     */
    private static void addPeriodicEvents(String rawOptions, Map<HopscopeInstrumentation, LibraryLoaders> applied) {
        FlightRecorder.addPeriodicEvent(ClockSyncEvent.class, AgentInstaller::clockSync);
        FlightRecorder.addPeriodicEvent(AgentInfoEvent.class, () -> {
            clockSync();
            AgentInfoEvent event = new AgentInfoEvent();
            event.version = VERSION;
            event.options = rawOptions;
            event.pid = ProcessHandle.current().pid();
            event.instrumentations = instrumentationsFound(applied);
            event.commit();
        });
        FlightRecorder.addPeriodicEvent(AgentErrorEvent.class, () -> {
            clockSync();
            AgentErrors.emitCounts();
        });
    }

    /** Whether a class of this name is loaded, in any class loader (after a late attach). */
    private static boolean loadedAnywhere(Instrumentation instrumentation, String className) {
        for (Class<?> loaded : instrumentation.getAllLoadedClasses()) {
            if (loaded.getName().equals(className)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The instrumentations applied whose classes exist: the JDK's, and those whose library has
     * turned up in a class loader (the agent's, or any other since), each relocated copy of a
     * library by its own name ({@code netty@com.example.shaded.io.netty}).
     */
    private static String instrumentationsFound(Map<HopscopeInstrumentation, LibraryLoaders> applied) {
        Set<String> found = new LinkedHashSet<>();
        applied.forEach((instrumentation, loaders) -> {
            if (loaders == null || loaders.found()) {
                found.add(instrumentation.name());
            }
            if (loaders != null) {
                new TreeSet<>(loaders.copiesFound()).forEach(prefix -> found.add(instrumentation.copyName(prefix)));
            }
        });
        return String.join(";", found);
    }

    /**
     * Every instrumentation, configured by the options, in the order they are applied: each lists
     * itself (META-INF/services), so that adding a library touches nothing here.
     */
    static List<HopscopeInstrumentation> instrumentations(AgentOptions options) {
        List<HopscopeInstrumentation> all = new ArrayList<>();
        for (HopscopeInstrumentation each : ServiceLoader.load(HopscopeInstrumentation.class,
                AgentInstaller.class.getClassLoader())) {
            each.configure(options);
            all.add(each);
        }
        return all;
    }

    private static void clockSync() {
        ClockSyncEvent event = new ClockSyncEvent();
        event.monotonicNanos = System.nanoTime();
        event.commit();
    }

    /**
     * Loads the event classes (JFR registers each one on first use, tens of milliseconds the
     * first time) and the thread meter off the application's threads, so that the application's
     * first request does not pay for it.
     */
    private static void warmUpInBackground() {
        Thread warmUp = new Thread(() -> {
            try {
                HopscopeRuntime.warmUp();
            } catch (Throwable t) {
                AgentErrors.reportTask("warm-up", "", t);
            }
        }, "hopscope-warm-up");
        warmUp.setDaemon(true);
        warmUp.start();
    }

    /** Runs one instrumented call (an executor handoff) and checks that the hook saw it. */
    private static void selfCheck(HopscopeRuntime runtime) {
        // A pool that is already shut down and discards: execute() runs its advice, creates no thread.
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                new ThreadPoolExecutor.DiscardPolicy());
        pool.shutdown();
        int hits = runtime.selfCheck(() -> pool.execute(() -> { }));
        if (hits == 0) {
            System.err.println("hopscope: self-check failed: ThreadPoolExecutor.execute was not instrumented, so no"
                    + " request will be followed across threads; run on a HotSpot JDK 17 or newer, do not disable"
                    + " class retransformation, and add -Dhopscope.debug=true to see why");
        }
    }

    /**
     * Wraps a builder's class file transformer so that its work on an application thread in a
     * request is measured apart from the request's ({@link AgentWork}). Of the two transformers,
     * one counts each class loaded ({@code countsClass}), so that a class is counted once.
     */
    private static final class AgentWorkMeter implements AgentBuilder.TransformerDecorator,
            ResettableClassFileTransformer.WithDelegation.Callback<Object> {
        private final boolean countsClass;

        AgentWorkMeter(boolean countsClass) {
            this.countsClass = countsClass;
        }

        @Override
        public ResettableClassFileTransformer decorate(ResettableClassFileTransformer transformer) {
            return ResettableClassFileTransformer.WithDelegation.of(transformer, this);
        }

        @Override
        public Object onBeforeTransform(JavaModule module, ClassLoader loader, String name, Class<?> redefined,
                ProtectionDomain domain, byte[] bytes) {
            try {
                return AgentWork.begin(countsClass);
            } catch (Throwable t) {
                AgentErrors.reportTask("agent-work", "", t);
                return null;
            }
        }

        @Override
        public void onAfterTransform(Object token, JavaModule module, ClassLoader loader, String name,
                Class<?> redefined, ProtectionDomain domain, byte[] bytes) {
            try {
                AgentWork.end(token);
            } catch (Throwable t) {
                AgentErrors.reportTask("agent-work", "", t);
            }
        }
    }

    /**
     * Reports each loaded class the JVM refused to retransform on its own (the splitting reallocator
     * has retried the rest of its batch): its instrumentation is not applied. With the OpenTelemetry
     * agent given before hopscope's, the JDK classes it gave an interface when it loaded them
     * (FutureTask, CompletableFuture, ScheduledThreadPoolExecutor$ScheduledFutureTask, fork/join's
     * adapters) come out of its retransformation without it, which the JVM refuses whoever asked.
     */
    private static final class RetransformRefused extends AgentBuilder.RedefinitionStrategy.Listener.Adapter {
        @Override
        public Iterable<? extends List<Class<?>>> onError(int index, List<Class<?>> batch, Throwable throwable,
                List<Class<?>> types) {
            if (batch.size() == 1) {
                AgentErrors.reportTask("transform", batch.get(0).getName() + ", loaded before hopscope: the JVM"
                        + " refused to retransform it (changed by an agent given first? give -javaagent:hopscope"
                        + " first)", throwable);
            }
            return Collections.emptyList();
        }
    }

    /** Reports classes the agent failed to transform; with -Dhopscope.debug=true, also those it did. */
    private static final class ErrorListener extends AgentBuilder.Listener.Adapter {
        private final boolean debug;

        ErrorListener(boolean debug) {
            this.debug = debug;
        }

        @Override
        public void onError(String typeName, ClassLoader classLoader, JavaModule module, boolean loaded,
                Throwable throwable) {
            AgentErrors.reportTask("transform", typeName, throwable);
        }

        @Override
        public void onTransformation(TypeDescription typeDescription, ClassLoader classLoader, JavaModule module,
                boolean loaded, DynamicType dynamicType) {
            AgentWork.transformed();
            if (debug) {
                System.err.println("hopscope: instrumented " + typeDescription.getName());
            }
        }
    }
}
