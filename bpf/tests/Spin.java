/**
 * Test workload for offwake's Java symbolisation: THREADS threads (default 3, more than the test
 * machine's two CPUs) spin in a compiled Java method, so the scheduler preempts them in JIT code
 * over and over; offwake --preempted-stacks then records user stacks whose first frame is a JIT
 * address, which only the JVM's perf map can name.
 *
 * Usage: java Spin.java [threads=3]; prints "ready PID" once the loop is compiled, runs until its
 * standard input closes.
 */
public class Spin {
    static volatile long sink;

    /** The method the threads spin in: small, hot, compiled within the warm-up. */
    static long spinRound(long x) {
        for (int i = 0; i < 1000; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }

    public static void main(String[] args) throws Exception {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        for (int t = 0; t < threads; t++) {
            Thread spinner = new Thread(() -> {
                long x = System.nanoTime();
                while (true) {
                    x = spinRound(x);
                    sink = x;
                }
            }, "spin-" + t);
            spinner.setDaemon(true);
            spinner.start();
        }
        Thread.sleep(1000); // compiled by then
        System.out.println("ready " + ProcessHandle.current().pid());
        System.out.flush();
        while (System.in.read() >= 0) {
            // discard until the test closes the pipe
        }
    }
}
