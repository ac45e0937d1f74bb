import jdk.jfr.Category;
import jdk.jfr.Event;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** Commits a hopscope.Request and a hopscope.Segment every few milliseconds until it is killed. */
public class Endless {

    @Name("hopscope.Request") @Category("hopscope") @StackTrace(false)
    static class RequestEvent extends Event {
        long requestId; String name; String outcome; int statusCode; Thread startThread;
    }

    @Name("hopscope.Segment") @Category("hopscope") @StackTrace(false)
    static class SegmentEvent extends Event {
        long requestId; String kind; long allocatedBytes; long cpuNanos;
    }

    public static void main(String[] args) throws Exception {
        for (long id = 1; ; id++) {
            RequestEvent r = new RequestEvent();
            r.begin();
            SegmentEvent s = new SegmentEvent();
            s.begin();
            Thread.sleep(2);
            s.requestId = id;
            s.kind = "start";
            s.allocatedBytes = 100;
            s.commit();
            r.requestId = id;
            r.name = "GET 127.0.0.1/endless";
            r.outcome = "ok";
            r.statusCode = 200;
            r.startThread = Thread.currentThread();
            r.commit();
            if (id == 1) {
                System.out.println("first request committed");
            }
        }
    }
}
