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
AGENT_JAR=${AGENT_JAR:-$PWD/agent/target/hopscope-agent.jar}   # another build of the agent, to compare two
AGENT="-javaagent:$AGENT_JAR=$2"
MVN=${MVN:-mvn -B -ntp -q}
if [ -z "${NO_BUILD:-}" ]; then
  # One reactor run: the agent's settings module resolves from the reactor only.
  $MVN -pl samples,agent -am -DskipTests package dependency:build-classpath -Dmdep.includeScope=test \
      -Dmdep.outputFile=target/bench.classpath
fi
CP="agent/target/test-classes:$(cat agent/target/bench.classpath)"
JMH_ARGS=${JMH_ARGS:-}
run() {
  java -cp "$CP" org.openjdk.jmh.Main "$BENCHMARK" $JMH_ARGS "$@" | grep -E "^(Benchmark +Mode|$BENCHMARK\\.)"
}
echo "== agent off"
run
echo "== agent on (no recording running: events disabled, context still followed)"
run -jvmArgsAppend "$AGENT"
echo "== agent on, recording with hopscope.jfc"
run -jvmArgsAppend "$AGENT,jfr=agent/target/bench-$BENCHMARK.jfr"
