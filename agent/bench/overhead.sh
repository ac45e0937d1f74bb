#!/usr/bin/env bash
# Overhead of the agent on the pipeline sample: interleaved runs without and with the agent (and its
# default recording, hopscope.jfc), throughput ratio per pair and overall. Target: >= 0.97.
# USAGE: agent/bench/overhead.sh [ROUNDS] [SECONDS] [WARMUP_SECONDS]   (from the repository root;
#        defaults 5, 10 and 10: the warm-up must cover the agent's class loading and transformation,
#        which on a loaded machine spills past a 3 s warm-up into the measured window)
# Costs ROUNDS x 2 scenarios x 2 runs x (SECONDS + WARMUP + start-up).
# Also prints the process CPU time (user + sys, whole run including start-up and warm-up) per
# measured request, which a machine shared with other work disturbs less than throughput does.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${1:-5}
SECONDS_PER_RUN=${2:-10}
WARMUP=${3:-10}
SAMPLES=${SAMPLES:-samples/target/hopscope-samples.jar}
AGENT=agent/target/hopscope-agent.jar
[ -f "$SAMPLES" ] && [ -f "$AGENT" ] || { echo "overhead: build first: make build" >&2; exit 2; }
OUT=$(mktemp -d)
ops() { grep '^ops_per_s:' "$1" | awk '{print $2}'; }
# CPU microseconds per measured request: (user + sys seconds, from /usr/bin/time) / ops.
cpu_us() { awk '/^ops:/{ops=$2} /^cpu_s:/{cpu=$2+$3} END{printf "%.0f", cpu*1e6/ops}' "$1"; }
TIME=(/usr/bin/time -f "cpu_s: %U %S")

scenario() {
  local name=$1; shift
  local args=("$@")
  local sum_off=0 sum_on=0
  echo "== $name: ${args[*]}"
  for round in $(seq 1 "$ROUNDS"); do
    "${TIME[@]}" java -jar "$SAMPLES" pipeline "${args[@]}" --warmup "$WARMUP" --duration "$SECONDS_PER_RUN" >"$OUT/off" 2>&1
    "${TIME[@]}" java -javaagent:"$AGENT"=jfr="$OUT/on.jfr" -jar "$SAMPLES" pipeline "${args[@]}" --warmup "$WARMUP" \
      --duration "$SECONDS_PER_RUN" >"$OUT/on" 2>&1
    off=$(ops "$OUT/off"); on=$(ops "$OUT/on")
    echo "round $round: without ${off} ops/s, with ${on} ops/s, ratio $(awk -v a="$on" -v b="$off" 'BEGIN{printf "%.3f", a/b}'); cpu/request $(cpu_us "$OUT/off") us without, $(cpu_us "$OUT/on") us with"
    sum_off=$(awk -v a="$sum_off" -v b="$off" 'BEGIN{print a+b}'); sum_on=$(awk -v a="$sum_on" -v b="$on" 'BEGIN{print a+b}')
  done
  echo "$name: ratio of summed throughput $(awk -v a="$sum_on" -v b="$sum_off" 'BEGIN{printf "%.3f", a/b}') (target >= 0.97)"
}

scenario "okhttp sync" --mode sync --http-client okhttp --parallel 8 --size 1024
scenario "netty sync-over-async" --mode sync-over-async --http-client netty --parallel 8 --size 1024
rm -rf "$OUT"
