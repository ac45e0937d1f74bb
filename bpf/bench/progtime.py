#!/usr/bin/python3
#
# progtime  Time offwake's BPF programs spend on the traced process's events, measured inside them.
#
# The throughput ratio of overhead.py needs a quiet machine; this figure much less so. It writes a
# copy of offwake (or of --tool FILE, e.g. an older version from git) whose five programs read
# bpf_ktime_get_ns() when they start and, for runs that touched a traced thread (a switch out or in
# of one, a wakeup of one, a futex call of one), add the time to a counter when they return. Runs
# for other processes' events are not counted. One traced run of the workload (overhead.py's), then
# it prints time per run of each program and in all per recorded off-CPU interval, and the
# tool's own summary. The clock reads and counters add about 0.1 us per run to what they measure.
#
# The timing state lives in a per-CPU map, not on the BPF stack: offwake reads which kernel stack
# its programs run on, which needs their BPF stack under 64 bytes (see stack_page() there).
#
# USAGE: sudo /usr/bin/python3 bpf/bench/progtime.py [--tool FILE] [--tracer-args "OPTIONS"]
#            [--runs N] [-- WORKLOAD ARGS...]

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

import overhead

PROGRAMS = ("sched_switch", "sched_waking", "sched_wakeup", "sys_enter_futex", "sys_exit_futex")

TIMING_C = r"""
BPF_ARRAY(timing, u64, 10);
BPF_PERCPU_ARRAY(tstate, u64, 2);   // 0: start time of this run, 1: the run touched a traced thread
static __always_inline void tmark(void) { int z = 1; u64 *f = tstate.lookup(&z); if (f) *f = 1; }
static __always_inline void tstart(void) {
    int z = 0; u64 *s = tstate.lookup(&z); if (s) *s = bpf_ktime_get_ns();
}
static __always_inline void tend(int a) {
    int z = 0; u64 *s = tstate.lookup(&z); if (!s) return;
    z = 1; u64 *f = tstate.lookup(&z); if (!f || !*f) return;
    *f = 0;
    u64 d = bpf_ktime_get_ns() - *s;
    u64 *p = timing.lookup(&a); if (p) __sync_fetch_and_add(p, d);
    a = a + 1; p = timing.lookup(&a); if (p) __sync_fetch_and_add(p, 1);
}
"""

# Where each program knows it touched a traced thread (offwake.py's own code, matched as text).
MARKS = {
    "sched_switch": [("        now = bpf_ktime_get_ns();\n        struct ",
                      "        tmark();\n        now = bpf_ktime_get_ns();\n        struct "),
                     ("    if (t == 0 || t->off.off_ns == 0 || t->off.on_ns != 0)\n",
                      "    if (t != 0 && t->off.off_ns != 0 && t->off.on_ns == 0) tmark();\n"
                      "    if (t == 0 || t->off.off_ns == 0 || t->off.on_ns != 0)\n")],
    "sched_waking": [("    u64 pid_tgid = bpf_get_current_pid_tgid();\n",
                      "    u64 pid_tgid = bpf_get_current_pid_tgid();\n    tmark();\n")],
    "sched_wakeup": [("    if (interval_open(o) && o->wakeup_ns == 0",
                      "    if (interval_open(o)) tmark();\n    if (interval_open(o) && o->wakeup_ns == 0")],
    "sys_enter_futex": [("    u32 tid = pid_tgid;\n", "    u32 tid = pid_tgid;\n    tmark();\n")],
    "sys_exit_futex": [("    u32 tid = pid_tgid;\n", "    u32 tid = pid_tgid;\n    tmark();\n")],
}

REPORT = '''        timing = self.bpf["timing"]
        total_ns = 0
        parts = []
        for k, name in enumerate(%r):
            ns, runs = timing[ct.c_int(2 * k)].value, timing[ct.c_int(2 * k + 1)].value
            total_ns += ns
            parts.append("%%s %%d runs %%.0f ns" %% (name, runs, ns / max(1, runs)))
        print("progtime: traced runs: %%s; total %%.1f ms, %%.2f us per interval"
              %% ("; ".join(parts), total_ns / 1e6, total_ns / 1e3 / max(1, intervals)),
              file=sys.stderr)
''' % (PROGRAMS,)
# Where the tool prints its summary, at the method's own indentation: this layout's
# (offwake_lib/tracer.py, after the outputs are written), or a single-file offwake.py's from before
# offwake_lib.
SUMMARY_ANCHORS = ('\n        reused, checked, differed = (',
                   '\n        counters = self.bpf["counters"]')


