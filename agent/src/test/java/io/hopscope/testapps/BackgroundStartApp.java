package io.hopscope.testapps;

/**
 * The known path's requests from {@code main}'s start on, for an agent started with
 * {@code start=background}: requests until the agent says it is installed (its system property
 * {@code hopscope.agent.installed}, AttachProperties.INSTALLED), then {@code args[0]} more. Prints
 * how many came before. Its pools are made before the install, so their workers run the
 * retransformed JDK classes' old code, as after an attach.
 */
public final class BackgroundStartApp {

    private static final String INSTALLED = "hopscope.agent.installed";
    /** Bytes each request allocates on known-path-B. */
    public static final int ALLOC_BYTES = 1 << 20;

    private BackgroundStartApp() {
    }

    public static void main(String[] args) throws Exception {
        int after = Integer.parseInt(args[0]);
        KnownPathApp app = new KnownPathApp(ALLOC_BYTES);
        // Bounded, so that an agent that never says it is installed ends the run (its test then fails).
        long deadline = System.nanoTime() + 60_000_000_000L;
        int before = 0;
        while (System.getProperty(INSTALLED) == null && System.nanoTime() < deadline) {
            app.request(before++);
        }
        System.out.println("requests before the install: " + before);
        for (int i = 0; i < after; i++) {
            app.request(before + i);
        }
        System.out.println("requests after the install: " + after);
        app.shutdown();
    }
}
