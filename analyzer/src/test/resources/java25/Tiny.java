import jdk.jfr.Category;
import jdk.jfr.Event;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * Run as a single-file program on another JDK with -XX:StartFlightRecording: commits a few contract
 * events (hopscope.Request, hopscope.Segment, hopscope.Hop) the way the agent would, plus whatever
 * the JDK records, so the analyzer's reading of that JDK's format is tested; the last request's
 * worker is a virtual thread.
 */
public class Tiny {

    @Name("hopscope.Request") @Category("hopscope") @StackTrace(false)
    static class RequestEvent extends Event {
        long requestId; String name; String boundary; String url; String outcome; String error; int statusCode; Thread startThread;
    }

    @Name("hopscope.Segment") @Category("hopscope") @StackTrace(false)
    static class SegmentEvent extends Event {
        long requestId; String kind; long allocatedBytes; long cpuNanos;
    }

    @Name("hopscope.Hop") @Category("hopscope") @StackTrace(false)
    static class HopEvent extends Event {
        long requestId; String kind; Thread fromThread; Thread toThread; long delayNanos; String via;
    }

    static volatile Object sink;

    public static void main(String[] args) throws Exception {
        Thread caller = Thread.currentThread();
        for (int i = 1; i <= 5; i++) {
            long id = i;
            RequestEvent request = new RequestEvent();
            request.begin();
            SegmentEvent first = new SegmentEvent();
            first.begin();
            sink = new byte[64 * 1024];
            first.requestId = id;
            first.kind = "start";
            first.allocatedBytes = 64 * 1024;
            first.cpuNanos = -1;
            first.commit();
            Runnable work = () -> {
                HopEvent hop = new HopEvent();
                hop.requestId = id;
                hop.kind = "handoff";
                hop.fromThread = caller;
                hop.toThread = Thread.currentThread();
                hop.delayNanos = 1000;
                hop.via = "java.lang.Thread";
                hop.commit();
                SegmentEvent onWorker = new SegmentEvent();
                onWorker.begin();
                boolean virtual = Thread.currentThread().isVirtual();
                for (int k = 0; k < (virtual ? 16 : 1); k++) {
                    sink = new byte[128 * 1024];
                }
                onWorker.requestId = id;
                onWorker.kind = "task";
                // As the agent writes it: a virtual thread has no allocation counter on JDK 21-25.
                onWorker.allocatedBytes = virtual ? -1 : 128 * 1024;
                onWorker.cpuNanos = -1;
                onWorker.commit();
            };
            // The last request's worker is an unnamed virtual thread: no OS thread, no name.
            Thread worker = i == 5 ? Thread.ofVirtual().unstarted(work) : new Thread(work, "tiny-worker-" + i);
            worker.start();
            worker.join();
            request.requestId = id;
            request.name = "GET 127.0.0.1/tiny";
            request.boundary = "Tiny#main";
            request.outcome = "ok";
            request.statusCode = 200;
            request.startThread = caller;
            request.commit();
        }
        System.gc();
        System.out.println("tiny done");
    }
}
