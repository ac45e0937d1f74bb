#!/usr/bin/env bash
# The agent's own share of the process's CPU on the pipeline sample (OkHttp sync, --parallel 8,
# 1 KiB), from async-profiler's CPU samples (asprof=itimer, every 2 ms of CPU) in the agent's own
# recording: each sample is charged to the leafmost frame that is not the JDK, the JVM or a native
# library, so JFR's writer or a clock read called by the agent is the agent's (CpuAttribution's
# javadoc). This is the floor of the agent's cost, without the noise of subtracting two runs; the
# throughput ratio (compare.sh) is the whole, indirect costs included.
# USAGE: agent/bench/attribution.sh [WARMUP_SECONDS] [SECONDS] [AGENT_OPTIONS]   (from the repository
#        root; defaults 40, 15 and nothing besides jfr= and asprof=; about a minute and a half.
#        SAMPLE_ARGS replaces the sample's arguments, e.g. for Netty sync-over-async; KEEP=FILE.jfr
#        keeps the recording, e.g. to compare two runs' profiles with hopscope flame; AGENT=JAR another
#        build of the agent, e.g. to compare two in interleaved runs.)
# Prints the sample's throughput and CPU per request, then the agent's, the application's and the
# runtime's share of the CPU samples after the warm-up (with a binomial standard error), the agent's
# in microseconds per request, and the agent methods the samples are charged to.
set -euo pipefail
cd "$(dirname "$0")/../.."
WARMUP=${1:-40}
SECONDS_PER_RUN=${2:-15}
EXTRA=${3:+,$3}
. agent/bench/sample.sh
AGENT=${AGENT:-agent/target/hopscope-agent.jar}
[ -f "$SAMPLES" ] && [ -f "$AGENT" ] || { echo "attribution: build first: make build" >&2; exit 2; }
MVN=${MVN:-mvn -B -ntp -q}
if [ ! -f agent/target/test-classes/io/hopscope/bench/CpuAttribution.class ] || [ ! -f agent/target/bench.classpath ]; then
  # One reactor run: the agent's settings module resolves from the reactor only.
  $MVN -pl agent -am test-compile dependency:build-classpath -Dmdep.includeScope=test \
      -Dmdep.outputFile=target/bench.classpath
fi
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
JFR=${KEEP:-$OUT/run.jfr}
java "-javaagent:$AGENT=jfr=$JFR,asprof=itimer;interval=2ms$EXTRA" -jar "$SAMPLES" "${SAMPLE[@]}" \
  --warmup "$WARMUP" --duration "$SECONDS_PER_RUN" > "$OUT/run" 2>&1 \
  || { echo "attribution: the sample failed:" >&2; tail -5 "$OUT/run" >&2; exit 1; }
grep -q 'async-profiler could not start' "$OUT/run" && { grep 'async-profiler' "$OUT/run" >&2; exit 1; }
fig() { awk -v k="$1:" '$1 == k {print $2}' "$OUT/run"; }
cpu=$(fig cpu_us_per_op)
echo "sample: $(fig ops_per_s) ops/s, $cpu us of CPU per request (${SAMPLE[*]}, ${WARMUP} s warm-up + ${SECONDS_PER_RUN} s)"
# The recording starts a second or two before the sample's clock (JVM and sample start-up): the
# window is the measured one, shrunk by two seconds at the start and one at the end.
java -cp "agent/target/test-classes:$(cat agent/target/bench.classpath)" io.hopscope.bench.CpuAttribution \
  "$JFR" "$((WARMUP + 2))" "$((WARMUP + SECONDS_PER_RUN))" "$cpu"
