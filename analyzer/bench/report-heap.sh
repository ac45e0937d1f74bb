#!/usr/bin/env bash
# report-heap.sh - does `hopscope report` keep its heap bound on a recording of several GB? A
# benchmark, not a test (it takes minutes): it prints figures. The CI-sized check is HeapBoundIT.
#
# USAGE: analyzer/bench/report-heap.sh [RECORDING.jfr]
#   Without a recording it makes one with the test-scope RecordingGenerator (REQUESTS, default
#   8500000: about 2 GB in one Recording.dump, 4 caller threads, 10 contract events a request plus
#   the JDK's lock, park and allocation events), once, into analyzer/target/bench/, and reuses it.
#   Then one run of `hopscope report FILE --stats` (text, the worst 5) under -Xmx$HEAP (default
#   256m) with GC logging, and prints: wall and CPU time, peak RSS, the heap pools' peak sum
#   (--stats), the largest heap occupancy after a GC (the live set, from the GC log), and the
#   analyzer's own figures (flush points, requests, in flight, event lists' bytes).
# Needs: mvn -pl analyzer package (the jar and analyzer/target/test-classes), /usr/bin/time.
#
# What it costs: the generator about 4 minutes for 2 GB and the disk for the file; the report a few
# minutes of one core (more on a shared machine: read the load average it prints).
set -euo pipefail
cd "$(dirname "$0")/../.."
JAR=analyzer/target/hopscope.jar
HEAP=${HEAP:-256m}
REQUESTS=${REQUESTS:-8500000}
FILE=${1:-}
[ -f "$JAR" ] || { echo "report-heap: $JAR missing; run mvn -pl analyzer -am package" >&2; exit 2; }
if [ -z "$FILE" ]; then
  mkdir -p analyzer/target/bench
  FILE=analyzer/target/bench/generated-$REQUESTS.jfr
  if [ ! -f "$FILE" ]; then
    java -cp analyzer/target/classes:analyzer/target/test-classes \
      io.hopscope.analyzer.bench.RecordingGenerator "$REQUESTS" "$FILE"
  fi
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "file: $FILE, $(du -m "$FILE" | cut -f1) MB; report under -Xmx$HEAP"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
status=0
/usr/bin/time -f "%e %U %S %M" -o "$work/time" java -Xmx"$HEAP" -Xlog:gc:file="$work/gc.log" \
  -jar "$JAR" report "$FILE" --stats > "$work/out" 2> "$work/err" || status=$?
read -r wall user sys rss < "$work/time"
# "GC(12) Pause Young (Normal) (G1 Evacuation Pause) 63M->37M(256M) 105.052ms": 37M is what was live after it.
live=$(grep -oE '[0-9]+M->[0-9]+M' "$work/gc.log" | sed 's/.*->//; s/M//' | sort -n | tail -1)
echo "exit $status; wall $wall s, cpu $(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.1f", u + s}') s, peak rss $((rss / 1024)) MB,"\
  "largest heap after a gc ${live:-?} MB, $(grep -c 'Pause' "$work/gc.log") gc pauses"
grep -E '^(stats|warning):' "$work/err" | cut -c1-400 || true
grep -E 'OutOfMemoryError' "$work/err" || true
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$status"
