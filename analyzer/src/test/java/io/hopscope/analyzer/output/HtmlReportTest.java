package io.hopscope.analyzer.output;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.model.AgentWork;
import io.hopscope.analyzer.model.NameSummary;
import io.hopscope.analyzer.model.Report;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.model.ThreadRef;
import io.hopscope.analyzer.model.RequestWindow;
import io.hopscope.analyzer.model.RequestsKept;
import io.hopscope.analyzer.model.Warmup;
import io.hopscope.analyzer.testing.RequestBuilder;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code report --format html} over a fixed model with agent work and warm-up requests kept apart:
 * the page's data carries the same lines as the text report, the template has the parts that show
 * them, and a hostile request name stays data.
 */
class HtmlReportTest {

    static final String HOSTILE = "GET <img src=x onerror=alert(1)>";
    static final AgentWork STEADY_WORK = new AgentWork(0, 0, 0, -1, 2048, 0);
    static final AgentWork WARMUP_WORK = new AgentWork(212, 3, 41 * ExpectedOutputTest.MS, -1, 13 << 20, 0);

    /** ExpectedOutputTest's report, its request now with a little agent work and one warm-up request apart. */
    static Report report() {
        Report base = ExpectedOutputTest.report("a.jfr", 1);
        Request steady = withAgentWork(base.requests().get(0), base.requests().get(0).id(), base.requests().get(0).name(),
                STEADY_WORK);
        Request warm = withAgentWork(steady, 3, HOSTILE, WARMUP_WORK);
        NameSummary s = base.summary().get(0);
        NameSummary summary = new NameSummary(s.name(), s.count(), s.throughputPerSecond(), s.p50Nanos(), s.p90Nanos(),
                s.p99Nanos(), s.maxNanos(), s.meanNanos(), s.meanHops(), s.maxHops(), s.meanQueueDelayNanos(),
                s.meanWakeLatencyNanos(), s.meanHandoffHops(), s.meanWakeHops(), s.meanReturnHops(),
                s.meanReturnDelayNanos(), s.meanAllocatedBytes(), s.meanLockNanos(), s.meanBlockedNanos(),
                s.meanGcNanos(), s.meanMounts(), s.meanMountWaitNanos(), s.meanPinnedNanos(), s.nonBlockingShare(),
                s.errors(), s.meanUnexplainedNanos(), s.explainedShare(), s.unexplainedRequests(), 2,
                STEADY_WORK.plus(WARMUP_WORK));
        return new Report(base.recording(), List.of(summary), List.of(steady), RequestWindow.ALL,
                RequestsKept.NOT_STATED, List.of(warm), Warmup.apart);
    }

    static Request withAgentWork(Request r, long id, String name, AgentWork work) {
        return RequestBuilder.from(r, id, name).agentWork(work).build();
    }

    static String page(Report report) throws Exception {
        StringWriter out = new StringWriter();
        HtmlReport.write(report, 10, List.of(), null, out);
        return out.toString();
    }

    @Test
    void aServerRequestsCallsAndTheThreadThatHandedItOverAreSetAsText() throws Exception {
        String call = "<img src=x onerror=alert(7)>#send";
        ThreadRef poller = new ThreadRef(51, 4201, "</script><script>alert(8)</script>");
        String page = page(ExpectedOutputTest.serverReport(call, poller));
        assertThat(page).doesNotContain(call).doesNotContain(poller.name());
        JsonNode r = data(page).get("requests").get(0);
        assertThat(r.get("calls").asText()).isEqualTo(call + " 2 x 6.00 ms (total 12.00 ms, self 12.00 ms)");
        assertThat(r.get("lanes").get(0).get("thread").asText()).isEqualTo(poller.name());
        assertThat(r.get("lanes").get(0).get("origin").asBoolean()).isTrue();
        assertThat(r.get("hopList").get(0).get("from").asText()).isEqualTo(poller.name());
        // The template sets the calls as text, as everything else from the recording.
        assertThat(page).contains("box.appendChild(el('div', 'calls: ' + r.calls));");
    }

    static JsonNode data(String page) throws Exception {
        String mark = "<script type=\"application/json\" id=\"hopscope-data\">";
        int start = page.indexOf(mark) + mark.length();
        return new ObjectMapper().readTree(page.substring(start, page.indexOf("</script>", start)));
    }

