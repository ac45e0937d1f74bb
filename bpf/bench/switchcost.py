#!/usr/bin/python3
#
# switchcost  What offwake costs per off-CPU interval, measured on a futex ping-pong.
#
# Builds a small C program whose two threads hand a token back and forth with FUTEX_WAIT and
# FUTEX_WAKE, both pinned to one CPU: every handoff is then one futex wake, one futex wait, one
# context switch and one off-CPU interval of a traced thread, with nothing else on that CPU. It
# prints the mean handoff time every half second; offwake is attached to it for --trace seconds
# after --before seconds, and the difference between the handoff's CPU time while traced and
# before is the tracer's cost per interval, in ns: the figure its programs' changes move, repeatable to
# about +-50 ns, where the pipeline sample's throughput ratio moves by a few percent from run to
# run. --empty also measures a bcc program with an empty program on each of offwake's tracepoints:
# the cost of the tracepoints themselves, which no change to offwake's programs can remove.
#
# The pipeline sample makes about two off-CPU intervals per request (OkHttp sync, 8 callers), so
# a cost of C ns per interval is about 2C ns of CPU per request of its 45-60 us.
#
# USAGE: sudo /usr/bin/python3 bpf/bench/switchcost.py [--tool FILE ...] [--tracer-args "OPTIONS"]
#            [--rounds N] [--before S] [--trace S] [--empty] [--bpf-stats]
#
# --bpf-stats turns on kernel.bpf_stats_enabled for the run and prints, each round, the programs'
# own run time as the kernel accounts it (run_time_ns, run_cnt): per run of each program and, with
# --empty, how much longer than the empty programs' of the same round they ran per interval. The load of other processes moves it much less than the handoff's
# CPU time, but the accounting itself adds about 35 ns a run (two clock reads) to both, and to the
# handoff's CPU time: compare such rounds with each other, not with rounds without it.

import argparse
import os
import re
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

BPF_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(BPF_DIR, "offwake.py")
# offwake's tracepoints with empty programs (--empty): the floor of its cost.
EMPTY_TOOL = os.path.join(BPF_DIR, "bench", "emptytool.py")
STATS = "/proc/sys/kernel/bpf_stats_enabled"

PINGPONG_C = r"""
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static _Atomic int turn;
static _Atomic long handoffs;

static void *player(void *arg) {
    int me = (int) (long) arg;
    for (;;) {
        while (atomic_load(&turn) != me)
            syscall(SYS_futex, &turn, FUTEX_WAIT_PRIVATE, 1 - me, NULL, NULL, 0);
        atomic_store(&turn, 1 - me);
        syscall(SYS_futex, &turn, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
        if (me == 0)
            atomic_fetch_add(&handoffs, 2);
    }
    return NULL;
}

static double ns(struct timespec t) { return t.tv_sec * 1e9 + t.tv_nsec; }

// Prints "END_NS CPU_NS_PER_HANDOFF WALL_NS_PER_HANDOFF" every half second: END_NS is
// CLOCK_MONOTONIC (Python's time.monotonic() clock) at the end of the half second, CPU the
// process's CPU time (the two players; the printing thread's is negligible). The CPU never idles
// (one player always runs), so the two differ by what the host and interrupts take: CPU time is
// the steadier figure in a virtual machine.
int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, player, (void *) 0L);
    pthread_create(&b, NULL, player, (void *) 1L);
    struct timespec w0, w1, c0, c1;
    clock_gettime(CLOCK_MONOTONIC, &w0);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    long last = 0;
    for (;;) {
        usleep(500000);
        long now = atomic_load(&handoffs);
        clock_gettime(CLOCK_MONOTONIC, &w1);
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
        long n = now > last ? now - last : 1;
        printf("%.0f %.1f %.1f\n", ns(w1), (ns(c1) - ns(c0)) / n, (ns(w1) - ns(w0)) / n);
        fflush(stdout);
        last = now;
        w0 = w1;
        c0 = c1;
    }
}
"""

def fail(message):
    print("switchcost: %s" % message, file=sys.stderr)
    sys.exit(2)


