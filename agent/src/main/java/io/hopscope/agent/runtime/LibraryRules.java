package io.hopscope.agent.runtime;

import java.util.Arrays;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * What the generic runtime must know of particular libraries, registered by each library's
 * instrumentation package (HopscopeInstrumentation#addRules) the way request describers are: which
 * submitted tasks are a library's housekeeping, which threads must never block, what a wait is
 * called and which exceptions are timeouts. The runtime itself names no library class.
 *
 * <p>Rules are plain names and predicates, registered for every instrumentation whether or not its
 * library is visible to the agent's class loader (an application server's or a fat jar's libraries
 * are not), so that they hold wherever the library's objects turn up, in the library's relocated
 * copies too (a class name that ends with the rule's, after a package prefix). Each table is an array
 * replaced on registration, read with one volatile load and no iterator: the housekeeping check runs
 * on every task submitted inside a request.
 */
public final class LibraryRules {

    private volatile String[] housekeepingTaskPrefixes = new String[0];
    /** The same, each after a dot: where a relocated copy's names have them. */
    private volatile String[] relocatedHousekeepingTaskPrefixes = new String[0];
    private volatile String[] housekeepingThreadPrefixes = new String[0];
    @SuppressWarnings("unchecked")
    private volatile Predicate<Object>[] housekeepingExecutors = new Predicate[0];
    private volatile String[] nonBlockingThreadTypes = new String[0];
    @SuppressWarnings("unchecked")
    private volatile Function<Object, String>[] waitKinds = new Function[0];
    @SuppressWarnings("unchecked")
    private volatile Predicate<Throwable>[] timeouts = new Predicate[0];
    /** Pairs: a park's blocker class name prefix, then the Wait kind of a park on it. */
    private volatile String[] parkKinds = new String[0];
    private volatile String[] serverQueueTaskPrefixes = new String[0];
    /**
     * Whether a task class, or a class it extends, is a server's hand-over (serverQueueTaskPrefixes):
     * asked on every task handed to an executor outside a request, so the answer is kept per class.
     * Rules are registered at install, before any task is asked about.
     */
    private final ClassValue<Boolean> serverQueueTasks = new ClassValue<Boolean>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            String[] prefixes = serverQueueTaskPrefixes;
            for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
                String name = c.getName();
                for (String prefix : prefixes) {
                    if (name.startsWith(prefix) || name.indexOf("." + prefix) > 0) {
                        return Boolean.TRUE;
                    }
                }
            }
            return Boolean.FALSE;
        }
    };

    /** The Wait kind of a park outside any known wait whose blocker is none of addParkKind's. */
    public static final String PARK = "LockSupport.park";

    /**
     * Tasks whose class name starts with this prefix are a library's own (a connection pool's
     * cleanup) even when submitted inside a request: they are not followed and add no hop to it.
     */
    public synchronized void addHousekeepingTask(String classNamePrefix) {
        housekeepingTaskPrefixes = append(housekeepingTaskPrefixes, classNamePrefix);
        relocatedHousekeepingTaskPrefixes = append(relocatedHousekeepingTaskPrefixes, "." + classNamePrefix);
    }

    /**
     * Executors every task of which is a library's own (the virtual threads' scheduler runs only their
     * continuations): a task handed to one is not followed, whatever wraps it (another agent's context
     * wrapper hides the task's own class from {@link #addHousekeepingTask}'s prefixes).
     */
    public synchronized void addHousekeepingExecutor(Predicate<Object> isHousekeeping) {
        housekeepingExecutors = append(housekeepingExecutors, isHousekeeping);
    }

    /**
     * Virtual threads whose name starts with this prefix are a library's own (the JDK's I/O pollers)
     * even when started inside a request: they are not followed and add no hop to it.
     */
    public synchronized void addHousekeepingThread(String namePrefix) {
        housekeepingThreadPrefixes = append(housekeepingThreadPrefixes, namePrefix);
    }

    /**
     * Threads that are, extend or implement the named class or interface run an event loop: a
     * blocking wait on one stalls every connection of the loop, and is recorded even outside a request.
     */
    public synchronized void addNonBlockingThreadType(String className) {
        nonBlockingThreadTypes = append(nonBlockingThreadTypes, className);
    }

    /**
     * Names a wait entered without a kind (a library's advice passes null where the kind depends on
     * the waited-on object); null when the object is not the library's.
     */
    public synchronized void addWaitKinds(Function<Object, String> kindOfWaitedOn) {
        waitKinds = append(waitKinds, kindOfWaitedOn);
    }

    /** An exception a library throws, itself, when a wait times out. */
    public synchronized void addTimeout(Predicate<Throwable> isTimeout) {
        timeouts = append(timeouts, isTimeout);
    }

    /**
     * A park (LockSupport#park*) whose blocker's class name starts with this prefix is a wait of
     * this kind ({@code CountDownLatch.await}): the synchronizer's own name for it.
     */
    public synchronized void addParkKind(String blockerClassPrefix, String kind) {
        parkKinds = append(append(parkKinds, blockerClassPrefix), kind);
    }

    /**
     * Tasks whose class, or a class it extends, has a name that starts with this prefix (or is a
     * relocated copy's) are a server's hand-over of an inbound request to the thread that runs it
     * (Tomcat's socket processor handed to its executor): the hop out of it is the request's time in
     * the server's queue, and when it is handed over before any request has begun, the request the
     * task begins starts at the hand-over.
     */
    public synchronized void addServerQueueTask(String classNamePrefix) {
        serverQueueTaskPrefixes = append(serverQueueTaskPrefixes, classNamePrefix);
    }

    /** Whether {@code task} is a server's hand-over (see {@link #addServerQueueTask}). */
    boolean isServerQueueTask(Object task) {
        return serverQueueTaskPrefixes.length > 0 && serverQueueTasks.get(task.getClass());
    }

    /** The Wait kind of a park on this blocker (null: none), {@link #PARK} when no rule names it. */
    String parkKind(Object blocker) {
        if (blocker == null) {
            return PARK;
        }
        String name = blocker.getClass().getName();
        String[] kinds = parkKinds;
        for (int i = 0; i < kinds.length; i += 2) {
            if (name.startsWith(kinds[i])) {
                return kinds[i + 1];
            }
        }
        return PARK;
    }

    boolean isHousekeeping(Object task) {
        String name = task.getClass().getName();
        for (String prefix : housekeepingTaskPrefixes) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        for (String prefix : relocatedHousekeepingTaskPrefixes) {
            if (name.indexOf(prefix) > 0) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code task} handed to {@code executor} (null: none known) is a library's own. */
    boolean isHousekeeping(Object task, Object executor) {
        if (executor != null) {
            for (Predicate<Object> p : housekeepingExecutors) {
                if (p.test(executor)) {
                    return true;
                }
            }
        }
        return isHousekeeping(task);
    }

    boolean isHousekeepingThread(Thread thread) {
        String name = thread.getName();
        for (String prefix : housekeepingThreadPrefixes) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** Looked up once per thread (ThreadState#nonBlocking caches the answer). */
    boolean isNonBlockingThread(Thread thread) {
        String[] types = nonBlockingThreadTypes;
        for (Class<?> c = thread.getClass(); c != null; c = c.getSuperclass()) {
            if (contains(types, c.getName())) {
                return true;
            }
            for (Class<?> i : c.getInterfaces()) {
                if (contains(types, i.getName())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The kind of a wait entered without one, "?" if no library knows the waited-on object. */
    String waitKind(Object waitedOn) {
        for (Function<Object, String> kindOf : waitKinds) {
            String kind = kindOf.apply(waitedOn);
            if (kind != null) {
                return kind;
            }
        }
        return "?";
    }

    boolean isTimeout(Throwable thrown) {
        for (Predicate<Throwable> timeout : timeouts) {
            if (timeout.test(thrown)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the name is one of the names, or a relocated copy's (the name after a package prefix). */
    private static boolean contains(String[] names, String name) {
        for (String n : names) {
            int prefixLength = name.length() - n.length();
            if (prefixLength == 0 ? n.equals(name)
                    : prefixLength > 0 && name.charAt(prefixLength - 1) == '.' && name.endsWith(n)) {
                return true;
            }
        }
        return false;
    }

    private static <T> T[] append(T[] table, T entry) {
        T[] longer = Arrays.copyOf(table, table.length + 1);
        longer[table.length] = entry;
        return longer;
    }
}
