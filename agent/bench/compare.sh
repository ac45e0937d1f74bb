#!/usr/bin/env bash
# Interleaved rounds of several JVM configurations on the pipeline sample (OkHttp sync, --parallel 8,
# 1 KiB), for splitting the agent's overhead or comparing two builds of it in one series.
# USAGE: agent/bench/compare.sh [-r ROUNDS] [-s SECONDS] [-w WARMUP] NAME=JAVA_OPTIONS ...
#   e.g. agent/bench/compare.sh -r 8 none= \
#          old="-javaagent:/tmp/old-agent.jar=jfr=/tmp/old.jfr" \
#          new="-javaagent:agent/target/hopscope-agent.jar=jfr=/tmp/new.jfr"
# (from the repository root, after `make build`). Each round runs every configuration once, in the
# order given; the first configuration is the reference of the ratios. Defaults: 6 rounds, 15 s
# measured after a 40 s warm-up (see overhead.sh for why those windows). SAMPLE_ARGS replaces the
# sample's arguments (default: pipeline --mode sync --http-client okhttp --parallel 8 --size 1024);
# JAVA the java to run (default: java on the PATH; e.g. a JDK 21+ for --callers virtual).
# Prints each run's throughput and CPU time per request (the sample's cpu_us_per_op: the whole
# process over the measured window), its context switches per request (all threads', from
# /proc/PID/task/*/status, over the window's middle: at least 8 s measured) and its CPU per
# request by kind of thread over the same part (JIT compilers, GC, JFR, the JVM's own, the rest:
# from /proc/PID/task/*/stat, 10 ms ticks; a thread that ends inside the part is missed), its GCs, allocation per request and p99 latency, then per configuration the mean throughput, its ratio to the
# reference's mean, the mean of the per-round ratios with their standard error, and the mean CPU
# per request with its difference to the reference. A round's runs share the machine's state of
# the moment, so the per-round ratio is the steadier figure when the machine drifts.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=6 SECONDS_PER_RUN=15 WARMUP=40
while getopts "r:s:w:" opt; do
  case $opt in
    r) ROUNDS=$OPTARG ;;
    s) SECONDS_PER_RUN=$OPTARG ;;
    w) WARMUP=$OPTARG ;;
    *) echo "compare: usage: compare.sh [-r ROUNDS] [-s SECONDS] [-w WARMUP] NAME=JAVA_OPTIONS ..." >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ "$SECONDS_PER_RUN" -ge 8 ] || { echo "compare: measure at least 8 s (-s), the switches window is 3 s shorter" >&2; exit 2; }
