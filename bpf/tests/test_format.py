"""The two outputs: --events JSON records and --folded lines in offwaketime -f's format."""
import json
from offwake_lib import folded, records


def event(**overrides):
    ev = {
        "kind": 1, "tid": 101, "tgid": 100, "comm": b"hop-waiter",
        "off_ns": 1_000_000_000, "on_ns": 1_020_500_000, "state": 1,
        "waking_ns": 1_020_400_000, "wakeup_ns": 1_020_450_000,
        "waker_tid": 102, "waker_tgid": 100, "waker_comm": b"hop-waker",
        "kstack": 1, "ustack": 2, "waker_kstack": 3, "waker_ustack": 4,
        "futex_uaddr": 0x7f3c88417a3c, "futex_op": 393, "futex_enter_ns": 999_990_000,
        "waker_futex_uaddr": 0x7f3c88417a3c, "waker_futex_op": 129, "futex_ret": 0,
    }
    ev.update(overrides)
    return ev


# Leaf first, as stack walks return frames.
STACKS = {
    (1, False): ["__schedule", "schedule", "futex_wait"],
    (2, True): ["__futex_abstimed_wait_common", "Unsafe.park", "CompletableFuture.get"],
    (3, False): ["try_to_wake_up", "futex_wake"],
    (4, True): ["pthread_cond_signal", "CompletableFuture.complete"],
}


def stacks(stack_id, tgid, user):
    return None if stack_id < 0 else STACKS[(stack_id, user)]


def record(**overrides):
    return records.interval_record(event(**overrides), stacks, records.decode_comm)


def test_futex_wait_record():
    r = record()
    assert r == {
        "pid": 100, "tid": 101, "comm": "hop-waiter",
        "off_ns": 1_000_000_000, "on_ns": 1_020_500_000, "offcpu_ns": 20_500_000,
        "state": "S", "waking_ns": 1_020_400_000, "wakeup_ns": 1_020_450_000,
        "runq_ns": 50_000,
        "waker": {"pid": 100, "tid": 102, "comm": "hop-waker", "context": "task"},
        "futex": {"uaddr": "0x7f3c88417a3c", "op": 393, "cmd": "FUTEX_WAIT_BITSET",
                  "enter_ns": 999_990_000, "exit_ns": None, "duration_ns": None, "ret": None},
        "waker_futex": {"uaddr": "0x7f3c88417a3c", "op": 129, "cmd": "FUTEX_WAKE"},
        "stack_weight": 1,
        "stack": {"kernel": STACKS[(1, False)], "user": STACKS[(2, True)]},
        "waker_stack": {"kernel": STACKS[(3, False)], "user": STACKS[(4, True)]},
    }
    json.dumps(r)  # serialisable as is


def test_futex_end_fills_duration():
    r = record()
    records.complete_futex(r, 1_020_600_000, 0)
    assert r["futex"]["exit_ns"] == 1_020_600_000
    assert r["futex"]["duration_ns"] == 20_610_000
    assert r["futex"]["ret"] == 0


def test_preempted_interval_is_all_run_queue():
    r = record(state=0, waking_ns=0, wakeup_ns=0, futex_enter_ns=0,
               waker_futex_uaddr=0)
    assert r["state"] == "R"
    assert r["runq_ns"] == r["offcpu_ns"] == 20_500_000
    assert r["waker"] is None and r["waker_stack"] is None
    assert r["futex"] is None and r["waker_futex"] is None


def test_preempted_state_is_r_plus():
    r = record(state=0x100, waking_ns=0, wakeup_ns=0, futex_enter_ns=0)
    assert r["state"] == "R+"
    assert r["runq_ns"] == r["offcpu_ns"]


def test_unknown_wakeup_leaves_run_queue_null():
    r = record(state=2, waking_ns=0, wakeup_ns=0)
    assert r["state"] == "D"
    assert r["runq_ns"] is None and r["waker"] is None


def test_missed_stack_is_null():
    r = record(ustack=-17)  # -EEXIST: a stack map bucket collision
    assert r["stack"]["user"] is None


def test_futex_cmd_names():
    assert records.futex_cmd(0) == "FUTEX_WAIT"
    assert records.futex_cmd(128 | 1) == "FUTEX_WAKE"
    assert records.futex_cmd(256 | 128 | 9) == "FUTEX_WAIT_BITSET"
    assert records.futex_cmd(99) == "FUTEX_99"


def test_state_letters():
    assert records.state_letters(0) == "R"
    assert records.state_letters(0x100) == "R+"
    assert records.state_letters(1) == "S"
    assert records.state_letters(0x2 | 0x400) == "D"


