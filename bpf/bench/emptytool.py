#!/usr/bin/python3
#
# emptytool  offwake's tracepoints with empty programs: the floor of offwake's cost.
#
# Takes offwake's command line (-p PID, --duration S; the rest it ignores), attaches a program that
# does nothing to each tracepoint offwake uses, says so as offwake does, and detaches when the
# target exits (seen as offwake sees it, through offwake's ExitWatch), after --duration seconds, or
# on Ctrl-C or SIGTERM, printing offwake's summary line with zero counts. The benchmarks run it in
# offwake's place (switchcost.py --empty, overhead.py --tool bpf/bench/emptytool.py): what it
# costs is the tracepoints' own cost (perf builds each event's record before it calls the program,
# and a syscall tracepoint sends every syscall of every task through the slow path), which no
# change to offwake's programs can remove.
#
# USAGE: sudo /usr/bin/python3 bpf/bench/emptytool.py -p PID [--duration S] [OFFWAKE OPTIONS...]

import argparse
import os
import signal
import sys
import time

from bcc import BPF

# offwake's ExitWatch: the target's exit is then seen as offwake sees it (a zombie counts as
# exited), at the same cost to this process.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from offwake_lib.exitwatch import ExitWatch  # noqa: E402
from offwake_lib.tracer import read_fdinfo  # noqa: E402

# The same tracepoints as offwake.py's programs, each with a program that returns at once.
PROGRAMS = """
TRACEPOINT_PROBE(sched, sched_switch) { return 0; }
TRACEPOINT_PROBE(sched, sched_waking) { return 0; }
TRACEPOINT_PROBE(sched, sched_wakeup) { return 0; }
TRACEPOINT_PROBE(sched, sched_process_exit) { return 0; }
TRACEPOINT_PROBE(syscalls, sys_enter_futex) { return 0; }
TRACEPOINT_PROBE(syscalls, sys_exit_futex) { return 0; }
"""


def main():
    parser = argparse.ArgumentParser(description="offwake's tracepoints with empty programs")
    parser.add_argument("-p", "--pid", type=int, required=True)
    parser.add_argument("--duration", type=float)
    args, _ = parser.parse_known_args()
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    bpf = BPF(text=PROGRAMS, cflags=["-w"])  # as offwake: the nearest headers warn
    print("Tracing (empty programs) PID %d... Ctrl-C to end." % args.pid, file=sys.stderr,
          flush=True)
    end = time.monotonic() + args.duration if args.duration else None
    watch = ExitWatch(args.pid)
    try:
        while not stop and (end is None or time.monotonic() < end):
            if not watch.wait(0.1):
                break
    except KeyboardInterrupt:
        pass
    finally:
        watch.close()
    # offwake's line, for switchcost.py --bpf-stats: the floor of the programs' own run time.
    stats = [(name.decode().replace("tracepoint__", ""), read_fdinfo(fn.fd))
             for name, fn in sorted(bpf.funcs.items())]
    if all(figures for _, figures in stats):
        print("offwake: BPF run time (kernel.bpf_stats_enabled=1): %s" % ", ".join(
            "%s %.1f ms / %d runs" % (name, ns / 1e6, runs) for name, (ns, runs) in stats),
            file=sys.stderr)
    bpf.cleanup()
    print("0 off-CPU intervals, lost 0 events (ring buffer reservation failed), "
          "0 intervals (thread map full), 0 futex calls", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
