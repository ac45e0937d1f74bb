#!/usr/bin/env bash
# report-vs-jfr-summary.sh - how long `hopscope report` takes, and how much heap it needs, against
# the JDK's own `jfr summary` on the same large recording, in one run. A benchmark, not a test:
# it prints figures. The machine it runs on may be shared: repeat and read the figures as noisy.
#
# USAGE: analyzer/bench/report-vs-jfr-summary.sh [RECORDING.jfr]
#   Without a recording it generates one (REQUESTS, default 400000 requests = 3.2M events) with
#   the test-scope RecordingGenerator in its own JVM. Once the agent and the samples are on main,
#   give it a recording of a sample under the agent instead, e.g.
#     java -javaagent:agent/target/hopscope-agent.jar=jfr=big.jfr -jar samples/target/hopscope-samples.jar \
#          pipeline --http-client netty --mode sync-over-async --parallel 4 --duration 120
# Needs: mvn -pl analyzer package (the jar and target/test-classes), /usr/bin/time, the JDK's jfr.
#
# What it costs: about a minute; RUNS (default 3) alternating runs of each tool.
# Besides wall time it prints user CPU time (%U of /usr/bin/time): on a machine shared with other
# builds the wall time mostly measures the wait for a core, the CPU time less so.
set -euo pipefail
cd "$(dirname "$0")/../.."
JAR=analyzer/target/hopscope.jar
HEAP=${HEAP:-512m}
RUNS=${RUNS:-3}
REQUESTS=${REQUESTS:-400000}
JFR_TOOL=${JFR_TOOL:-$(dirname "$(readlink -f "$(command -v java)")")/jfr}
FILE=${1:-}
if [ -z "$FILE" ]; then
  FILE=analyzer/target/bench/generated-$REQUESTS.jfr
  if [ ! -f "$FILE" ]; then
    java -cp analyzer/target/classes:analyzer/target/test-classes \
      io.hopscope.analyzer.bench.RecordingGenerator "$REQUESTS" "$FILE"
  fi
fi
[ -f "$JAR" ] || { echo "report-vs-jfr-summary: $JAR missing; run mvn -pl analyzer package" >&2; exit 2; }

events=$("$JFR_TOOL" summary "$FILE" | awk '$2 ~ /^[0-9]+$/ && $1 !~ /^jdk\.(Metadata|CheckPoint)$/ {n += $2} END {print n}')
echo "file: $FILE, $(du -m "$FILE" | cut -f1) MB, $events events; report heap -Xmx$HEAP; $RUNS runs each, alternating"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
summary_times=()
report_times=()
summary_cpu=()
report_cpu=()
for i in $(seq "$RUNS"); do
  t=$( { /usr/bin/time -f "%e %U %M" "$JFR_TOOL" summary "$FILE" > /dev/null; } 2>&1 | tail -1)
  read -r wall user rss <<< "$t"
  summary_times+=("$wall")
  summary_cpu+=("$user")
  echo "  run $i: jfr summary      $wall s wall, $user s user cpu, peak rss $(( rss / 1024 )) MB"
  out=$( { /usr/bin/time -f "%e %U %M" java -Xmx"$HEAP" -jar "$JAR" report "$FILE" --stats > /dev/null; } 2>&1)
  read -r wall user rss <<< "$(echo "$out" | tail -1)"
  report_times+=("$wall")
  report_cpu+=("$user")
  echo "  run $i: hopscope report  $wall s wall, $user s user cpu, peak rss $(( rss / 1024 )) MB; $(echo "$out" | grep '^stats:' | sed 's/^stats: //')"
done
floor=$(java -cp analyzer/target/test-classes io.hopscope.analyzer.bench.ParseFloor "$FILE")
echo "  floor: one bare jdk.jfr.consumer pass reading 4 values per request event: $floor"
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ms=$(median "${summary_times[@]}")
mr=$(median "${report_times[@]}")
cs=$(median "${summary_cpu[@]}")
cr=$(median "${report_cpu[@]}")
echo "median wall: jfr summary $ms s, hopscope report $mr s, ratio $(awk -v a="$mr" -v b="$ms" 'BEGIN {printf "%.1f", a / b}')x (target <= 2x)"
echo "median user cpu: jfr summary $cs s, hopscope report $cr s, ratio $(awk -v a="$cr" -v b="$cs" 'BEGIN {printf "%.1f", a / b}')x; report ran within -Xmx$HEAP"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
