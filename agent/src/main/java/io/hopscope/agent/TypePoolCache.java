package io.hopscope.agent;

import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.pool.TypePool;

/**
 * Shares parsed type descriptions between transformations, per class loader. Without it, every
 * loaded class re-reads the class files of its super types to answer the "implements
 * HttpPipelinePolicy / Interceptor" matchers, which made class loading under the agent slow for
 * tens of seconds on a loaded machine. Class loaders are held weakly, and each loader's cache is
 * emptied when it passes {@link #MAX_ENTRIES_PER_LOADER}, so the memory stays bounded. A cached
 * description keeps the class file locator it was read with: the agent builders use weak locators
 * (LocationStrategy.ForClassLoader.WEAK), or every loader with a cache entry would stay alive.
 */
final class TypePoolCache extends AgentBuilder.PoolStrategy.WithTypePoolCache {

    static final int MAX_ENTRIES_PER_LOADER = 20_000;

    private final Map<ClassLoader, TypePool.CacheProvider> caches = new WeakHashMap<>();
    private final TypePool.CacheProvider bootstrapCache = new Bounded();

    TypePoolCache() {
        super(TypePool.Default.ReaderMode.FAST);
    }

    @Override
    protected TypePool.CacheProvider locate(ClassLoader classLoader) {
        if (classLoader == null) {
            return bootstrapCache;
        }
        synchronized (caches) {
            return caches.computeIfAbsent(classLoader, loader -> new Bounded());
        }
    }

    /** A per-loader cache that starts over when it grows past the bound. */
    private static final class Bounded extends TypePool.CacheProvider.Simple {
        private final ConcurrentHashMap<String, TypePool.Resolution> storage;

        Bounded() {
            this(new ConcurrentHashMap<>());
        }

        private Bounded(ConcurrentHashMap<String, TypePool.Resolution> storage) {
            super(storage);
            this.storage = storage;
        }

        @Override
        public TypePool.Resolution register(String name, TypePool.Resolution resolution) {
            if (storage.size() > MAX_ENTRIES_PER_LOADER) {
                storage.clear();
            }
            return super.register(name, resolution);
        }
    }
}
