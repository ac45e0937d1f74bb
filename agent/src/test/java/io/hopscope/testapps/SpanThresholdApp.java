package io.hopscope.testapps;

/**
 * Requests through two pipeline stages (a {@code policies=} interface): the outer one takes 5 ms
 * around the inner one, which returns at once, as a policy wraps a fast step. Argument: request
 * count.
 */
public final class SpanThresholdApp {

    /** A pipeline stage: a policy span per call under {@code policies=}. */
    public interface Stage {
        long run(long input) throws InterruptedException;
    }

    static final class SlowStage implements Stage {
        private final Stage next;

        SlowStage(Stage next) {
            this.next = next;
        }

        @Override
        public long run(long input) throws InterruptedException {
            Thread.sleep(5);
            return next.run(input) + 1;
        }
    }

    static final class FastStage implements Stage {
        @Override
        public long run(long input) {
            return input * 31 + 7;
        }
    }

    private static final Stage PIPELINE = new SlowStage(new FastStage());

    /** The request boundary (requests=). */
    static long request(long input) throws InterruptedException {
        return PIPELINE.run(input);
    }

    public static void main(String[] args) throws Exception {
        int count = Integer.parseInt(args[0]);
        long sum = 0;
        for (int i = 0; i < count; i++) {
            sum += request(i);
        }
        System.out.println("requests: " + count + " checksum: " + sum);
    }
}
