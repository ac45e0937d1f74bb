package io.hopscope.testapps;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The application's own request boundaries and pipeline stages, named by agent options only:
 * {@code requests=io.hopscope.testapps.RequestsApp#handle;io.hopscope.testapps.RequestsApp#handleLater}
 * and {@code policies=io.hopscope.testapps.RequestsApp$Stage}. On main, one after the other:
 * {@code handle(String)} runs three stages and calls {@code handle(int)} inside itself (a nested
 * boundary); then {@code handle(int)}, {@code handle()} and {@code handle(String, boolean)} that
 * throws, each alone; then {@code handleLater()}, whose CompletableFuture the thread "completer"
 * completes once the boundary has returned.
 */
public final class RequestsApp {

    /** A pipeline stage: each implementation's apply is a policy span. */
    public interface Stage {
        String apply(String in);
    }

    /** A stage of its own. */
    static final class Upper implements Stage {
        @Override
        public String apply(String in) {
            return normalize(in).toUpperCase();
        }

        /** Not a method of Stage: no span. */
        String normalize(String in) {
            return in.strip();
        }
    }

    /** A stage whose apply it inherits from an abstract base. */
    abstract static class Decorating implements Stage {
        @Override
        public String apply(String in) {
            return decorate(in);
        }

        abstract String decorate(String in);
    }

    static final class Brackets extends Decorating {
        @Override
        String decorate(String in) {
            return "[" + in + "]";
        }
    }

    static final class Exclaim implements Stage {
        @Override
        public String apply(String in) {
            return in + "!";
        }
    }

    private final List<Stage> stages = List.of(new Upper(), new Brackets(), new Exclaim());

    public static void main(String[] args) throws Exception {
        RequestsApp app = new RequestsApp();
        System.out.println("handle(String): " + app.handle(" hop "));
        System.out.println("handle(int): " + app.handle(7));
        app.handle();
        System.out.println("handle(): done");
        try {
            app.handle("x", true);
        } catch (IllegalStateException expected) {
            System.out.println("handle(String, boolean): " + expected.getMessage());
        }
        CompletableFuture<String> later = new CompletableFuture<>();
        CountDownLatch returned = new CountDownLatch(1);
        CountDownLatch completed = new CountDownLatch(1);
        Thread completer = new Thread(() -> {
            try {
                returned.await();
                later.complete("later");
                completed.countDown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "completer");
        completer.start();
        CompletableFuture<String> result = app.handleLater(later);
        returned.countDown();
        // Not a wait on the result: the request is to end on the completer, when it completes.
        if (!completed.await(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("not completed");
        }
        System.out.println("handleLater(): " + result.getNow("not yet"));
        completer.join();
    }

    /** A boundary returning a reference, through every stage, with a nested boundary inside. */
    public String handle(String in) {
        String out = in;
        for (Stage stage : stages) {
            out = stage.apply(out);
        }
        return out + handle(out.length());
    }

    /** A boundary returning a primitive. */
    public int handle(int n) {
        return n * 2;
    }

    /** A boundary returning nothing. */
    public void handle() {
        stages.get(0).apply("quiet");
    }

    /** A boundary that throws. */
    public String handle(String in, boolean fail) {
        if (fail) {
            throw new IllegalStateException("failed on purpose: " + in);
        }
        return in;
    }

    /** A boundary whose request ends when its result completes. */
    public CompletableFuture<String> handleLater(CompletableFuture<String> later) {
        return later;
    }
}
