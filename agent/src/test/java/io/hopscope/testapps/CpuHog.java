package io.hopscope.testapps;

import java.io.IOException;

/**
 * Keeps every core busy: one spinning thread per available processor, until its standard input
 * closes (the test that started it closes it, or dies). Prints {@code spinning N} once they run.
 */
public final class CpuHog {

    private static volatile long sink;

    private CpuHog() {
    }

    public static void main(String[] args) throws IOException {
        int threads = Runtime.getRuntime().availableProcessors();
        for (int i = 0; i < threads; i++) {
            Thread spinner = new Thread(() -> {
                long n = 0;
                while (true) {
                    n++;
                    if ((n & 0xFFFFFFF) == 0) {
                        sink = n; // keeps the loop from being taken for dead code
                    }
                }
            }, "spinner-" + i);
            spinner.setDaemon(true);
            spinner.start();
        }
        System.out.println("spinning " + threads);
        System.out.flush();
        while (System.in.read() >= 0) {
            // until the test closes our input
        }
    }
}
