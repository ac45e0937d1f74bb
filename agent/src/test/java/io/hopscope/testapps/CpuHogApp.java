package io.hopscope.testapps;

/**
 * A CPU hog for the tests that check hops under load: {@code threads} threads that spin until this
 * process's standard input closes (the test that started it closes it, or ends), so that the
 * machine's cores are busy while the test's JVM runs beside it. Args: threads.
 */
public final class CpuHogApp {

    /** Written now and then, so that no compiler takes a spinning loop for one without effect. */
    static volatile long sink;

    private CpuHogApp() {
    }

    public static void main(String[] args) throws Exception {
        int threads = Integer.parseInt(args[0]);
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(CpuHogApp::spin, "hog-" + i);
            t.setDaemon(true);
            t.start();
        }
        System.out.println("hog: " + threads + " threads spinning");
        System.out.flush();
        while (System.in.read() >= 0) {
            // until the test closes our input
        }
    }

    private static void spin() {
        long x = 1;
        while (true) {
            for (int i = 0; i < 1_000_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            sink = x;
        }
    }
}
