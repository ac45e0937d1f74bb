package io.hopscope.analyzer.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.analysis.memory.RequestCodec;
import io.hopscope.analyzer.model.AgentWork;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.model.Segment;
import io.hopscope.analyzer.model.ThreadRef;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import org.junit.jupiter.api.Test;

/**
 * A request's share of the agent's own work (hopscope.AgentWork and allocation samples in the
 * agent's package): apart from its figures, never one of its sites, and kept through the spill file.
 */
class AgentWorkTest {

    private static final ThreadRef CALLER = new ThreadRef(1, 101, "caller");

    @Test
    void theAgentsWorkIsApartFromTheRequestsFigures() throws Exception {
        RequestInProgress r = new RequestInProgress(7, true);
        r.name = "GET 127.0.0.1/x";
        r.durationNanos = 50_000_000;
        r.addSegment(new Segment(CALLER, "start", 0, 40_000_000, 4096, -1));
        r.addAgentWork(CALLER, 212, 3, 30_000_000, -1, 13 << 20);
        r.addAllocationSample("io.hopscope.agent.shaded.bytebuddy.pool.TypePool$Default.describe:100", "byte[]",
                1 << 20, 1);
        r.addAllocationSample("com.example.Api.call:12", "byte[]", 2048, 1);

        Request request = r.toRequest(5);
        assertThat(request.warmup()).isTrue();
        assertThat(request.agentWork()).isEqualTo(new AgentWork(212, 3, 30_000_000, -1, 13 << 20, 1 << 20));
        assertThat(request.allocation().bytes()).isEqualTo(4096);
        assertThat(request.threads().get(0).nanos()).isEqualTo(10_000_000);
        assertThat(request.allocation().sites()).singleElement()
                .satisfies(site -> assertThat(site.frame()).isEqualTo("com.example.Api.call:12"));

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        RequestCodec.write(new DataOutputStream(bytes), request);
        Request back = RequestCodec.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        assertThat(back.agentWork()).isEqualTo(request.agentWork());
        assertThat(back.warmup()).isTrue();
    }

    @Test
    void aRequestWithoutClassLoadsIsSteady() {
        RequestInProgress r = new RequestInProgress(8, true);
        r.addSegment(new Segment(CALLER, "start", 0, 1_000, 64, -1));
        Request request = r.toRequest(5);
        assertThat(request.warmup()).isFalse();
        assertThat(request.agentWork()).isSameAs(AgentWork.NONE);
    }
}
