#!/usr/bin/env bash
# What reading the W3C trace context adds to a request (TraceIdCost: the calling thread's CPU time per
# empty requests= boundary, least of 5 rounds of 200,000), in interleaved rounds: the agent without
# OpenTelemetry on the class path, with the API and a span current, and the same two against
# BASE_AGENT_JAR, an agent built without trace ids (e.g. main's before issue 32), when given.
# USAGE: [BASE_AGENT_JAR=...] [ROUNDS=3] agent/bench/trace-ids.sh   (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/../.."
. agent/bench/classpath.sh
NO_OTEL=$(echo "$BENCH_CP" | tr ':' '\n' | grep -v '/io/opentelemetry/' | paste -sd: -)
OPTIONS="requests=io.hopscope.bench.TraceIdCost#request"
for round in $(seq "${ROUNDS:-3}"); do
  for jar in "$AGENT_JAR" ${BASE_AGENT_JAR:+"$BASE_AGENT_JAR"}; do
    echo "== round $round, $jar, no OpenTelemetry on the class path"
    java "-javaagent:$jar=$OPTIONS" -cp "$NO_OTEL" io.hopscope.bench.TraceIdCost
    echo "== round $round, $jar, the OpenTelemetry API on the class path"
    java "-javaagent:$jar=$OPTIONS" -cp "$BENCH_CP" io.hopscope.bench.TraceIdCost
  done
done
