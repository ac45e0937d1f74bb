#!/usr/bin/env bash
# JMH benchmark of what the agent's hooks cost on a request's own thread: one request boundary, and
# a chain of nested policy spans inside a request and outside one (HookBenchmark's javadoc says how
# to read the figures). Runs it with the agent off, on without a recording (events disabled), and on
# with its default recording (hopscope.jfc). Builds what it needs; prints JMH's result tables.
# USAGE: agent/bench/hooks.sh            (from the repository root; about 3 minutes;
#        shorter: JMH_ARGS="-wi 2 -i 3 -r 1 -w 1" agent/bench/hooks.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
MVN=${MVN:-mvn -B -ntp -q}
if [ -z "${NO_BUILD:-}" ]; then
  $MVN -pl samples,agent -am -DskipTests package
  $MVN -pl agent dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.classpath
fi
CP="agent/target/test-classes:$(cat agent/target/bench.classpath)"
JMH_ARGS=${JMH_ARGS:-}
B=io.hopscope.bench.HookBenchmark
AGENT="-javaagent:$PWD/agent/target/hopscope-agent.jar=requests=$B#inRequest;$B#inBareRequest,policies=$B\$Stage"
run() {
  java -cp "$CP" org.openjdk.jmh.Main HookBenchmark $JMH_ARGS "$@" | grep -E '^(Benchmark +Mode|HookBenchmark\.)'
}
echo "== agent off"
run
echo "== agent on (no recording running: events disabled, context still followed)"
run -jvmArgsAppend "$AGENT"
echo "== agent on, recording with hopscope.jfc"
run -jvmArgsAppend "$AGENT,jfr=agent/target/bench-hooks.jfr"
