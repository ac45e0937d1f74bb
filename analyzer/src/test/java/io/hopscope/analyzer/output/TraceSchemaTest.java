package io.hopscope.analyzer.output;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.testing.TraceSchema;
import org.junit.jupiter.api.Test;

/** The schema check itself catches what it is there for, so that its silence on real traces means something. */
class TraceSchemaTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void catchesUnpairedFlowsMissingFieldsAndUnnamedThreads() throws Exception {
        String bad = """
                {"traceEvents":[
                  {"name":"a","ph":"X","ts":1,"pid":1,"tid":7},
                  {"name":"h","cat":"hop","ph":"s","ts":1,"pid":1,"tid":7,"id":1},
                  {"name":"h","cat":"hop","ph":"f","ts":2,"pid":1,"tid":7,"id":2,"bp":"e"},
                  {"ph":"X","ts":1,"dur":1,"pid":1,"tid":7}
                ]}""";
        assertThat(TraceSchema.check(JSON.readTree(bad))).anyMatch(p -> p.contains("complete event needs dur"))
                .anyMatch(p -> p.contains("flow id 1: 1 start(s), 0 finish(es)"))
                .anyMatch(p -> p.contains("flow id 2: a finish without a start"))
                .anyMatch(p -> p.contains("no name"))
                .anyMatch(p -> p.contains("tid 7: no thread_name"));
    }

    @Test
    void acceptsAWellFormedTrace() throws Exception {
        String good = """
                {"traceEvents":[
                  {"name":"seg","cat":"segment","ph":"X","ts":1,"dur":3,"pid":1,"tid":7},
                  {"name":"h","cat":"hop","ph":"s","ts":1,"pid":1,"tid":7,"id":1},
                  {"name":"h","cat":"hop","ph":"f","ts":2,"pid":1,"tid":8,"id":1,"bp":"e"},
                  {"name":"thread_name","ph":"M","pid":1,"tid":7,"args":{"name":"a"}},
                  {"name":"thread_name","ph":"M","pid":1,"tid":8,"args":{"name":"b"}}
                ]}""";
        assertThat(TraceSchema.check(JSON.readTree(good))).isEmpty();
    }
}