def instrument_programs(source):
    """The BPF program's text with timed programs; fails when its code no longer matches."""
    start = source.index("BPF_PERCPU_ARRAY(counters")
    source = source[:start] + TIMING_C + source[start:]
    for k, name in enumerate(PROGRAMS):
        m = re.search(r"TRACEPOINT_PROBE\((sched|syscalls), %s\) \{\n" % name, source)
        if not m:
            overhead.fail("no %s program in the tool" % name)
        end = source.index("\n}\n", m.end())
        body = source[m.end():end].replace("return 0;", "{ tend(%d); return 0; }" % (2 * k))
        for old, new in MARKS[name]:
            if old not in body:
                overhead.fail("cannot find where %s touches a traced thread: %r" % (name, old))
            body = body.replace(old, new, 1)
        if not body.rstrip().endswith("return 0; }"):
            body += "\n    tend(%d);" % (2 * k)
        source = source[:m.end()] + "    tstart();\n" + body + source[end:]
    return source


def instrument_summary(source):
    """The tool's Python with the timing printed before its summary."""
    for anchor in SUMMARY_ANCHORS:
        if anchor in source:
            return source.replace(anchor, "\n" + REPORT + anchor[1:], 1)
    overhead.fail("cannot find where the tool prints its summary")


def timed_copy(tool, tmpdir):
    """A timed copy of the tool in tmpdir; its path. tool is offwake.py, beside its offwake_lib/ and
    offwake.bpf.c, or an older single-file offwake.py with the C inside."""
    with open(tool) as f:
        source = f.read()
    if "TRACEPOINT_PROBE(" in source:
        copy = os.path.join(tmpdir, "offwake_timed.py")
        with open(copy, "w") as f:
            f.write(instrument_summary(instrument_programs(source)))
        return copy
    src = os.path.dirname(os.path.abspath(tool))
    dst = os.path.join(tmpdir, "tool")
    os.makedirs(dst)
    for name in ("offwake.py", "offwake_stacks.bpf.c", "offwake_batches.bpf.c"):
        shutil.copy(os.path.join(src, name), dst)
    shutil.copytree(os.path.join(src, "offwake_lib"), os.path.join(dst, "offwake_lib"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    for name, change in (("offwake.bpf.c", instrument_programs),
                         (os.path.join("offwake_lib", "tracer.py"), instrument_summary)):
        with open(os.path.join(src, name)) as f:
            text = change(f.read())
        with open(os.path.join(dst, name), "w") as f:
            f.write(text)
    return os.path.join(dst, "offwake.py")


def main():
    parser = argparse.ArgumentParser(
        description="Time offwake's BPF programs spend on the traced process, measured inside them.",
        epilog="example: sudo /usr/bin/python3 bpf/bench/progtime.py --runs 3")
    parser.add_argument("--tool", default=overhead.TOOL, help="offwake.py to instrument")
    parser.add_argument("--jar", default=os.path.join(overhead.REPO,
                                                      "samples/target/hopscope-samples.jar"))
    parser.add_argument("--tracer-args", default="", help="extra offwake options, one string")
    parser.add_argument("--runs", type=int, default=1, help="traced runs (default 1)")
    parser.add_argument("workload", nargs="*", help="workload arguments (default: overhead.py's)")
    args = parser.parse_args()
    if os.geteuid() != 0:
        overhead.fail("must run as root (offwake loads BPF programs)")
    if not os.path.exists(args.jar):
        overhead.fail("no %s: build it with: mvn -B -ntp -q -pl samples -am package -DskipTests"
                      % args.jar)
    workload = args.workload or overhead.DEFAULT_WORKLOAD
    overhead.TRACER_ARGS.extend(args.tracer_args.split())
    with tempfile.TemporaryDirectory(prefix="offwake-progtime-") as tmpdir:
        overhead.TOOL = timed_copy(args.tool, tmpdir)
        # overhead.run() reads the tracer's summary through communicate(): keep a copy of it.
        seen = []
        communicate = subprocess.Popen.communicate

        def keep(self, *a, **k):
            out, err = communicate(self, *a, **k)
            if err:
                seen.append(err)
            return out, err
        subprocess.Popen.communicate = keep
        for i in range(args.runs):
            load = os.getloadavg()[0]
            figures = overhead.run(args.jar, workload, True, tmpdir, i)
            print("run %d: %.1f ops/s, %d intervals, %d lost (load %.1f)"
                  % (i + 1, figures["ops_per_s"], figures["intervals"], figures["lost"], load))
            for line in seen.pop().splitlines():
                if line.startswith(("progtime:", "offwake: kernel stacks", "offwake: warning")):
                    print("  " + line)
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
