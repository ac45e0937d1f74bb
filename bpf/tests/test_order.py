"""How the tool keeps the trace out of memory: records spilled to a file, decoded one at a time,
and each interval given its futex call's end (a record that comes after it) in arrival order."""
import ctypes as ct
import tempfile
import types

import pytest
import offwake_lib
from offwake_lib import layout, order
from offwake_lib.tracer import Tracer


def batch(records):
    """A struct batch_t as a CPU sends it: its first len(records) slots filled, the rest stale."""
    b = layout.Batch()
    for i in range(layout.BATCH):
        b.ev[i].tid = 999  # what a slot past count holds must not be read
    for i, (tid, kind) in enumerate(records):
        b.ev[i].tid = tid
        b.ev[i].kind = kind
        b.ev[i].on_ns = 1000 + tid
    b.count = len(records)
    return b


def test_spilled_batches_decode_in_order_up_to_their_count():
    tracer = Tracer(types.SimpleNamespace())
    tracer.spill = tempfile.TemporaryFile()
    full = [(100 + i, 1) for i in range(layout.BATCH)]
    for records in ([(11, 1), (12, 2)], full, [(13, 1)]):
        b = batch(records)
        tracer.on_event(None, ct.addressof(b), ct.sizeof(b))
    decoded = [(e["tid"], e["kind"], e["on_ns"]) for e in tracer.events()]
    assert decoded == ([(11, 1, 1011), (12, 2, 1012)] + [(tid, 1, 1000 + tid) for tid, _ in full]
                       + [(13, 1, 1013)])


class FullDisk:
    def write(self, data):
        raise OSError(28, "No space left on device")

    def flush(self):
        pass


def test_a_failed_spill_write_stops_the_drain_and_fails_the_tool():
    tracer = Tracer(types.SimpleNamespace())
    tracer.spill = FullDisk()
    tracer.spill_dir = "/some/dir"
    b = batch([(11, 1)])
    # Returned to bcc's C callback, where an exception would be printed and dropped with the record.
    assert tracer.on_event(None, ct.addressof(b), ct.sizeof(b)) == -1
    with pytest.raises(offwake_lib.ToolError, match=r"in /some/dir: no space left on device"):
        tracer.check_spill()


def test_no_records_decode_to_nothing():
    tracer = Tracer(types.SimpleNamespace())
    tracer.spill = tempfile.TemporaryFile()
    assert list(tracer.events()) == []


def interval(tid, on_ns, enter_ns=0, exit_ns=0, ret=0):
    """An interval record; with exit_ns, one that carries its futex call's end (the call's last)."""
    return {"kind": 1, "tid": tid, "on_ns": on_ns, "off_ns": on_ns - 100, "futex_enter_ns": enter_ns,
            "futex_exit_ns": exit_ns, "futex_ret": ret}


def futex_end(tid, enter_ns, exit_ns, ret=0):
    return {"kind": 2, "tid": tid, "off_ns": 0, "futex_enter_ns": enter_ns, "futex_exit_ns": exit_ns,
            "futex_ret": ret, "on_ns": 0}


def test_an_interval_that_carries_its_futex_end_is_complete_at_once():
    events = [interval(1, 1000, enter_ns=500, exit_ns=1200, ret=-110), interval(2, 1100)]
    out = list(order.in_arrival_order(events))
    assert [(ev["tid"], end) for ev, end in out] == [(1, (1200, -110)), (2, None)]


def test_a_calls_last_interval_gives_its_end_to_the_earlier_ones():
    # The thread left the CPU twice inside one call: the first interval went without the end, the
    # second carries it; both get it, in arrival order.
    events = [interval(1, 1000, enter_ns=500), interval(2, 1100),
              interval(1, 2000, enter_ns=500, exit_ns=2100)]
    out = list(order.in_arrival_order(events))
    assert [(ev["tid"], ev["on_ns"], end) for ev, end in out] == [
        (1, 1000, (2100, 0)), (2, 1100, None), (1, 2000, (2100, 0))]


def test_an_interval_waits_for_its_futex_end_and_keeps_its_place():
    events = [interval(1, 1000, enter_ns=500), interval(2, 1100), futex_end(1, 500, 1200, ret=0)]
    out = list(order.in_arrival_order(events))
    assert [(ev["tid"], end) for ev, end in out] == [(1, (1200, 0)), (2, None)]


def test_intervals_of_one_futex_call_all_get_its_end():
    events = [interval(1, 1000, enter_ns=500), interval(1, 2000, enter_ns=500), futex_end(1, 500, 2100, -11)]
    out = list(order.in_arrival_order(events))
    assert [end for _, end in out] == [(2100, -11), (2100, -11)]


def fed(events, consumed):
    for ev in events:
        consumed.append(ev)
        yield ev


def test_an_interval_whose_end_never_comes_leaves_after_the_window():
    events = [interval(1, 1000, enter_ns=500)] + [interval(2, 1000 + i * 1000) for i in range(1, 5)]
    consumed = []
    out = order.in_arrival_order(fed(events, consumed), window_ns=2500)
    first, end = next(out)
    assert first["tid"] == 1 and end is None
    # ... as soon as an event more than 2.5 us newer than it arrived, not at the end of the trace.
    assert len(consumed) == 4
    assert len(list(out)) == 4


def test_waiting_intervals_are_bounded():
    events = [interval(1, 1000 + i, enter_ns=500 + i) for i in range(10)]
    consumed = []
    out = order.in_arrival_order(fed(events, consumed), max_waiting=3)
    first, end = next(out)
    assert first is events[0] and end is None
    assert len(consumed) == 3
    assert len(list(out)) == 9


def test_a_late_futex_end_of_an_interval_already_written_is_dropped():
    events = [interval(1, 1000, enter_ns=500), interval(2, 9000), futex_end(1, 500, 9100)]
    out = list(order.in_arrival_order(events, window_ns=1000))
    assert [(ev["tid"], end) for ev, end in out] == [(1, None), (2, None)]


def test_a_futex_end_that_arrives_before_its_interval_is_given_to_it():
    # Another CPU's batch: the thread ended its futex call on a CPU other than the one it was
    # switched in on, and that CPU's batch went out first.
    events = [futex_end(1, 500, 1200, ret=-110), interval(2, 1100), interval(1, 1000, enter_ns=500)]
    out = list(order.in_arrival_order(events))
    assert [(ev["tid"], end) for ev, end in out] == [(2, None), (1, (1200, -110))]


def test_an_early_futex_end_is_forgotten_after_the_window():
    events = [futex_end(1, 500, 1200), interval(2, 9000), interval(1, 9500, enter_ns=500)]
    out = list(order.in_arrival_order(events, window_ns=1000))
    assert [(ev["tid"], end) for ev, end in out] == [(2, None), (1, None)]
