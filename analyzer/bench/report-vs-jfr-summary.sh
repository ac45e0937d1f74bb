#!/usr/bin/env bash
# report-vs-jfr-summary.sh - how long `hopscope report` takes, and how much heap it needs, against
# the JDK's own `jfr summary` on the same large recording, in one run. A benchmark, not a test:
# it prints figures. The machine it runs on may be shared: read the load average it prints.
#
# USAGE: analyzer/bench/report-vs-jfr-summary.sh [RECORDING.jfr]
#   Without a recording it makes one by running the pipeline sample under the agent (okhttp, sync,
#   8 callers, DURATION seconds, default 60: about 312,000 requests, 4.4 M events, 200 MB), once,
#   into analyzer/target/bench/, and reuses it on later runs:
#     java -javaagent:agent/target/hopscope-agent.jar=jfr=FILE -jar samples/target/hopscope-samples.jar \
#          pipeline --mode sync --http-client okhttp --parallel 8 --duration 60
#   SOURCE=generated uses the test-scope RecordingGenerator instead (REQUESTS, default 1000000 =
#   8 M events in one 250 MB dump whose last flush segment holds ~250,000 requests in flight): the
#   larger file for the memory claim.
# Needs: mvn -pl samples,agent,analyzer -am package (the jars and analyzer/target/test-classes),
# /usr/bin/time, the JDK's jfr.
#
# What it costs: RUNS (default 3) alternating runs of `jfr summary` and `hopscope report`, then one
# run of each floor; about a minute on the default file, plus the minute that makes it.
# Wall time is the target's measure (what a user waits for; both tools are JVMs and use the second
# core for the JIT and the GC alike); user+sys CPU time is printed too: on a machine shared with
# other builds the wall time also measures the wait for a core, the CPU time less so.
set -euo pipefail
cd "$(dirname "$0")/../.."
JAR=analyzer/target/hopscope.jar
HEAP=${HEAP:-512m}
RUNS=${RUNS:-3}
SOURCE=${SOURCE:-agent}
DURATION=${DURATION:-60}
REQUESTS=${REQUESTS:-1000000}
JFR_TOOL=${JFR_TOOL:-$(dirname "$(readlink -f "$(command -v java)")")/jfr}
FILE=${1:-}
[ -f "$JAR" ] || { echo "report-vs-jfr-summary: $JAR missing; run mvn -pl samples,agent,analyzer -am package" >&2; exit 2; }
if [ -z "$FILE" ]; then
  mkdir -p analyzer/target/bench
  if [ "$SOURCE" = generated ]; then
    FILE=analyzer/target/bench/generated-$REQUESTS.jfr
    if [ ! -f "$FILE" ]; then
      java -cp analyzer/target/classes:analyzer/target/test-classes \
        io.hopscope.analyzer.bench.RecordingGenerator "$REQUESTS" "$FILE"
    fi
  else
    FILE=analyzer/target/bench/pipeline-okhttp-sync-${DURATION}s.jfr
    if [ ! -f "$FILE" ]; then
      echo "recording the pipeline sample under the agent for ${DURATION} s -> $FILE"
      java -javaagent:agent/target/hopscope-agent.jar=jfr="$FILE.part" -jar samples/target/hopscope-samples.jar \
        pipeline --mode sync --http-client okhttp --parallel 8 --duration "$DURATION" \
        | grep -E '^(ops|ops_per_s|allocated_bytes):' | tr '\n' ' '
      echo
      mv "$FILE.part" "$FILE"
    fi
  fi
fi

events=$("$JFR_TOOL" summary "$FILE" | awk '$2 ~ /^[0-9]+$/ && $1 !~ /^jdk\.(Metadata|CheckPoint)$/ {n += $2} END {print n}')
chunks=$("$JFR_TOOL" summary "$FILE" | awk '/Chunks:/ {print $2}')
echo "file: $FILE, $(du -m "$FILE" | cut -f1) MB, $events events, $chunks chunks; report heap -Xmx$HEAP; $RUNS runs each, alternating"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); cpus this shell may use: $(nproc) of $(nproc --all)"
summary_wall=()
report_wall=()
summary_cpu=()
report_cpu=()
err_file=$(mktemp)
trap 'rm -f "$err_file"' EXIT
# One run of a command: "wall cpu rss_mb" on stdout (cpu = user + sys), its stderr kept in $err_file.
timed() {
  { /usr/bin/time -f "%e %U %S %M" "$@" > /dev/null; } 2> "$err_file"
  tail -1 "$err_file" | awk '{printf "%s %.2f %d", $1, $2 + $3, $4 / 1024}'
}
for i in $(seq "$RUNS"); do
  read -r wall cpu rss <<< "$(timed "$JFR_TOOL" summary "$FILE")"
  summary_wall+=("$wall")
  summary_cpu+=("$cpu")
  echo "  run $i: jfr summary      $wall s wall, $cpu s cpu, peak rss $rss MB"
  read -r wall cpu rss <<< "$(timed java -Xmx"$HEAP" -jar "$JAR" report "$FILE" --stats)"
  report_wall+=("$wall")
  report_cpu+=("$cpu")
  echo "  run $i: hopscope report  $wall s wall, $cpu s cpu, peak rss $rss MB; $(grep '^stats:' "$err_file" | sed 's/^stats: //')"
done
read -r bare_wall bare_cpu _ <<< "$(timed java -cp analyzer/target/test-classes io.hopscope.analyzer.bench.ParseFloor "$FILE" bare)"
echo "  floor, bare jdk.jfr.consumer pass over the request events, no field read: $bare_wall s wall, $bare_cpu s cpu"
read -r fields_wall fields_cpu _ <<< "$(timed java -cp analyzer/target/test-classes io.hopscope.analyzer.bench.ParseFloor "$FILE" fields)"
echo "  floor, same pass reading 4 values per event:                           $fields_wall s wall, $fields_cpu s cpu"
read -r par_wall par_cpu _ <<< "$(timed java -cp analyzer/target/test-classes io.hopscope.analyzer.bench.ParseFloor "$FILE" parallel)"
echo "  floor, bare pass over the chunks in parallel (one thread per CPU):     $par_wall s wall, $par_cpu s cpu"
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.1f", a / b}'; }
sw=$(median "${summary_wall[@]}")
rw=$(median "${report_wall[@]}")
sc=$(median "${summary_cpu[@]}")
rc=$(median "${report_cpu[@]}")
echo "median wall: jfr summary $sw s, hopscope report $rw s, ratio $(ratio "$rw" "$sw")x (target <= 2x); bare floor $(ratio "$bare_wall" "$sw")x, in parallel $(ratio "$par_wall" "$sw")x"
echo "median cpu:  jfr summary $sc s, hopscope report $rc s, ratio $(ratio "$rc" "$sc")x; bare floor $(ratio "$bare_cpu" "$sc")x; report ran within -Xmx$HEAP"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
