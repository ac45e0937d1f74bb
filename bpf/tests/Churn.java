/**
 * Test workload for offwake: short-lived threads, one after another, each of which sleeps a
 * millisecond (one off-CPU interval) and exits. A tracer that kept state for exited threads fills
 * its thread map with them.
 *
 * Usage: java Churn.java
 * Prints "ready PID" and runs until its standard input closes, then prints "done N" (threads
 * started) and exits 0.
 */
public class Churn {
    public static void main(String[] args) throws Exception {
        Thread reader = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // discard
                }
            } catch (java.io.IOException e) {
                // treated as closed
            }
        }, "churn-stdin");
        reader.setDaemon(true);
        reader.start();
        System.out.println("ready " + ProcessHandle.current().pid());
        System.out.flush();
        long started = 0;
        while (reader.isAlive()) {
            Thread t = new Thread(() -> {
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "churn-" + started);
            t.start();
            t.join();
            started++;
        }
        System.out.println("done " + started);
    }
}
