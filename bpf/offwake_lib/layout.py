"""What the BPF program sends to user space, defined once: the record (struct event_t), the batch
that carries records to the ring buffer (struct batch_t), the record kinds and the counters. The
C text of all of it is generated from here (c_definitions(), pasted where offwake.bpf.c says
RECORD_LAYOUT) and so are the ctypes types user space reads records with, so the two cannot
disagree; test_layout.py compiles the generated C with cc and checks every field's offset.
"""
import ctypes as ct

TASK_COMM_LEN = 16
# Records a CPU gathers before it sends them to the ring buffer as one: a Python call per batch cost
# about 4.6 us, 0.7% of a CPU at the pipeline sample's 60,000 intervals/s with 32 to a batch. 128
# (20.6 KB) stays under the 32 KB a per-CPU map's value may take.
BATCH = 128

# Threads a lost run of records names (batch_t.lost_tids): more than this many distinct threads in one
# run, and the run covers every thread (user space writes "tids": null).
LOST_TIDS = 16

# Record kinds (event_t.kind).
# An interval inside a futex() call carries the call's end (futex_exit_ns) when it was the call's
# last: one record instead of two for nearly every futex wait. An interval that went without it (the
# thread left the CPU again inside the call) is followed by a KIND_FUTEX_END record.
KIND_INTERVAL = 1    # one off-CPU interval of a traced thread
KIND_FUTEX_END = 2   # the end of a futex() call that an interval slept in, on its own

# Counters, per CPU, summed at the end: (C name, what it counts). Indexes follow this order.
COUNTERS = (
    ("CNT_LOST_RECORDS", "records lost to a full ring buffer"),
    ("CNT_LOST_INTERVALS", "intervals lost to a full thread map"),
    ("CNT_LOST_FUTEX_CALLS", "futex calls lost to a full thread map"),
    ("CNT_KSTACKS_REUSED", "kernel stacks reused"),
    ("CNT_KSTACKS_CHECKED", "reused kernel stacks walked again to check them"),
    ("CNT_KSTACKS_DIFFERED", "of those, ones that differed"),
    ("CNT_PAGE_CHANGED", "futex calls whose kernel stack page changed (the stack check's "
                         "assumption broken)"),
    ("CNT_STACK_OFFSET_WRONG", "futex calls whose page was not task_struct.stack's (its offset "
                               "from BTF wrong)"),
    ("CNT_USTACKS_REUSED", "user stacks of one frame reused"),
    ("CNT_USTACKS_CHECKED", "reused user stacks walked again to check them"),
    ("CNT_USTACKS_DIFFERED", "of those, ones that differed"),
)
COUNTER_INDEX = {name: i for i, (name, _) in enumerate(COUNTERS)}

# C type name -> ctypes type.
_TYPES = {"u64": ct.c_uint64, "s64": ct.c_int64, "u32": ct.c_uint32, "s32": ct.c_int32,
          "u16": ct.c_uint16}
_COMM = "char[TASK_COMM_LEN]"