def build(tmpdir):
    if shutil.which("gcc") is None:
        fail("needs gcc to build its ping-pong program (apt-get install gcc)")
    source = os.path.join(tmpdir, "pingpong.c")
    binary = os.path.join(tmpdir, "pingpong")
    with open(source, "w") as f:
        f.write(PINGPONG_C)
    done = subprocess.run(["gcc", "-O2", "-pthread", "-o", binary, source],
                          capture_output=True, text=True)
    if done.returncode != 0:
        fail("gcc could not build the ping-pong program: %s" % done.stderr.strip())
    return binary


def read_samples(proc, until):
    """The ping-pong's (end time s, CPU ns per handoff) lines until time.monotonic() passes until."""
    samples = []
    while time.monotonic() < until:
        ready, _, _ = select.select([proc.stdout], [], [], max(0.0, until - time.monotonic()))
        if ready:
            line = proc.stdout.readline()
            if not line:
                break
            end_ns, cpu_ns, _ = line.split()
            samples.append((int(end_ns) / 1e9, float(cpu_ns)))
    return samples


def measure(binary, command, args, cpu, others):
    """Handoff ns before and while the tracer runs: (before, traced, tracer's stderr)."""
    pingpong = subprocess.Popen([binary], stdout=subprocess.PIPE, text=True,
                                preexec_fn=lambda: os.sched_setaffinity(0, {cpu}))
    tracer = None
    try:
        samples = read_samples(pingpong, time.monotonic() + args.before + 0.5)
        tracer = subprocess.Popen(command + ["-p", str(pingpong.pid)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                  preexec_fn=lambda: os.sched_setaffinity(0, others))
        err = []
        while True:  # its first line says it is attached
            line = tracer.stderr.readline()
            if not line:
                fail("the tracer ended before it attached:\n" + "".join(err))
            err.append(line)
            if line.startswith("Tracing"):
                attached = time.monotonic()
                break
        samples += read_samples(pingpong, attached + args.trace)
    finally:
        pingpong.kill()
        pingpong.wait()
    rest = tracer.stderr.read()
    if tracer.wait() != 0:
        fail("the tracer failed:\n" + "".join(err) + rest)
    # Half seconds wholly before the attach (the first one is the threads' start) or wholly
    # inside the traced window (which ends at attached + trace).
    before = [ns for end, ns in samples[1:] if end < attached - 0.05]
    traced = [ns for end, ns in samples if end - 0.5 > attached + 0.05 and end < attached + args.trace]
    if not before or not traced:
        fail("too few samples: lengthen --before or --trace")
    return statistics.median(before), statistics.median(traced), "".join(err) + rest


# Runs of each program per handoff of the ping-pong: one switch, one wake (sched_waking and
# sched_wakeup) and two futex calls (the wake and the wait), each an enter and an exit.
RUNS_PER_HANDOFF = {"sched_switch": 1, "sched_waking": 1, "sched_wakeup": 1, "sys_enter_futex": 2,
                    "sys_exit_futex": 2}


def run_time(err):
    """{program: (ns a run, runs)} from the tracer's "BPF run time" summary line, {} without one."""
    m = re.search(r"BPF run time \(kernel.bpf_stats_enabled=1\): (.*)", err)
    if not m:
        return {}
    figures = {}
    for name, ms, runs in re.findall(r"(\w+) ([\d.]+) ms / (\d+) runs", m.group(1)):
        name = name.split("__")[-1]
        if name in RUNS_PER_HANDOFF:
            figures[name] = (float(ms) * 1e6 / max(1, int(runs)), int(runs))
    return figures


def above(figures, floor):
    """ns an interval that a tool's programs run longer than the empty programs' of the same round:
    each program's excess a run, weighted by its runs per handoff. A program's runs for other
    processes (a switch on the other CPU, another process's futex call) are in both averages, so
    the excess understates a traced run's; the programs' clock reads and counters, which
    progtime.py adds, are not in it."""
    return sum((figures[p][0] - floor[p][0]) * n for p, n in RUNS_PER_HANDOFF.items())


def main():
    parser = argparse.ArgumentParser(
        description="offwake's cost per off-CPU interval, on a futex ping-pong pinned to one CPU.",
        epilog="example: sudo /usr/bin/python3 bpf/bench/switchcost.py --rounds 3 --empty")
    parser.add_argument("--tool", action="append",
                        help="an offwake.py to measure; give it more than once to compare "
                             "(default: this tree's)")
    parser.add_argument("--tracer-args", default="", help="extra offwake options, one string")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each (default 3)")
    parser.add_argument("--before", type=float, default=3.0,
                        help="untraced seconds before each attach (default 3)")
    parser.add_argument("--trace", type=float, default=3.0,
                        help="traced seconds (default 3; offwake then decodes about 700,000 "
                             "intervals, some 15 s)")
    parser.add_argument("--empty", action="store_true",
                        help="also measure empty programs on offwake's tracepoints")
    parser.add_argument("--bpf-stats", action="store_true",
                        help="print the programs' own run time (kernel.bpf_stats_enabled) each round")
    args = parser.parse_args()
    if os.geteuid() != 0:
        fail("must run as root (it loads BPF programs)")
    if args.rounds < 1 or args.before < 1 or args.trace < 1.5:
        fail("--rounds must be >= 1, --before >= 1 and --trace >= 1.5")
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        fail("needs two CPUs: one for the ping-pong, the other for the tracer's user space")
    cpu, others = cpus[-1], set(cpus[:-1])
    tools = [os.path.abspath(t) for t in (args.tool or [TOOL])]
    for t in tools:
        if not os.path.exists(t):
            fail("no tool %s" % t)
    stats_before = None
    if args.bpf_stats:
        with open(STATS) as f:
            stats_before = f.read().strip()
        with open(STATS, "w") as f:
            f.write("1")
    try:
        costs = rounds(args, tools, cpu, others)
    finally:
        if stats_before is not None:
            with open(STATS, "w") as f:
                f.write(stats_before)
    for name, figures in costs.items():
        print("%-24s median cost %+.0f ns per interval (rounds: %s)"
              % (name, statistics.median(figures), ", ".join("%+.0f" % c for c in figures)))
    return 0


def rounds(args, tools, cpu, others):
    """Each tool's cost per interval, every round: {name: [ns, ...]}, printed as they come."""
    with tempfile.TemporaryDirectory(prefix="offwake-switchcost-") as tmpdir:
        binary = build(tmpdir)
        configs = [(os.path.relpath(t), t) for t in tools]
        if args.empty:
            configs.append(("empty programs", EMPTY_TOOL))
        # Every tool gets offwake's command line; measure() adds -p PID.
        events = os.path.join(tmpdir, "events.jsonl")
        tail = [*args.tracer_args.split(), "--duration", str(args.trace), "--events", events]
        costs = {name: [] for name, _ in configs}
        stats = {}
        print("ping-pong on CPU %d; tracer %s" % (cpu, args.tracer_args or "(defaults)"))
        for r in range(args.rounds):
            for name, tool in configs:
                before, traced, err = measure(binary, [sys.executable, tool, *tail], args, cpu,
                                              others)
                costs[name].append(traced - before)
                lost = re.search(r"lost (\d+) events.*?(\d+) intervals.*?(\d+) futex calls", err)
                print("round %d  %-24s untraced %6.0f ns/handoff  traced %6.0f  cost %+6.0f ns "
                      "per interval%s" % (r + 1, name, before, traced, traced - before,
                                          "  (lost %s)" % "+".join(lost.groups()) if lost else ""))
                stats[name] = run_time(err) if args.bpf_stats else {}
                if stats[name]:
                    print("         BPF run time, ns a run (runs): %s" % ", ".join(
                        "%s %.0f (%d)" % (p, ns, runs) for p, (ns, runs) in stats[name].items()))
                sys.stdout.flush()
            floor = stats.get("empty programs")
            for name, _ in configs[:-1] if floor else []:
                if stats[name]:
                    print("round %d  %-24s BPF run time above the empty programs': %+.0f ns per "
                          "interval" % (r + 1, name, above(stats[name], floor)))
    return costs


if __name__ == "__main__":
    sys.exit(main())
