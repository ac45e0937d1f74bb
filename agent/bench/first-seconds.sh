#!/usr/bin/env bash
# Where the CPU goes from the JVM's start through the first seconds of the pipeline sample (OkHttp
# sync, --parallel 8, 1 KiB: bench's okhttp-sync-1k), split by what does the work, for any number of
# JVM configurations in interleaved rounds (issue #31). async-profiler (from the samples build's
# copy, started with the JVM through -agentpath) samples every thread's CPU, each sample with its
# thread; each sample goes to the first category of the list below whose rule it meets, so a class
# load's matching inside the agent's install counts as the install's:
#   JIT compilers (C1, C2) and GC/VM threads, by thread; the agent's JitTraining, warm-up thread,
#   recording start, install (retransformation at premain) and the rest of its premain; Byte Buddy's
#   class file transformer on the application's class loads (its transformation, the matchers'
#   library lookups, super type walks and declared-method tests, the type pool's parsing, the rest);
#   the agent's hooks; JFR's threads; the rest (the application, the JDK, class loading itself).
# USAGE: agent/bench/first-seconds.sh [-r ROUNDS] [-s SECONDS] [-e EVENT] NAME=JAVA_OPTIONS ...
#   e.g. agent/bench/first-seconds.sh -r 3 none= \
#          hopscope="-javaagent:agent/target/hopscope-agent.jar=jfr=/tmp/fs.jfr"
# (from the repository root, after `make build`; the samples build copies async-profiler.) Defaults:
# 3 rounds, the loop's first 10 s (then 0.2 s measured and the exit), event cpu (perf events) every
# 1 ms of CPU, itimer where perf events are not allowed. Prints, for every run, the
# sample's first-window figures (ops/s, process CPU per request), the time and CPU from the JVM's
# start to main; the JIT's and the class loads' own figures (C2 and C1 compilations from
# -Xlog:jit+compilation, all and the agent's shaded Byte Buddy's; the compiler threads' and the
# process's CPU from /proc/PID/task; compile and class-load time from the JVM's perf counters, saved at
# exit, wall time); the CPU ms of each category, then each category's mean per configuration and its
# difference to the first configuration's. The agent's own A/B: -Dhopscope.c2=true keeps C2 for its
# Byte Buddy (StartupJit). The profiler costs CPU itself (in the application's
# threads, as signal handling): compare configurations, not absolute figures. KEEP=DIR keeps the
# collapsed stacks (one file a run) for a closer look.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=3 FIRST=10 EVENT=cpu
while getopts "r:s:e:" opt; do
  case $opt in
    r) ROUNDS=$OPTARG ;;
    s) FIRST=$OPTARG ;;
    e) EVENT=$OPTARG ;;
    *) echo "first-seconds: usage: first-seconds.sh [-r ROUNDS] [-s SECONDS] [-e EVENT] NAME=JAVA_OPTIONS ..." >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "first-seconds: give at least one configuration, NAME=JAVA_OPTIONS (the first is the reference)" >&2; exit 2; }
. agent/bench/sample.sh
ASPROF_JAR=samples/target/bench/async-profiler.jar
[ -f "$SAMPLES" ] && [ -f "$ASPROF_JAR" ] || { echo "first-seconds: build first: make build (and mvn -pl samples package for async-profiler)" >&2; exit 2; }
read_configurations first-seconds "$@"
OUT=${KEEP:-$(mktemp -d)}
mkdir -p "$OUT"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$OUT"' EXIT
unzip -p "$ASPROF_JAR" linux-x64/libasyncProfiler.so > "$OUT/libasyncProfiler.so"
INTERVAL_NS=1000000
if [ "$EVENT" = cpu ] && ! "$JAVA" "-agentpath:$OUT/libasyncProfiler.so=start,event=cpu,file=$OUT/probe.txt" -version >/dev/null 2>&1; then
  echo "first-seconds: perf events are not allowed here; using itimer" >&2
  EVENT=itimer
