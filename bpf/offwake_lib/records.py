"""The --events record of an off-CPU interval, from a decoded event_t (a dict, see layout.Event):
task states, and the waker's context (futex commands: futex.py)."""

from .futex import command as futex_cmd  # noqa: F401 (the name tests and callers use)


# Task states as sched_switch prints them (include/trace/events/sched.h).
STATE_LETTERS = [(0x1, "S"), (0x2, "D"), (0x4, "T"), (0x8, "t"), (0x10, "X"),
                 (0x20, "Z"), (0x40, "P"), (0x80, "I")]


# Frames that put a wakeup inside an interrupt: then the "waker" is only the task the interrupt
# landed on (a timer firing over an unrelated thread, or over the idle task). The BPF program cannot
# read the preempt count here, and tracepoint records reach BPF with their common flags unset, so the
# waker's kernel stack is what tells.
IRQ_FRAMES = (("nmi", ("asm_exc_nmi", "exc_nmi")),
              ("softirq", ("handle_softirqs", "__do_softirq")),
              ("hardirq", ("asm_sysvec_", "sysvec_", "asm_common_interrupt", "common_interrupt",
                           "__sysvec_")))


def waker_context(kernel_frames):
    """Where a wakeup ran, from the waker's kernel stack (leaf first): task, hardirq, softirq, nmi.

    None when the stack is missing.
    """
    if kernel_frames is None:
        return None
    for frame in kernel_frames:
        for context, prefixes in IRQ_FRAMES:
            if frame.startswith(prefixes):
                return context
    return "task"


def wake_context(stack_said, kernel_frames):
    """The waker's context: from the kernel stack page the wakeup ran on when the BPF program could
    tell it (1 task, 2 interrupt), else, and to name the interrupt, from the waker's kernel frames."""
    if stack_said == 1:
        return "task"
    if stack_said == 2:
        named = waker_context(kernel_frames) if kernel_frames else None
        return named if named not in (None, "task") else "irq"
    return waker_context(kernel_frames)


# sched_switch reports a preempted task as TASK_REPORT_MAX (one bit above the state bits), "R+".
TASK_REPORT_MAX = 0x100


def runnable(state):
    """True when the thread was switched out still runnable (time slice over, yield, preemption)."""
    return state & (TASK_REPORT_MAX - 1) == 0


def state_letters(state):
    """prev_state as sched_switch's text shows it: R still runnable, R+ preempted in the kernel."""
    letters = "".join(ch for bit, ch in STATE_LETTERS if state & bit)
    if letters:
        return letters
    return "R+" if state & TASK_REPORT_MAX else "R"


def interval_record(ev, stacks, comm_of):
    """The --events JSON record of one interval event (KIND_INTERVAL).

    ev: the event fields as a dict (see layout.Event); stacks(stack_id, tgid, user)
    returns frames leaf first, or None when the stack could not be read;
    comm_of(raw_bytes) decodes a task name.
    """
    offcpu_ns = ev["on_ns"] - ev["off_ns"]
    if runnable(ev["state"]):
        runq_ns = offcpu_ns
    elif ev["wakeup_ns"]:
        runq_ns = max(0, ev["on_ns"] - ev["wakeup_ns"])
    else:
        runq_ns = None
    woken = ev["waking_ns"] != 0
    futex = None
    if ev["futex_enter_ns"]:
        futex = {
            "uaddr": "0x%x" % ev["futex_uaddr"],
            "op": ev["futex_op"],
            "cmd": futex_cmd(ev["futex_op"]),
            "enter_ns": ev["futex_enter_ns"],
            "exit_ns": None,
            "duration_ns": None,
            "ret": None,
        }
    waker_futex = None
    if woken and ev["waker_futex_uaddr"]:
        waker_futex = {
            "uaddr": "0x%x" % ev["waker_futex_uaddr"],
            "op": ev["waker_futex_op"],
            "cmd": futex_cmd(ev["waker_futex_op"]),
        }
    waker_kernel = stacks(ev["waker_kstack"], ev["waker_tgid"], False) if woken else None
    return {
        "pid": ev["tgid"],
        "tid": ev["tid"],
        "comm": comm_of(ev["comm"]),
        "off_ns": ev["off_ns"],
        "on_ns": ev["on_ns"],
        "offcpu_ns": offcpu_ns,
        "state": state_letters(ev["state"]),
        "waking_ns": ev["waking_ns"] or None,
        "wakeup_ns": ev["wakeup_ns"] or None,
        "runq_ns": runq_ns,
        "waker": {
            "pid": ev["waker_tgid"],
            "tid": ev["waker_tid"],
            "comm": comm_of(ev["waker_comm"]),
            "context": wake_context(ev.get("waker_ctx", 0), waker_kernel),
        } if woken else None,
        "futex": futex,
        "waker_futex": waker_futex,
        # How many intervals this one's stacks stand for (--stack-every): N when sampled, 0 when
        # not (its stacks and its waker's not walked), 1 when its stacks are never sampled (a
        # preempted interval's, none; every interval's with --stack-every 1).
        "stack_weight": ev.get("stack_weight", 1),
        "stack": {
            "kernel": stacks(ev["kstack"], ev["tgid"], False),
            "user": stacks(ev["ustack"], ev["tgid"], True),
        },
        "waker_stack": {
            "kernel": waker_kernel,
            "user": stacks(ev["waker_ustack"], ev["waker_tgid"], True),
        } if woken else None,
    }


def complete_futex(record, exit_ns, ret):
    """Give an interval record the end of the futex call it slept in."""
    fx = record["futex"]
    fx["exit_ns"] = exit_ns
    fx["duration_ns"] = exit_ns - fx["enter_ns"]
    fx["ret"] = ret


def decode_comm(raw):
    return raw.decode("utf-8", "replace")
