#!/usr/bin/env bash
# What the generic hooks cost on the calling thread: LockSupport#park and an application executor's
# execute, outside a request and inside one (ParkExecuteBenchmark's javadoc says how to read the
# figures). HookCpuCost times them by the thread's CPU time (readable on a loaded machine), with
# the agent off, on, and on with the two generic instrumentations disabled (on minus that is what
# they cost); then, unless CPU_ONLY is set, JMH's wall-clock figures through jmh-with-agent.sh.
# USAGE: agent/bench/generic-hooks.sh     (from the repository root; about a minute for the CPU
#        figures, 3 more for JMH's; shorter JMH: JMH_ARGS="-wi 2 -i 3 -r 1 -w 1")
set -euo pipefail
cd "$(dirname "$0")/../.."
B=io.hopscope.bench.ParkExecuteBenchmark
OPTIONS="requests=$B#parksInRequest;$B#executesInRequest"
. agent/bench/classpath.sh
echo "== CPU per call, agent off"
java -cp "$BENCH_CP" io.hopscope.bench.HookCpuCost
echo "== CPU per call, agent on (no recording)"
java "-javaagent:$AGENT_JAR=$OPTIONS" -cp "$BENCH_CP" io.hopscope.bench.HookCpuCost
echo "== CPU per call, agent on (no recording), disable=parks;any-executor"
java "-javaagent:$AGENT_JAR=$OPTIONS,disable=parks;any-executor" -cp "$BENCH_CP" io.hopscope.bench.HookCpuCost
echo "== CPU per call, agent on, recording with hopscope.jfc"
java "-javaagent:$AGENT_JAR=$OPTIONS,jfr=agent/target/bench-HookCpuCost.jfr" -cp "$BENCH_CP" io.hopscope.bench.HookCpuCost
[ -n "${CPU_ONLY:-}" ] || NO_BUILD=1 AGENT_JAR=$AGENT_JAR exec agent/bench/jmh-with-agent.sh ParkExecuteBenchmark "$OPTIONS"