fi
fig() { awk -v k="$1:" '$1 == k {print $2}' "$2"; }
# Every 0.2 s until the JVM exits, each of its threads' id, name and CPU ticks (utime + stime, from
# /proc/PID/task/*/stat, fields 14 and 15 after the name), and the whole process's; a thread's
# figure is its last snapshot (the compiler threads end at the exit: at most 0.2 s of theirs missed).
threads_cpu() {
  local pid=$1 file=$2 t stat comm
  : > "$file"
  while kill -0 "$pid" 2>/dev/null; do
    { # bash's own reads, no process per thread: the poll must not load the machine it measures
      { read -r stat < "/proc/$pid/stat"; } 2>/dev/null || break
      read -r -a f <<< "${stat##*) }"; echo "process|process|$((f[11] + f[12]))"
      for t in /proc/"$pid"/task/*; do
        { read -r stat < "$t/stat" && read -r comm < "$t/comm"; } 2>/dev/null || continue
        read -r -a f <<< "${stat##*) }"; echo "${t##*/}|$comm|$((f[11] + f[12]))"
      done
    } >> "$file"
    sleep 0.2
  done
}
echo "first-seconds: ${#names[@]} configurations, $ROUNDS rounds, JVM start to ${FIRST} s after the loop starts," \
  "event $EVENT every 1 ms; load $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq 1 "$ROUNDS"); do
  for i in "${!names[@]}"; do
    read -r -a jopts <<< "${opts[$i]}"
    stacks="$OUT/${names[$i]}-$round.collapsed"
    run="$OUT/${names[$i]}-$round.out"
    base="$OUT/${names[$i]}-$round"
    "$JAVA" "-agentpath:$OUT/libasyncProfiler.so=start,event=$EVENT,interval=$INTERVAL_NS,threads,collapsed,file=$stacks" \
      "-Xlog:jit+compilation=debug:file=$base.jit:uptime" -XX:+PerfDataSaveToFile "-XX:PerfDataSaveFile=$base.hsperf" \
      "${jopts[@]}" -jar "$SAMPLES" "${SAMPLE[@]}" --first-window "$FIRST" --warmup "$FIRST" --duration 0.2 >"$run" 2>&1 &
    pid=$!
    threads_cpu "$pid" "$base.threads"
    wait "$pid" || { echo "first-seconds: ${names[$i]} failed in round $round:" >&2; tail -5 "$run" >&2; exit 1; }
    echo "$round ${names[$i]} $(fig first_window_ops_per_s "$run") $(fig first_window_cpu_us_per_op "$run")" \
      "$(fig first_window_ops "$run") $(fig jvm_start_to_main_ms "$run") $(fig jvm_start_to_main_cpu_ms "$run") $stacks" >> "$OUT/runs"
  done
done
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$OUT/runs" "$INTERVAL_NS" "$(getconf CLK_TCK)" "${names[@]}" <<'EOF'
import re, struct, sys
from collections import defaultdict

runs_file, interval_ns, clk_tck, names = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
# (category, thread name pattern or None, stack pattern or None); the first rule either matches wins.
RULES = [
    ("JIT: C2 compiler", r"C2 CompilerThre", None),
    ("JIT: C1 compiler", r"C1 CompilerThre", None),
    ("GC and VM threads", r"GC Thread|G1 |VM Thread|VM Periodic|Service Thread|Sweeper", None),
    ("agent: JitTraining", None, r"JitTraining"),
    ("agent: warm-up thread", r"hopscope-warm-up", None),
    ("agent: recording start", None, r"AgentInstaller\.startRecording|AsyncProfilerRecording\.start|StackDepth\.raise"),
    ("agent: install (retransformation)", None, r"AgentBuilder\$Default\.installOn"),
    ("agent: premain, other", None, r"HopscopeAgent\.premain"),
    ("class load: transformation", None, r"ExecutingTransformer.*(TypeWriter|Advice|MethodRegistry|ClassWriter|DynamicType|ByteBuddy\.redefine)"),
    ("class load: matching, library lookups", None, r"ExecutingTransformer.*LibraryLoaders.*getResource"),
    ("class load: matching, super type walks", None, r"ExecutingTransformer.*(superTypePrefix|HasSuperTypeMatcher|HasSuperClassMatcher)"),
    ("class load: matching, declared methods", None, r"ExecutingTransformer.*(DeclaringMethodMatcher|MethodList|getDeclaredMethods)"),
    ("class load: type pool (parse)", None, r"ExecutingTransformer.*TypePool"),
    ("class load: transformer, other", None, r"ExecutingTransformer|bytebuddy"),
    ("agent: hooks and runtime", None, r"io[/.]hopscope[/.]agent"),
    ("JFR threads", r"JFR |jfr", None),
    ("profiler", r"Async-profiler", r"one[/.]profiler"),
]
compiled = [(c, re.compile(t) if t else None, re.compile(f) if f else None) for c, t, f in RULES]

def split(path):
    ms = defaultdict(float)
    with open(path) as f:
        for line in f:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            if not stack:
                continue
            thread = stack.split(";", 1)[0]
            category = "application, JDK, class loading"
            for c, t, fr in compiled:
                if (t is not None and t.search(thread)) or (fr is not None and fr.search(stack)):
                    category = c
                    break
            ms[category] += int(count) * interval_ns / 1e6
    return ms

COMPILE = re.compile(r"^\[[0-9.]+s\]\s+\d+\s+[%sbn! ]*?([0-4])\s+(\S+)")

def jit(path):
    """Compilations from -Xlog:jit+compilation: C2 (tier 4) and C1 (tiers 1-3), all and Byte Buddy's."""
    counts = defaultdict(int)
    try:
        with open(path) as f:
            for line in f:
                m = COMPILE.match(line)
                if m is None or "made not entrant" in line or "made zombie" in line:
                    continue
                compiler = "C2" if m.group(1) == "4" else "C1"
                counts[compiler] += 1
                if m.group(2).startswith("io.hopscope.agent.shaded."):
                    counts[compiler + " bb"] += 1
    except OSError:
        pass
    return counts

