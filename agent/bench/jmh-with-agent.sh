#!/usr/bin/env bash
# Runs one of the agent's JMH benchmarks (agent/src/test/java/io/hopscope/bench) three times: the
# agent off, on without a recording (its events disabled, the request context still followed), and
# on with its default recording (hopscope.jfc). Builds what it needs unless NO_BUILD is set; prints
# JMH's result tables. handoff.sh and hooks.sh are the ways in.
# USAGE: agent/bench/jmh-with-agent.sh BENCHMARK AGENT_OPTIONS   (from the repository root)
#        e.g. BENCHMARK=HookBenchmark, AGENT_OPTIONS=requests=...,policies=...
#        shorter runs: JMH_ARGS="-wi 2 -i 3 -r 1 -w 1"
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: agent/bench/jmh-with-agent.sh BENCHMARK AGENT_OPTIONS" >&2; exit 2; }
BENCHMARK=$1
. agent/bench/classpath.sh
AGENT="-javaagent:$AGENT_JAR=$2"
JMH_ARGS=${JMH_ARGS:-}
run() {
  java -cp "$BENCH_CP" org.openjdk.jmh.Main "$BENCHMARK" $JMH_ARGS "$@" | grep -E "^(Benchmark +Mode|$BENCHMARK\\.)"
}
echo "== agent off"
run
echo "== agent on (no recording running: events disabled, context still followed)"
run -jvmArgsAppend "$AGENT"
echo "== agent on, recording with hopscope.jfc"
run -jvmArgsAppend "$AGENT,jfr=agent/target/bench-$BENCHMARK.jfr"
