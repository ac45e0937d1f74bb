#!/usr/bin/python3
#
# userframes  How deep the user stack walks of a process's sleeping threads go, by frame pointer.
#
# offwake walks a user stack (a frame-pointer walk, bcc's get_stackid) at most of a traced
# thread's sleeps, and the walk is most of its cost. This counts, for PID's threads' switches out
# in state S over --duration seconds, how many frames the same walk (bpf_get_stack) returns, by
# where the frame pointer register pointed at the system call: below 4096 (nothing mapped: the walk
# ends at the instruction pointer's frame, which offwake reuses by instruction pointer), at or
# below the stack pointer, within 8 MiB above it (a frame of the thread's own stack), or elsewhere.
#
# USAGE: sudo /usr/bin/python3 bpf/bench/userframes.py -p PID [--duration S]

import argparse
import os
import sys
import time

from bcc import BPF

PROGRAM = r"""
#include <linux/sched.h>

struct key_t {
    u32 where;              // the frame pointer's place, see WHERE in user space
    u32 frames;             // frames the walk returned (20: 20 or more), 999 when it failed
};
struct frames_t {
    u64 ip[127];
};
BPF_HASH(walks, struct key_t, u64, 1024);
BPF_PERCPU_ARRAY(scratch, struct frames_t, 1);

TRACEPOINT_PROBE(sched, sched_switch) {
    if ((bpf_get_current_pid_tgid() >> 32) != TGID || args->prev_state != 1)
        return 0;
    struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());
    u64 sp = 0, bp = 0;
    bpf_probe_read_kernel(&sp, sizeof(sp), &regs->sp);
    bpf_probe_read_kernel(&bp, sizeof(bp), &regs->bp);
    struct key_t k = {};
    k.where = bp < 4096 ? 0 : bp <= sp ? 1 : bp - sp <= (8 << 20) ? 2 : 3;
    int zero = 0;
    struct frames_t *f = scratch.lookup(&zero);
    if (f == 0)
        return 0;
    long n = bpf_get_stack(args, f, sizeof(*f), BPF_F_USER_STACK);
    k.frames = n < 0 ? 999 : n / 8 > 20 ? 20 : n / 8;
    walks.increment(k);
    return 0;
}
"""

WHERE = ("below 4096", "at or below sp", "sp to sp+8MiB", "elsewhere")


def main():
    parser = argparse.ArgumentParser(
        description="how many frames the user stack walks of PID's sleeping threads return")
    parser.add_argument("-p", "--pid", type=int, required=True, help="the process to watch")
    parser.add_argument("--duration", type=float, default=5.0, help="seconds (default 5)")
    args = parser.parse_args()
    if os.geteuid() != 0:
        print("userframes: must run as root (it loads a BPF program)", file=sys.stderr)
        return 2
    if not os.path.exists("/proc/%d" % args.pid):
        print("userframes: no process %d" % args.pid, file=sys.stderr)
        return 2
    try:
        bpf = BPF(text=PROGRAM.replace("TGID", str(args.pid)), cflags=["-w"])
    except Exception as e:  # bcc raises plain Exception on compile/load errors
        print("userframes: BPF unavailable: %s" % e, file=sys.stderr)
        return 2
    time.sleep(args.duration)
    rows = sorted((k.where, k.frames, v.value) for k, v in bpf["walks"].items())
    total = sum(count for _, _, count in rows)
    if total == 0:
        print("userframes: no sleeps of process %d seen" % args.pid, file=sys.stderr)
        return 1
    print("%-16s %7s %10s %7s" % ("frame pointer", "frames", "sleeps", "share"))
    for where, frames, count in rows:
        print("%-16s %7s %10d %6.1f%%" % (WHERE[where], "failed" if frames == 999 else frames,
                                          count, 100.0 * count / total))
    print("%d sleeps in state S in %g s" % (total, args.duration))
    return 0


if __name__ == "__main__":
    sys.exit(main())