def test_folded_line_layout():
    # wakee: user then kernel, root to leaf; "--"; waker: kernel then user, leaf to root; waker name.
    line = folded.folded_line("hop-waiter", STACKS[(2, True)], STACKS[(1, False)],
                               STACKS[(3, False)], STACKS[(4, True)], "hop-waker", 20500)
    assert line == ("hop-waiter;CompletableFuture.get;Unsafe.park;__futex_abstimed_wait_common;"
                    "futex_wait;schedule;__schedule;--;try_to_wake_up;futex_wake;"
                    "pthread_cond_signal;CompletableFuture.complete;hop-waker 20500")


def test_folded_line_missed_stacks_and_no_waker():
    line = folded.folded_line("t", None, ["b", "a"], [], [], "", 7)
    assert line == "t;[Missed User Stack];a;b;--; 7"
    line = folded.folded_line("t", [], [], None, None, "w", 7)
    assert line == "t;--;[Missed Kernel Stack];[Missed User Stack];w 7"


def test_folded_frame_names_cannot_split_frames():
    line = folded.folded_line("t", ["Lfoo;::bar"], [], [], [], "w", 1)
    assert line == "t;Lfoo:::bar;--;w 1"


def test_folded_lines_sum_microseconds_per_stack_pair():
    same1 = record()
    same2 = record(off_ns=2_000_000_000, on_ns=2_001_000_900)
    other = record(state=0, waking_ns=0, wakeup_ns=0)
    totals = folded.FoldedTotals()
    for r in (same1, other, same2):
        totals.add(r)
    lines = totals.lines()
    # Sorted by total, smallest first; totals in whole microseconds of summed nanoseconds.
    assert [line.rsplit(" ", 1)[1] for line in lines] == ["20500", "21500"]
    assert lines[0].endswith(";--; 20500")
    assert lines[1].startswith("hop-waiter;CompletableFuture.get;")
    assert lines[1].endswith(";hop-waker 21500")


def test_folded_lines_weigh_sampled_intervals_and_leave_out_unsampled_ones():
    # --stack-every 4: a sampled interval stands for 4, an unsampled one (no stacks) for none, and a
    # preempted one, whose stacks are never walked, for itself.
    sampled = record(stack_weight=4)
    unsampled = record(stack_weight=0, kstack=-14, ustack=-14, off_ns=2_000_000_000,
                       on_ns=2_001_000_000)
    preempted = record(stack_weight=1, state=0, waking_ns=0, wakeup_ns=0)
    assert sampled["stack_weight"] == 4 and unsampled["stack_weight"] == 0
    totals = folded.FoldedTotals()
    for r in (sampled, unsampled, preempted):
        totals.add(r)
    lines = totals.lines()
    assert [line.rsplit(" ", 1)[1] for line in lines] == ["20500", "82000"]
    assert lines[1].startswith("hop-waiter;CompletableFuture.get;")
    assert lines[0].endswith(";--; 20500")


def test_waker_context_from_kernel_stack():
    timer = ["try_to_wake_up", "hrtimer_wakeup", "__hrtimer_run_queues", "hrtimer_interrupt",
             "__sysvec_apic_timer_interrupt", "sysvec_apic_timer_interrupt",
             "asm_sysvec_apic_timer_interrupt", "default_idle"]
    assert records.waker_context(timer) == "hardirq"
    assert records.waker_context(["try_to_wake_up", "handle_softirqs", "irq_exit_rcu",
                                  "sysvec_apic_timer_interrupt"]) == "softirq"
    assert records.waker_context(STACKS[(3, False)]) == "task"
    assert records.waker_context(None) is None




def test_waker_context_from_the_stack_the_wakeup_ran_on():
    # 1: the wake ran on the waker's own kernel stack (its own code), whatever its kernel stack.
    r = record(waker_ctx=1, waker_kstack=-17)
    assert r["waker"]["context"] == "task"
    assert r["waker_stack"]["kernel"] is None
    # 2: it ran on another stack, an interrupt's; the kernel frames name it when they were walked.
    assert record(waker_ctx=2, waker_kstack=-17)["waker"]["context"] == "irq"
    assert records.wake_context(2, []) == "irq"
    assert records.wake_context(2, ["try_to_wake_up", "handle_softirqs"]) == "softirq"
    assert records.wake_context(2, ["try_to_wake_up", "wake_up_q"]) == "irq"
    # 0: not told by the stack: the kernel frames decide, as before.
    assert record(waker_ctx=0, waker_kstack=-17)["waker"]["context"] is None
    assert record(waker_ctx=0)["waker"]["context"] == "task"