[ $# -ge 2 ] || { echo "compare: give at least two configurations, NAME=JAVA_OPTIONS (the first is the reference)" >&2; exit 2; }
. agent/bench/sample.sh
[ -f "$SAMPLES" ] || { echo "compare: $SAMPLES not found: build first: make build" >&2; exit 2; }
read_configurations compare "$@"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
# One figure of the last run, as the sample prints it ("key: value").
fig() { awk -v k="$1:" '$1 == k {print $2}' "$OUT/run"; }
# CPU ticks (utime + stime) of a process's live threads so far, by kind of thread: the JIT's
# compiler threads, the GC's, JFR's, the JVM's other threads, and the rest (the application's,
# async-profiler's, an agent's), as "jit gc jfr vm app".
threadticks() { for t in /proc/"$1"/task/*; do
    printf '%s\t%s\n' "$(cat "$t/comm" 2>/dev/null)" "$(cut -d')' -f2- "$t/stat" 2>/dev/null | awk '{print $12 + $13}')"
  done | awk -F'\t' '$2 != "" { k = $1 ~ /^C[12] CompilerThre/ ? "jit" : $1 ~ /^(GC Thread|G1 |VM Periodic|VM Thread)/ ? ($1 ~ /^VM/ ? "vm" : "gc") \
      : $1 ~ /^JFR / ? "jfr" : $1 ~ /^(Service Thread|Monitor Deflati|Common-Cleaner|Finalizer|Reference Handl|Signal Dispatch|Notification Th|Sweeper)/ ? "vm" : "app"; t[k] += $2 }
    END { print t["jit"] + 0, t["gc"] + 0, t["jfr"] + 0, t["vm"] + 0, t["app"] + 0 }'; }
# The voluntary and involuntary context switches of a process's live threads so far.
switches() { cat /proc/"$1"/task/*/status 2>/dev/null | awk '$1 == "voluntary_ctxt_switches:" {v += $2}
    $1 == "nonvoluntary_ctxt_switches:" {n += $2} END {print v + 0, n + 0}'; }
echo "compare: ${#names[@]} configurations, $ROUNDS rounds, ${WARMUP} s warm-up + ${SECONDS_PER_RUN} s; load $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq 1 "$ROUNDS"); do
  for i in "${!names[@]}"; do
    read -r -a jopts <<< "${opts[$i]}"
    "$JAVA" "${jopts[@]}" -jar "$SAMPLES" "${SAMPLE[@]}" --warmup "$WARMUP" --duration "$SECONDS_PER_RUN" >"$OUT/run" 2>&1 &
    pid=$!
    # Context switches inside the measured window: from 3 s after it can start (the JVM reaches
    # main 0-3 s after launch, the agent's install included) to its earliest end.
    sleep $((WARMUP + 3)); a=$(switches "$pid"); ta=$(threadticks "$pid"); t0=$(date +%s.%N)
    sleep $((SECONDS_PER_RUN - 3)); b=$(switches "$pid"); tb=$(threadticks "$pid"); t1=$(date +%s.%N)
    wait "$pid" || { echo "compare: ${names[$i]} failed in round $round:" >&2; tail -5 "$OUT/run" >&2; exit 1; }
    ops=$(fig ops_per_s); cpu=$(fig cpu_us_per_op)
    read -r cs vcs < <(awk -v a="$a" -v b="$b" -v t0="$t0" -v t1="$t1" -v ops="$ops" 'BEGIN {
        split(a, x, " "); split(b, y, " "); n = (t1 - t0) * ops
        printf "%.2f %.2f\n", (y[1] + y[2] - x[1] - x[2]) / n, (y[1] - x[1]) / n }')
    split=$(awk -v a="$ta" -v b="$tb" -v t0="$t0" -v t1="$t1" -v ops="$ops" -v hz="$(getconf CLK_TCK)" 'BEGIN {
        split(a, x, " "); split(b, y, " "); n = (t1 - t0) * ops; split("jit gc jfr vm app", k, " ")
        for (i = 1; i <= 5; i++) printf "%s %.1f%s", k[i], (y[i] - x[i]) / hz * 1e6 / n, i < 5 ? ", " : "\n" }')
    echo "$round ${names[$i]} $ops $cpu $cs" >> "$OUT/all"
    printf 'round %d %-12s %10.1f ops/s %6.1f us/request  %5.2f switches/request (%.2f voluntary)  gc %s in %s ms, %s B/request, p99 %s us\n' \
      "$round" "${names[$i]}" "$ops" "$cpu" "$cs" "$vcs" "$(fig gc_count)" "$(fig gc_time_ms)" "$(fig allocated_bytes_per_op)" "$(fig latency_p99_us)"
    echo "        us of CPU a request by thread, same window: $split"
  done
done
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v ref="${names[0]}" -v order="${names[*]}" '
  { ops[$2] += $3; cpu[$2] += $4; cs[$2] += $5; n[$2]++; r[$1, $2] = $3; rounds[$1] = 1 }
  END {
    k = split(order, names, " ")
    printf "%-12s %10s %8s %18s %10s %8s %10s\n", "config", "ops/s", "ratio", "round ratios", "us/req", "delta", "sw/req"
    for (j = 1; j <= k; j++) {
      c = names[j]; s = 0; ss = 0; m = 0
      for (x in rounds) { q = r[x, c] / r[x, ref]; s += q; ss += q * q; m++ }
      mean = s / m; se = m > 1 ? sqrt((ss - m * mean * mean) / (m - 1) / m) : 0
      printf "%-12s %10.1f %8.3f %11.3f +-%.3f %10.1f %+8.1f %10.2f\n", c, ops[c] / n[c], (ops[c] / n[c]) / (ops[ref] / n[ref]),
        mean, se, cpu[c] / n[c], cpu[c] / n[c] - cpu[ref] / n[ref], cs[c] / n[c]
    }
  }' "$OUT/all"
