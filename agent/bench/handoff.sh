#!/usr/bin/env bash
# JMH benchmark of the per-handoff cost (ThreadPoolExecutor.execute + task run), with and without a
# current request, agent off and on. Builds what it needs; prints JMH's result tables.
# USAGE: agent/bench/handoff.sh            (from the repository root; about 2 minutes)
set -euo pipefail
cd "$(dirname "$0")/../.."
MVN=${MVN:-mvn -B -ntp -q}
$MVN -pl samples,agent -am -DskipTests package
$MVN -pl agent dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.classpath
CP="agent/target/test-classes:$(cat agent/target/bench.classpath)"
# Shorter runs: JMH_ARGS="-wi 2 -i 3 -r 1 -w 1" agent/bench/handoff.sh
JMH_ARGS=${JMH_ARGS:-}
AGENT="-javaagent:$PWD/agent/target/hopscope-agent.jar=requests=io.hopscope.bench.HandoffBenchmark#inRequest;io.hopscope.bench.HandoffBenchmark#inRequestSubmitOnly"
echo "== agent off"
java -cp "$CP" org.openjdk.jmh.Main HandoffBenchmark $JMH_ARGS | grep -E '^Benchmark|HandoffBenchmark\.'
echo "== agent on (no recording running: events disabled, context still followed)"
java -cp "$CP" org.openjdk.jmh.Main HandoffBenchmark $JMH_ARGS -jvmArgsAppend "$AGENT" | grep -E '^Benchmark|HandoffBenchmark\.'
echo "== agent on, recording with hopscope.jfc"
java -cp "$CP" org.openjdk.jmh.Main HandoffBenchmark $JMH_ARGS -jvmArgsAppend "$AGENT,jfr=agent/target/bench-handoff.jfr" \
  | grep -E '^Benchmark|HandoffBenchmark\.'
