package io.hopscope.agent.instrumentation.requests;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.AgentRun;
import io.hopscope.agent.testing.Requests;
import java.util.Comparator;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The application's own boundaries and pipeline stages, named by agent options only
 * (testapps.RequestsApp): every overload of a {@code requests=} method is a boundary, whatever it
 * returns; one inside a request is a span of it; a throwing one is an error; one returning a
 * CompletableFuture ends where that completes; every implementation of a {@code policies=}
 * interface, direct or through a base class, is timed as policy spans, and nothing else of it.
 */
class RequestsIT {

    private static final String APP = "io.hopscope.testapps.RequestsApp";
    private static final String HANDLE = APP + "#handle";
    private static final String HANDLE_LATER = APP + "#handleLater";

    /** RequestsApp's requests in the order main made them. */
    private static List<Requests.Request> requests;

    @BeforeAll
    static void runTheApp() throws Exception {
        AgentRun run = AgentRun.run("jfr=%JFR%,spanthreshold=0,requests=" + HANDLE + ";" + HANDLE_LATER
                + ",policies=" + APP + "$Stage", List.of("-cp", System.getProperty("hopscope.test.classes"), APP));
        assertThat(run.stdout).as(run.stderr).contains("handle(String): [HOP]!12", "handle(int): 14", "handle(): done",
                "handle(String, boolean): failed on purpose: x", "handleLater(): later");
        requests = run.cleanRequests(5).values().stream()
                .sorted(Comparator.comparing(r -> r.request.getStartTime())).toList();
        assertThat(requests).hasSize(5);
    }

    @Test
    void everyOverloadIsARequestNamedByItsMethod() {
        for (Requests.Request r : requests.subList(0, 4)) {
            assertThat(r.request.getString("boundary")).isEqualTo(HANDLE);
            assertThat(r.request.getString("name")).isEqualTo(HANDLE);
            assertThat(r.request.getString("url")).isNull();
            assertThat(r.request.getInt("statusCode")).isEqualTo(-1);
            assertThat(Requests.startThreadName(r.request)).isEqualTo("main");
            assertThat(r.request.getThread().getJavaName()).isEqualTo("main");
            assertThat(r.hops).isEmpty();
        }
        assertThat(requests.subList(0, 3)).allSatisfy(r -> r.assertOk(HANDLE));
    }

    @Test
    void aThrowingBoundaryIsAnErrorNamingTheExceptionsClass() {
        Requests.Request failed = requests.get(3);
        assertThat(failed.request.getString("outcome")).isEqualTo("error");
        assertThat(failed.request.getString("error")).isEqualTo("java.lang.IllegalStateException");
    }

    @Test
    void aBoundaryReturningAFutureEndsWhereTheFutureCompletes() {
        Requests.Request later = requests.get(4);
        later.assertOk(HANDLE_LATER);
        assertThat(Requests.startThreadName(later.request)).isEqualTo("main");
        assertThat(later.request.getThread().getJavaName()).isEqualTo("completer");
    }

    @Test
    void eachStageImplementationIsAPolicySpanAndANestedBoundaryIsASpanOfTheRequest() {
        Requests.Request first = requests.get(0);
        List<RecordedEvent> spans = first.spans.stream().sorted(Comparator.comparing(RecordedEvent::getStartTime)).toList();
        assertThat(spans).extracting(s -> s.getString("kind") + " " + s.getString("name"))
                .containsExactly("policy " + APP + "$Upper", "policy " + APP + "$Brackets", "policy " + APP + "$Exclaim",
                        "boundary " + HANDLE);
        for (RecordedEvent span : spans) {
            assertThat(span.getString("mode")).isEqualTo("sync");
            assertThat(span.getLong("parentSpanId")).isZero();
            assertThat(span.getInt("depth")).isZero();
            assertThat(span.getThread().getJavaName()).isEqualTo("main");
        }
        // handle() runs one stage; handle(int) and the throwing one none.
        assertThat(requests.get(2).spans).extracting(s -> s.getString("name")).containsExactly(APP + "$Upper");
        assertThat(requests.get(1).spans).isEmpty();
        assertThat(requests.get(3).spans).isEmpty();
    }
}
