#!/usr/bin/python3
#
# offwake   Off-CPU intervals of one process, with who woke each thread, how long
#           it then waited for a CPU, and the futex it slept on. Tracepoints only.
#
# USAGE: offwake.py -p PID [--duration S] [--min-us US] [--folded FILE]
#                   [--events FILE] [--stacks {both,kernel,user,none}]
#                   [--stack-every N] [--all-waker-stacks] [--preempted-stacks]
#                   [--no-stack-reuse]
#                   [--buffer-pages N] [--stack-storage N] [--max-threads N]
#                   [--thread-maps {auto,array,hash}] [--ebpf]
#
# Like bcc's offwaketime, without its kprobes: sched_switch, sched_waking,
# sched_wakeup and the futex syscalls' tracepoints. Java frames are named from
# the JVM's perf map (jcmd PID Compiler.perfmap, JDK 17+). The BPF program is
# offwake.bpf.c; offwake_lib/ holds the record layout, the tracer and the
# outputs. See docs/ebpf.md for the record format, the overhead and how stacks
# are reused.
#
# Overhead: every off-CPU interval of the target is recorded; stacks are walked
# for one interval in 8 (--stack-every 8, drawn at random; the folded output
# weighs them 8 times), since the walks are the part of the cost that grows
# with the stacks. On a futex ping-pong (bench/switchcost.py, where the
# tracepoints alone cost about 0.7 us an interval) the programs' own time per
# interval was 0.94 us at --stack-every 8, 1.21 with a stack for every interval
# (--stack-every 1) and 0.78 with none (--stacks none), timed inside them as
# bench/progtime.py does (which adds about 0.5 us); see docs/performance.md.

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from offwake_lib import PROG, ToolError  # noqa: E402
from offwake_lib.kernel import THREAD_ARRAY_MAX  # noqa: E402
from offwake_lib.program import CHECK_EVERY, STACK_EVERY  # noqa: E402
from offwake_lib.tracer import Tracer, program_for_this_kernel  # noqa: E402

examples = """examples:
    ./offwake.py -p 185 --duration 10 --events off.jsonl
                              # 10 s of off-CPU intervals of process 185
    ./offwake.py -p 185 --folded off.folded
                              # folded wakee--waker stacks until Ctrl-C
    ./offwake.py -p 185 --min-us 1000 --events off.jsonl --folded off.folded
                              # only intervals of 1 ms or more, both outputs
    ./offwake.py -p 185 --stacks kernel --events off.jsonl
                              # kernel stacks only: cheaper at high switch rates
    ./offwake.py -p 185 --stack-every 1 --folded off.folded
                              # stacks of every interval, not of 1 in 8
    ./offwake.py -p 185 --ebpf
                              # print the BPF program these options load, and exit
    flamegraph.pl --color=chain --countname=us < off.folded > off.svg
                              # an off-wake flame graph of the folded output
"""


def fail(message):
    print("%s: %s" % (PROG, message), file=sys.stderr)
    sys.exit(2)


def positive_float(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not a number: %r" % text)
    if value <= 0:
        raise argparse.ArgumentTypeError("must be > 0: %r" % text)
    return value


def non_negative_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not an integer: %r" % text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be >= 0: %r" % text)
    return value


