#!/usr/bin/env bash
# Overhead of the agent on the pipeline sample: interleaved runs without and with the agent (and its
# default recording, hopscope.jfc), throughput ratio per pair and overall. Target: >= 0.97.
# USAGE: agent/bench/overhead.sh [ROUNDS] [SECONDS] [WARMUP_SECONDS]   (from the repository root;
#        defaults 3, 15 and 40. The measured window starts at second 40: under the agent C2 is
#        busy compiling the agent's event-writing paths (SpanEvent.commit and
#        HopscopeRuntime.boundaryExit, about 60 KB of code each) well after the run without the
#        agent has settled (4.6 s of C2 time in seconds 10-15 against 0.2 s), and before the agent
#        trained the JIT (JitTraining) it recompiled them at 34.4 s, when JFR's timestamps first
#        took a sixth varint byte. It ends before second 60 on purpose:
#        azure-core-http-okhttp schedules a 60 s timeout task per call on its shared scheduler
#        (azure-sdk-global-thread, 20 threads) and cancels it when the call returns; from second 60
#        on, those tasks come due at the request rate and the pool's threads churn on the queue's
#        lock, about 10 us of CPU per request with or without the agent, which only adds noise. A
#        short warm-up, e.g. `overhead.sh 3 10 10`, measures the start-up cost instead.)
# AGENT_OPTS=... adds agent options to jfr=, e.g. AGENT_OPTS=spans=1/8; SCENARIOS=okhttp (or netty)
# runs one scenario only.
# Costs ROUNDS x 2 scenarios x 2 runs x (SECONDS + WARMUP + start-up).
# Also prints the process CPU time per measured request (the sample's cpu_us_per_op: all threads,
# JIT and GC included, over the measured window only), which a machine shared with other work
# disturbs less than throughput does, and the ratio of the summed CPU per request.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${1:-3}
SECONDS_PER_RUN=${2:-15}
WARMUP=${3:-40}
SAMPLES=${SAMPLES:-samples/target/hopscope-samples.jar}
AGENT=agent/target/hopscope-agent.jar
[ -f "$SAMPLES" ] && [ -f "$AGENT" ] || { echo "overhead: build first: make build" >&2; exit 2; }
OUT=$(mktemp -d)
ops() { grep '^ops_per_s:' "$1" | awk '{print $2}'; }
# CPU microseconds per measured request, as the sample prints it.
cpu_us() { grep '^cpu_us_per_op:' "$1" | awk '{print $2}'; }

scenario() {
  local name=$1; shift
  local args=("$@")
  local sum_off=0 sum_on=0 cpu_off=0 cpu_on=0
  echo "== $name: ${args[*]}"
  for round in $(seq 1 "$ROUNDS"); do
    java -jar "$SAMPLES" pipeline "${args[@]}" --warmup "$WARMUP" --duration "$SECONDS_PER_RUN" >"$OUT/off" 2>&1
    java -javaagent:"$AGENT"=jfr="$OUT/on.jfr"${AGENT_OPTS:+,$AGENT_OPTS} -jar "$SAMPLES" pipeline "${args[@]}" --warmup "$WARMUP" \
      --duration "$SECONDS_PER_RUN" >"$OUT/on" 2>&1
    off=$(ops "$OUT/off"); on=$(ops "$OUT/on")
    echo "round $round: without ${off} ops/s, with ${on} ops/s, ratio $(awk -v a="$on" -v b="$off" 'BEGIN{printf "%.3f", a/b}'); cpu/request $(cpu_us "$OUT/off") us without, $(cpu_us "$OUT/on") us with"
    sum_off=$(awk -v a="$sum_off" -v b="$off" 'BEGIN{print a+b}'); sum_on=$(awk -v a="$sum_on" -v b="$on" 'BEGIN{print a+b}')
    cpu_off=$(awk -v a="$cpu_off" -v b="$(cpu_us "$OUT/off")" 'BEGIN{print a+b}')
    cpu_on=$(awk -v a="$cpu_on" -v b="$(cpu_us "$OUT/on")" 'BEGIN{print a+b}')
  done
  echo "$name: ratio of summed throughput $(awk -v a="$sum_on" -v b="$sum_off" 'BEGIN{printf "%.3f", a/b}') (target >= 0.97);" \
    "CPU per request without / with $(awk -v a="$cpu_off" -v b="$cpu_on" 'BEGIN{printf "%.3f", a/b}')"
}

SCENARIOS=${SCENARIOS:-okhttp netty}
[ -n "${AGENT_OPTS:-}" ] && echo "agent options: jfr=...,$AGENT_OPTS"
case " $SCENARIOS " in *" okhttp "*) scenario "okhttp sync" --mode sync --http-client okhttp --parallel 8 --size 1024 ;; esac
case " $SCENARIOS " in *" netty "*) scenario "netty sync-over-async" --mode sync-over-async --http-client netty --parallel 8 --size 1024 ;; esac
rm -rf "$OUT"
