"""The BPF program's C text: offwake.bpf.c with offwake_batches.bpf.c, offwake_stacks.bpf.c, the record
layout and the futex command classes pasted in,
and its UPPERCASE placeholders filled from the options and the running kernel."""
import ctypes as ct
import errno
import mmap
import os
import re

from . import futex, layout

BPF_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = os.path.join(BPF_DIR, "offwake.bpf.c")
STACKS_SOURCE = os.path.join(BPF_DIR, "offwake_stacks.bpf.c")
BATCHES_SOURCE = os.path.join(BPF_DIR, "offwake_batches.bpf.c")

FLUSH_NS = 100000000  # a CPU sends a batch whose first record is this old even if not full
# One off-CPU interval in so many gets stack walks by default (--stack-every): the walks are
# most of the tracer's cost per interval (bench/switchcost.py).
STACK_EVERY = 8
CHECK_EVERY = 64  # past the 64th, every so many reuses of a kernel stack walk it again
# A stack not asked for reads as -EFAULT, which the output shows as an empty stack.
NO_STACK = -errno.EFAULT


def stack_every(args):
    """One interval in how many gets stack walks: --stack-every, or 1 when no stack is asked for."""
    return 1 if args.stacks == "none" else args.stack_every


def user_stacks(args):
    """Whether user stacks are walked (--stacks both or user): only they hold Java frames."""
    return args.stacks in ("both", "user")


def wake_every(buffer_pages, cpus=None):
    """Batches a CPU sends between two that wake user space: a quarter of its share of the ring
    buffer, so that user space drains it well before it fills even when every CPU sends."""
    batches = buffer_pages * mmap.PAGESIZE // ct.sizeof(layout.Batch)
    return max(1, batches // ((cpus or os.cpu_count() or 1) * 4))


def placeholders(args, thread_slots, task_stack_offset):
    """The value of each UPPERCASE word of the program, for these options and this kernel."""
    kernel_stacks = args.stacks in ("both", "kernel")
    return {
        "KERNEL_STACK_GET": "stack_traces.get_stackid(args, 0)" if kernel_stacks else NO_STACK,
        "USER_STACK_GET": "user_stack(args)" if user_stacks(args) else NO_STACK,
        "PREEMPTED_STACKS": 1 if args.preempted_stacks else 0,
        "ALL_WAKER_STACKS": 1 if args.all_waker_stacks else 0,
        "STACK_EVERY": stack_every(args),
        "NO_STACK": NO_STACK,
        "REUSE_KSTACKS": 1 if kernel_stacks and not args.no_stack_reuse else 0,
        "REUSE_USTACKS": 0 if args.no_stack_reuse else 1,
        "CHECK_EVERY": CHECK_EVERY,
        "FLUSH_NS": FLUSH_NS,
        "BATCH": layout.BATCH,
        "EXIT_DEAD": "0x10",
        "EXIT_ZOMBIE": "0x20",
        "UNSTABLE": "0x80000000",
        "KNOWN": "0x40000000",
        "USES": "0x3fffffff",
        "TGID": args.pid,
        "MIN_NS": args.min_us * 1000,
        "STACK_STORAGE": args.stack_storage,
        "BUFFER_PAGES": args.buffer_pages,
        "WAKE_EVERY": wake_every(args.buffer_pages),
        "MAX_THREADS": args.max_threads,
        "THREAD_ARRAYS": 1 if thread_slots else 0,
        "THREAD_SLOTS": thread_slots or 1,
        "TASK_STACK_OFFSET": task_stack_offset,
    }


def _read(path):
    with open(path) as f:
        return f.read()


def assemble(source=SOURCE, stacks_source=STACKS_SOURCE, batches_source=BATCHES_SOURCE):
    """The program with its pasted parts, placeholders still unfilled."""
    text = _read(source)
    for part, value in (("RECORD_LAYOUT", layout.c_definitions()),
                        ("FUTEX_COMMANDS", futex.c_definitions()),
                        ("BATCHES", _read(batches_source)), ("STACK_REUSE", _read(stacks_source))):
        text, n = re.subn(r"^%s$" % part, lambda _: value, text, count=1, flags=re.M)
        if n != 1:
            raise ValueError("%s has no line %s" % (source, part))
    return text


def fill(text, values):
    """text with each whole-word placeholder replaced by its value."""
    pattern = re.compile(r"\b(%s)\b" % "|".join(sorted(values, key=len, reverse=True)))
    return pattern.sub(lambda m: str(values[m.group(1)]), text)


def program_text(args, thread_slots, task_stack_offset):
    return fill(assemble(), placeholders(args, thread_slots, task_stack_offset))