def positive_int(text):
    value = non_negative_int(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be > 0: %r" % text)
    return value


def stack_every(text):
    value = positive_int(text)
    if value > 65535:  # event_t.stack_weight is a u16
        raise argparse.ArgumentTypeError("must be <= 65535: %r" % text)
    return value


def power_of_two(text):
    value = positive_int(text)
    if value == 0 or value & (value - 1):
        raise argparse.ArgumentTypeError("must be a power of two: %r" % text)
    return value


def build_parser():
    parser = argparse.ArgumentParser(
        prog="offwake.py",
        description="Record off-CPU intervals of one process with their wakers,\n"
                    "run-queue delays and futex calls (tracepoints only).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=examples)
    parser.add_argument("-p", "--pid", type=int, required=True,
                        help="trace this process (all its threads)")
    parser.add_argument("--duration", type=positive_float, metavar="S",
                        help="stop after S seconds (default: Ctrl-C, SIGTERM "
                             "or the process's exit)")
    parser.add_argument("--min-us", type=non_negative_int, default=0, metavar="US",
                        help="drop off-CPU intervals shorter than US "
                             "microseconds, in the kernel (default 0)")
    parser.add_argument("--folded", metavar="FILE",
                        help="write offwaketime -f folded stacks (total us)")
    parser.add_argument("--events", metavar="FILE",
                        help="write one JSON line per off-CPU interval")
    parser.add_argument("--stacks", choices=("both", "kernel", "user", "none"), default="both",
                        help="stacks to record for wakee and waker (default both; "
                             "each walk costs CPU at every switch)")
    parser.add_argument("--stack-every", type=stack_every, default=STACK_EVERY, metavar="N",
                        help="walk the stacks of one off-CPU interval in N, drawn at "
                             "random, and weigh them N times in --folded (default %d; "
                             "1: every interval). Every interval is recorded, with "
                             "its times, waker and futex call; only the stacks are "
                             "sampled" % STACK_EVERY)
    parser.add_argument("--preempted-stacks", action="store_true",
                        help="also record stacks of intervals in which the "
                             "thread was preempted (state R, R+: no waker, "
                             "all run-queue time); without it they are "
                             "recorded with empty stacks")
    parser.add_argument("--all-waker-stacks", action="store_true",
                        help="record the waker's stacks for every wake; by "
                             "default only for wakes of a thread in a futex "
                             "wait (other wakes: none when the stack the "
                             "wakeup ran on tells task from interrupt, else "
                             "the kernel stack)")
    parser.add_argument("--no-stack-reuse", action="store_true",
                        help="walk every stack; by default a thread's "
                             "kernel stack asleep in a futex wait or from the "
                             "same user call site, or waking another from a "
                             "futex wake, and a user stack that cannot go past "
                             "its first frame, are walked once and reused "
                             "(checked at the 2nd, 4th ... 64th use, then "
                             "every %dth)" % CHECK_EVERY)
    parser.add_argument("--buffer-pages", type=power_of_two, default=2048, metavar="N",
                        help="ring buffer size in pages, a power of two "
                             "(default 2048: 8 MiB, 55,000 records, about "
                             "1 s at 50,000 intervals/s)")
    parser.add_argument("--stack-storage", type=positive_int, default=16384,
                        metavar="N", help="stack trace map entries (default 16384)")
    parser.add_argument("--max-threads", type=positive_int, default=16384,
                        metavar="N", help="threads tracked at once in hash maps (default 16384)")
    parser.add_argument("--thread-maps", choices=("auto", "array", "hash"), default="auto",
                        help="per-thread state in arrays indexed by thread id (cheaper; needs "
                             "the kernel's pid_max <= %d) or in hashes of --max-threads "
                             "entries; auto: arrays when pid_max allows (default)"
                             % THREAD_ARRAY_MAX)
    parser.add_argument("--ebpf", action="store_true",
                        help="print the BPF program, with these options and this "
                             "kernel's facts filled in, and exit (needs no root)")
    return parser


def check_args(args):
    if args.pid <= 0:
        raise ToolError("-p must be a positive process id, got %d" % args.pid)
    if args.ebpf:
        return
    if not args.folded and not args.events:
        raise ToolError("nothing to write: give --folded FILE and/or --events FILE")
    for path in (args.folded, args.events):
        if path:
            parent = os.path.dirname(os.path.abspath(path))
            if not os.path.isdir(parent):
                raise ToolError("cannot write %s: no such directory %s" % (path, parent))
    if args.folded and args.events and os.path.abspath(args.folded) == os.path.abspath(args.events):
        raise ToolError("--folded and --events name the same file %s" % args.folded)
    if not os.path.exists("/proc/%d" % args.pid):
        raise ToolError("process %d does not exist" % args.pid)
    try:
        with open("/proc/%d/status" % args.pid) as f:
            if any(line.startswith("Tgid:") and int(line.split()[1]) != args.pid for line in f):
                raise ToolError("%d is a thread id, not a process id: pass its process's id"
                                % args.pid)
    except OSError:
        raise ToolError("process %d does not exist" % args.pid)


TRACEFS_DIRS = ("/sys/kernel/tracing", "/sys/kernel/debug/tracing")
TRACEPOINTS = ("sched/sched_switch", "sched/sched_waking", "sched/sched_wakeup",
               "sched/sched_process_exit",
               "syscalls/sys_enter_futex", "syscalls/sys_exit_futex")


def check_outputs_writable(args):
    """Creates the output files now, so a bad path fails before tracing rather than after it."""
    for path in (args.folded, args.events):
        if path:
            try:
                with open(path, "w"):
                    pass
            except OSError as e:
                raise ToolError("cannot write %s: %s" % (path, e.strerror.lower()))


def check_root():
    if os.geteuid() != 0:
        raise ToolError("must run as root (loading BPF programs needs CAP_BPF and CAP_PERFMON)")


def check_bpf():
    """bcc, tracefs, the tracepoints and kernel headers, checked before compiling."""
    try:
        import bcc  # noqa: F401
    except ImportError:
        raise ToolError("BPF unavailable: python module bcc not found for %s "
                        "(run bpf/setup.sh; use /usr/bin/python3)" % sys.executable)
    events = next((os.path.join(d, "events") for d in TRACEFS_DIRS
                   if os.path.isdir(os.path.join(d, "events"))), None)
    if events is None:
        raise ToolError("BPF unavailable: tracefs is not mounted "
                        "(run bpf/setup.sh, or: mount -t tracefs tracefs /sys/kernel/tracing)")
    missing = [tp for tp in TRACEPOINTS if not os.path.isdir(os.path.join(events, tp))]
    if missing:
        raise ToolError("BPF unavailable: kernel lacks tracepoint(s) %s" % ", ".join(missing))
    release = os.uname().release
    if not os.environ.get("BCC_KERNEL_SOURCE") and \
            not os.path.isdir("/lib/modules/%s/build" % release) and \
            not os.path.exists("/sys/kernel/kheaders.tar.xz"):
        raise ToolError("BPF unavailable: no kernel headers for %s in /lib/modules/%s/build "
                        "(run bpf/setup.sh)" % (release, release))


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        check_args(args)
        if args.ebpf:
            # As bcc's tools: the program exactly as it would be loaded, nothing loaded.
            print(program_for_this_kernel(args)[0], end="")
            return 0
        check_root()
        check_outputs_writable(args)
        check_bpf()
        tracer = Tracer(args)
        tracer.run()
    except ToolError as e:
        fail(str(e))
    return 0


if __name__ == "__main__":
    sys.exit(main())