def hsperf(path):
    """The long counters of a saved hsperfdata file (-XX:+PerfDataSaveToFile)."""
    out = {}
    try:
        data = open(path, "rb").read()
    except OSError:
        return out
    order = "<" if data[4] == 1 else ">"
    pos, entries = struct.unpack(order + "ii", data[24:32])
    for _ in range(entries):
        length, name_off, vlen, dtype, _flags, _units, _var, data_off = struct.unpack(order + "iiibbbbi", data[pos:pos + 20])
        name = data[pos + name_off:data.index(b"\0", pos + name_off)].decode()
        if dtype == ord("J") and vlen == 0:
            out[name] = struct.unpack(order + "q", data[pos + data_off:pos + data_off + 8])[0]
        pos += length
    return out

def threads(path):
    """CPU ms of the C1 and C2 compiler threads and of the process, each thread's last snapshot in /proc."""
    last = {}
    try:
        with open(path) as f:
            for line in f:
                parts = line.rstrip("\n").split("|")
                if len(parts) == 3 and parts[2].isdigit():
                    last[parts[0]] = (parts[1], int(parts[2]))
    except OSError:
        pass
    ms = defaultdict(float)
    for name, ticks in last.values():
        key = "process" if name == "process" else "C2" if name.startswith("C2 Compiler") \
            else "C1" if name.startswith("C1 Compiler") else None
        if key:
            ms[key] += ticks * 1000 / clk_tck
    return ms

def jit_split(stacks):
    base = stacks[:-len(".collapsed")]
    perf = hsperf(base + ".hsperf")
    hz = perf.get("sun.os.hrt.frequency", 1e9)
    counts, cpu = jit(base + ".jit"), threads(base + ".threads")
    return {
        "C2 compilations": counts["C2"], "C2 compilations, Byte Buddy's": counts["C2 bb"],
        "C1 compilations": counts["C1"], "C1 compilations, Byte Buddy's": counts["C1 bb"],
        "C2 threads CPU ms (/proc)": cpu["C2"], "C1 threads CPU ms (/proc)": cpu["C1"],
        "process CPU ms (/proc)": cpu["process"],
        "compile time ms (hsperf, wall)": perf.get("java.ci.totalTime", 0) * 1000 / hz,
        "class load time ms (hsperf, wall)": perf.get("sun.cls.time", 0) * 1000 / hz,
    }

rows, stack_files = [], []
with open(runs_file) as f:
    for line in f:
        rnd, name, ops, cpu_per_op, ops_n, main_ms, main_cpu, stacks = line.split()
        rows.append((int(rnd), name, float(ops), float(cpu_per_op), float(ops_n), main_ms, main_cpu, split(stacks)))
        stack_files.append(stacks)
categories = [c for c, _, _ in RULES] + ["application, JDK, class loading"]
print("\nper run: first-window ops/s, CPU us per request (whole process), main after ms (CPU ms), profiled CPU ms")
for rnd, name, ops, cpu, n, main_ms, main_cpu, ms in rows:
    print(f"  round {rnd} {name:<12} {ops:9.1f} ops/s {cpu:7.1f} us/req  main after {main_ms} ms ({main_cpu} ms CPU)"
          f"  profiled {sum(ms.values()):8.0f} ms")
print("\nJIT and class loading, every round (JVM start to the exit: the window's end and 0.2 s)")
print("  " + f"{'measure':<42}" + "".join(f"{n + ' r' + str(r):>14}" for r, n, *_ in rows))
splits = [jit_split(stacks) for stacks in stack_files]
for key in splits[0]:
    print("  " + f"{key:<42}" + "".join(f"{sp[key]:14.0f}" for sp in splits))
print("\nCPU ms by category, every round (JVM start to the window's end)")
header = "  " + f"{'category':<42}" + "".join(f"{n + ' r' + str(r):>14}" for r, n, *_ in rows)
print(header)
for c in categories:
    values = [ms.get(c, 0.0) for *_, ms in rows]
    if any(v >= 0.5 for v in values):
        print("  " + f"{c:<42}" + "".join(f"{v:14.0f}" for v in values))
print("  " + f"{'total':<42}" + "".join(f"{sum(ms.values()):14.0f}" for *_, ms in rows))
means = {}
for n in names:
    mine = [ms for _, name, *_, ms in rows if name == n]
    means[n] = {c: sum(m.get(c, 0.0) for m in mine) / len(mine) for c in categories} if mine else {}
ref = names[0]
print(f"\nmean CPU ms by category, and the difference to {ref}'s")
print("  " + f"{'category':<42}" + "".join(f"{n:>12}{'diff':>9}" for n in names))
for c in categories + ["total"]:
    get = (lambda n: sum(means[n].values())) if c == "total" else (lambda n: means[n].get(c, 0.0))
    if c != "total" and all(get(n) < 0.5 for n in names):
        continue
    print("  " + f"{c:<42}" + "".join(f"{get(n):12.0f}{get(n) - get(ref):+9.0f}" for n in names))
EOF
