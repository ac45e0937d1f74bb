#!/usr/bin/python3
#
# helpercost  What the helper calls offwake's programs make cost each, on this machine.
#
# Attaches several programs to sched_switch at once, each making REPEAT calls of one helper (or
# none), with kernel.bpf_stats_enabled on, for --seconds of whatever the machine runs, and prints
# each program's run time a run less the empty program's, divided by REPEAT: the cost of one call.
# The run time as the kernel accounts it, which other processes' load moves little. It needs
# switches to count: run it beside a busy workload (switchcost.py's ping-pong gives 500,000 a
# second). Its programs run on every switch of the machine while attached, a few hundred ns each.
#
# USAGE: sudo /usr/bin/python3 bpf/bench/helpercost.py [--seconds S]

import argparse
import os
import sys
import time

from bcc import BPF

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from offwake_lib.tracer import read_fdinfo  # noqa: E402

REPEAT = 4
STATS = "/proc/sys/kernel/bpf_stats_enabled"

# (name, one call's C text): each becomes a program on sched_switch making REPEAT such calls.
# volatile sinks keep the compiler from dropping or merging them.
CALLS = (
    ("empty", ""),
    ("bpf_ktime_get_ns", "sink += bpf_ktime_get_ns();"),
    ("bpf_get_current_pid_tgid", "sink += bpf_get_current_pid_tgid();"),
    ("bpf_get_prandom_u32", "sink += bpf_get_prandom_u32();"),
    ("bpf_get_current_comm", "bpf_get_current_comm(&s->comm, sizeof(s->comm)); sink += s->comm[1];"),
    ("array lookup", "{ int k = 0; u64 *v = arr.lookup(&k); if (v) sink += *v; }"),
    ("percpu array lookup", "{ int k = 0; u64 *v = pcpu.lookup(&k); if (v) sink += *v; }"),
    ("hash lookup (miss)", "{ u64 k = sink; u64 *v = hash.lookup(&k); if (v) sink += *v; }"),
    ("copy of a 160-byte record", "__builtin_memcpy(&s->b, &s->a, sizeof(s->a)); sink += s->b[3];"),
)

HEAD = """
struct rec_t { u64 a[20]; u64 b[20]; char comm[16]; };
BPF_ARRAY(arr, u64, 1);
BPF_PERCPU_ARRAY(pcpu, u64, 1);
BPF_PERCPU_ARRAY(scratch, struct rec_t, 1);
BPF_HASH(hash, u64, u64, 1024);
"""


def program(i, call):
    body = "\n    ".join([call] * REPEAT)
    return """
int prog%d(void *ctx) {
    volatile u64 sink = 0;
    int zero = 0;
    struct rec_t *s = scratch.lookup(&zero);
    if (s == 0)
        return 0;
    %s
    return 0;
}
""" % (i, body)


def main():
    parser = argparse.ArgumentParser(
        description="The cost of one call of each helper offwake's programs make.",
        epilog="example: sudo /usr/bin/python3 bpf/bench/helpercost.py --seconds 5")
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    if os.geteuid() != 0:
        print("helpercost: must run as root (it loads BPF programs)", file=sys.stderr)
        return 2
    bpf = BPF(text=HEAD + "".join(program(i, c) for i, (_, c) in enumerate(CALLS)), cflags=["-w"])
    with open(STATS) as f:
        before = f.read().strip()
    with open(STATS, "w") as f:
        f.write("1")
    try:
        for i in range(len(CALLS)):
            bpf.attach_tracepoint(tp="sched:sched_switch", fn_name="prog%d" % i)
        time.sleep(args.seconds)
        figures = [read_fdinfo(bpf.load_func("prog%d" % i, BPF.TRACEPOINT).fd)
                   for i in range(len(CALLS))]
    finally:
        with open(STATS, "w") as f:
            f.write(before)
    per_run = [ns / max(1, runs) for ns, runs in figures]
    print("sched_switch, %d runs; ns a run of the empty program: %.1f" % (figures[0][1], per_run[0]))
    for (name, _), ns in zip(CALLS[1:], per_run[1:]):
        print("  %-28s %5.1f ns a call" % (name, (ns - per_run[0]) / REPEAT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