    @Test
    void theAgentsOwnWorkIsShownApartForTheRecordingEachNameAndEachRequest() throws Exception {
        JsonNode data = data(page(report()));
        assertThat(data.get("agentWork").asText()).isEqualTo("13.00 MiB, 41.00 ms transforming 212 class(es) (3 rewritten)");
        assertThat(data.get("summary").get(0).get("agentWork").asText())
                .isEqualTo("13.00 MiB, 41.00 ms transforming 212 class(es) (3 rewritten)");
        assertThat(data.get("requests").get(0).get("agentWork").asText()).isEqualTo("2.0 KiB, 0 ns transforming 0 class(es)");
        assertThat(data.get("requests").get(0).get("warmup").asText()).isEmpty();
    }

    @Test
    void warmUpRequestsAreApartWithWhatTheyWaitedOn() throws Exception {
        JsonNode data = data(page(report()));
        assertThat(data.get("warmupApart").asBoolean()).isTrue();
        assertThat(data.get("warmupCount").asLong()).isEqualTo(2);
        assertThat(data.get("summary").get(0).get("warmup").asLong()).isEqualTo(2);
        assertThat(data.get("requests")).hasSize(1);
        assertThat(data.get("requests").get(0).get("id").asLong()).isEqualTo(7);
        JsonNode warm = data.get("warmupRequests");
        assertThat(warm).hasSize(1);
        assertThat(warm.get(0).get("id").asLong()).isEqualTo(3);
        assertThat(warm.get(0).get("warmup").asText())
                .isEqualTo("warm-up: waited on 212 class load(s), 41.00 ms in the agent's transformer, gc 500.0 us");
    }

    @Test
    void aReportOfEveryRequestListsItsWarmUpOnesApartFromTheWorst() throws Exception {
        // What report --format html and record analyze: every request (for the hops flame graph),
        // ranked together, the warm-up one the worst of them.
        Report apart = report();
        Report every = new Report(apart.recording(), apart.summary(),
                List.of(apart.warmupRequests().get(0), apart.requests().get(0)), RequestWindow.ALL,
                RequestsKept.NOT_STATED, List.of(), Warmup.apart);
        JsonNode data = data(page(every));
        assertThat(data.get("warmupApart").asBoolean()).isTrue();
        assertThat(data.get("requests")).hasSize(1);
        assertThat(data.get("requests").get(0).get("id").asLong()).isEqualTo(7);
        assertThat(data.get("warmupRequests")).hasSize(1);
        assertThat(data.get("warmupRequests").get(0).get("id").asLong()).isEqualTo(3);
        // --warmup include ranks it with the others.
        Report include = new Report(every.recording(), every.summary(), every.requests(), RequestWindow.ALL,
                RequestsKept.NOT_STATED, List.of(), Warmup.include);
        JsonNode together = data(page(include));
        assertThat(together.get("requests").get(0).get("id").asLong()).isEqualTo(3);
        assertThat(together.get("warmupRequests")).isEmpty();
    }

    @Test
    void thePageHasThePartsThatShowThem() throws Exception {
        String page = page(report());
        assertThat(page).contains("id=\"agent-work\"", "id=\"warmup-section\" hidden", "<h2>Warm-up requests</h2>",
                "id=\"steady-note\"", "'warm-up'", "in no figure below");
    }

    @Test
    void aRecordingsNameInTheWarmUpPartStaysData() throws Exception {
        String page = page(report());
        assertThat(page).doesNotContain("<img src=x");
        assertThat(data(page).get("warmupRequests").get(0).get("name").asText()).isEqualTo(HOSTILE);
    }

    @Test
    void withoutAgentWorkOrWarmUpNothingIsAdded() throws Exception {
        JsonNode data = data(page(ExpectedOutputTest.report("a.jfr", 1)));
        assertThat(data.get("agentWork").asText()).isEmpty();
        assertThat(data.get("warmupApart").asBoolean()).isFalse();
        assertThat(data.get("warmupRequests")).isEmpty();
        assertThat(data.get("summary").get(0).get("warmup").asLong()).isZero();
        assertThat(data.get("requests").get(0).get("agentWork").asText()).isEmpty();
    }
}