# struct event_t, in order: (name, C type, comment). One off-CPU interval, or (KIND_FUTEX_END) the
# end of a futex call that blocked.
EVENT_FIELDS = (
    ("off_ns", "u64", "switched out"),
    ("on_ns", "u64", "switched back in"),
    ("waking_ns", "u64", "sched_waking of this thread, 0 if none seen"),
    ("wakeup_ns", "u64", "sched_wakeup of this thread, 0 if none seen"),
    ("state", "u64", "prev_state at the switch out (0 = preempted)"),
    ("futex_uaddr", "u64", "futex the thread slept in, if in futex()"),
    ("futex_enter_ns", "u64", "when that futex() call started, 0 if none"),
    ("futex_exit_ns", "u64", "when it ended, if this record carries its end, else 0"),
    ("waker_futex_uaddr", "u64", "futex the waker was in when it woke us"),
    ("futex_ret", "s64", "futex() return value, with futex_exit_ns"),
    ("kind", "u32", "KIND_*"),
    ("tid", "u32", ""),
    ("tgid", "u32", ""),
    ("waker_tid", "u32", ""),
    ("waker_tgid", "u32", ""),
    ("kstack", "s32", "stack ids in stack_traces, or a negative errno"),
    ("ustack", "s32", ""),
    ("waker_kstack", "s32", ""),
    ("waker_ustack", "s32", ""),
    ("futex_op", "u32", ""),
    ("waker_futex_op", "u32", ""),
    # Two u16 in the place of one u32: the record stays 160 bytes (the ring buffer's size in records).
    ("waker_ctx", "u16", "told from the stack it ran on: 1 task, 2 interrupt, 0 unknown"),
    ("stack_weight", "u16", "intervals its stacks stand for: STACK_EVERY sampled, 0 not, 1 none asked"),
    ("comm", _COMM, ""),
    ("waker_comm", _COMM, ""),
)

# A batch also carries what its CPU lost since its last batch reached the ring buffer: how many
# records and the window of time they describe (see batch_lost() in offwake.bpf.c).
BATCH_FIELDS = (
    ("count", "u32", "records in ev[]"),
    ("lost", "u32", "records of this CPU lost since its last batch got through"),
    ("first_ns", "u64", "when ev[0] was added"),
    ("from_ns", "u64", "the earliest time a record in ev[] describes"),
    ("lost_from_ns", "u64", "every lost interval began at or after this"),
    ("lost_to_ns", "u64", "and ended at or before this"),
    ("lost_threads", "u32", "distinct threads in lost_tids; LOST_TIDS + 1: more, any thread"),
    ("lost_tids", "u32[LOST_TIDS]", "the threads whose records were lost"),
    ("sent", "u32", "batches this CPU sent; every WAKE_EVERY-th wakes user space"),
    ("ev", "struct event_t[BATCH]", ""),
)


def _ctype(c_type):
    if c_type == _COMM:
        return ct.c_char * TASK_COMM_LEN
    if c_type == "struct event_t[BATCH]":
        return Event * BATCH
    if c_type == "u32[LOST_TIDS]":
        return ct.c_uint32 * LOST_TIDS
    return _TYPES[c_type]


class Event(ct.Structure):
    """struct event_t."""
    _fields_ = [(name, _ctype(c_type)) for name, c_type, _ in EVENT_FIELDS]


class Batch(ct.Structure):
    """struct batch_t: one ring buffer record, the first count of BATCH records."""
    _fields_ = [(name, _ctype(c_type)) for name, c_type, _ in BATCH_FIELDS]


def _struct(name, fields):
    lines = ["struct %s {" % name]
    for field, c_type, comment in fields:
        base, _, dims = c_type.partition("[")
        decl = "    %s %s%s;" % (base, field, "[" + dims if dims else "")
        lines.append("%-27s // %s" % (decl, comment) if comment else decl)
    lines.append("};")
    return lines


def c_definitions():
    """The C text of the record kinds, the counters and the two structs."""
    lines = ["#define KIND_INTERVAL %d" % KIND_INTERVAL, "#define KIND_FUTEX_END %d" % KIND_FUTEX_END,
             "#define LOST_TIDS %d" % LOST_TIDS]
    lines += ["#define %s %d  // %s" % (name, i, what) for i, (name, what) in enumerate(COUNTERS)]
    lines.append("#define NCOUNTERS %d" % len(COUNTERS))
    lines += _struct("event_t", EVENT_FIELDS)
    lines += _struct("batch_t", BATCH_FIELDS)
    return "\n".join(lines) + "\n"


def counter_totals(counters):
    """{C name: total over the CPUs} from the BPF counters map."""
    return {name: sum(counters[ct.c_int(i)]) for i, (name, _) in enumerate(COUNTERS)}
