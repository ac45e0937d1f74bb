"""How the tool takes records out of the BPF ring buffer and puts intervals back in order.

The ring's layout is the kernel's (kernel/bpf/ringbuf.c): an 8-byte header per record (length with
a busy and a discard bit, page offset), records 8-byte aligned. RingSpill is tested against a plain
file laid out like the ring's mapping (consumer page, producer page, data twice in a row).
"""
import mmap
import struct

BUSY = 1 << 31
DISCARD = 1 << 30


def rec(size, fill, flags=0):
    """One ring record: header, size bytes of fill, padding to 8 bytes."""
    body = bytes([fill]) * size
    pad = (-(size + 8)) % 8
    return struct.pack("<II", size | flags, 0) + body + b"\0" * pad


def test_uniform_complete_records_are_taken_whole(offwake):
    chunk = rec(20, 1) + rec(20, 2) + rec(20, 3)
    assert offwake.complete_prefix(chunk, 20) == len(chunk) == 3 * 32


def test_a_record_still_being_written_ends_the_prefix(offwake):
    chunk = rec(20, 1) + rec(20, 2, BUSY) + rec(20, 3)
    assert offwake.complete_prefix(chunk, 20) == 32


def test_a_record_cut_by_the_chunk_end_is_left_for_later(offwake):
    chunk = rec(20, 1) + rec(20, 2)[:12]
    assert offwake.complete_prefix(chunk, 20) == 32


def test_a_discarded_record_is_consumed_but_not_read(offwake):
    chunk = rec(20, 1) + rec(20, 2, DISCARD) + rec(20, 3)
    assert offwake.complete_prefix(chunk, 20) == len(chunk)
    offsets = list(offwake.ring_records(chunk, 20))
    assert offsets == [8, 72]
    assert [chunk[o] for o in offsets] == [1, 3]


def test_records_of_other_sizes_are_walked_one_by_one(offwake):
    chunk = rec(20, 1) + rec(44, 2) + rec(20, 3)
    assert offwake.complete_prefix(chunk, 20) == len(chunk)
    # A record shorter than the tool's event is not one of its events.
    assert [chunk[o] for o in offwake.ring_records(chunk, 40)] == [2]


def ring_file(tmp_path, ring_bytes, records, consumer=0):
    """A file laid out like the ring's mapping, its producer position after the records."""
    page = mmap.PAGESIZE
    data = bytearray(ring_bytes)
    pos = consumer
    for r in records:
        for i, b in enumerate(r):
            data[(pos + i) % ring_bytes] = b
        pos += len(r)
    path = tmp_path / "ring"
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", consumer) + b"\0" * (page - 8))
        f.write(struct.pack("<Q", pos) + b"\0" * (page - 8))
        f.write(bytes(data) * 2)  # the data pages, mapped twice in a row
    return path


def test_ring_spill_copies_complete_records_and_moves_the_consumer(offwake, tmp_path):
    records = [rec(20, 1), rec(20, 2), rec(20, 3, BUSY)]
    path = ring_file(tmp_path, 4096, records)
    with open(path, "r+b") as ring, open(tmp_path / "spill", "w+b") as spill:
        reader = offwake.RingSpill(ring.fileno(), 4096, 20, spill)
        assert reader.drain() == 64
        assert reader.drain() == 0  # the busy record holds the consumer back
        reader.close()
        spill.seek(0)
        assert spill.read() == records[0] + records[1]
    with open(path, "rb") as ring:
        assert struct.unpack("<Q", ring.read(8))[0] == 64


def test_ring_spill_reads_a_record_that_wraps_around_the_end(offwake, tmp_path):
    # The consumer sits 16 bytes before the end of a 4 KiB ring: the second record wraps.
    records = [rec(8, 7), rec(20, 8)]
    path = ring_file(tmp_path, 4096, records, consumer=4096 - 16)
    with open(path, "r+b") as ring, open(tmp_path / "spill", "w+b") as spill:
        reader = offwake.RingSpill(ring.fileno(), 4096, 8, spill)
        assert reader.drain() == 16 + 32
        reader.close()
        spill.seek(0)
        assert spill.read() == records[0] + records[1]


def interval(tid, on_ns, enter_ns=0):
    return {"kind": 1, "tid": tid, "on_ns": on_ns, "off_ns": on_ns - 100, "futex_enter_ns": enter_ns,
            "futex_ret": 0}


def futex_end(tid, enter_ns, exit_ns, ret=0):
    return {"kind": 2, "tid": tid, "off_ns": exit_ns, "futex_enter_ns": enter_ns, "futex_ret": ret,
            "on_ns": 0}


def test_an_interval_waits_for_its_futex_end_and_keeps_its_place(offwake):
    events = [interval(1, 1000, enter_ns=500), interval(2, 1100), futex_end(1, 500, 1200, ret=0)]
    out = list(offwake.in_arrival_order(events))
    assert [(ev["tid"], end) for ev, end in out] == [(1, (1200, 0)), (2, None)]


def test_intervals_of_one_futex_call_all_get_its_end(offwake):
    events = [interval(1, 1000, enter_ns=500), interval(1, 2000, enter_ns=500), futex_end(1, 500, 2100, -11)]
    out = list(offwake.in_arrival_order(events))
    assert [end for _, end in out] == [(2100, -11), (2100, -11)]


def fed(events, consumed):
    for ev in events:
        consumed.append(ev)
        yield ev


def test_an_interval_whose_end_never_comes_leaves_after_the_window(offwake):
    events = [interval(1, 1000, enter_ns=500)] + [interval(2, 1000 + i * 1000) for i in range(1, 5)]
    consumed = []
    out = offwake.in_arrival_order(fed(events, consumed), window_ns=2500)
    first, end = next(out)
    assert first["tid"] == 1 and end is None
    # ... as soon as an event more than 2.5 us newer than it arrived, not at the end of the trace.
    assert len(consumed) == 4
    assert len(list(out)) == 4


def test_waiting_intervals_are_bounded(offwake):
    events = [interval(1, 1000 + i, enter_ns=500 + i) for i in range(10)]
    consumed = []
    out = offwake.in_arrival_order(fed(events, consumed), max_waiting=3)
    first, end = next(out)
    assert first is events[0] and end is None
    assert len(consumed) == 3
    assert len(list(out)) == 9


def test_a_late_futex_end_of_an_interval_already_written_is_dropped(offwake):
    events = [interval(1, 1000, enter_ns=500), interval(2, 9000), futex_end(1, 500, 9100)]
    out = list(offwake.in_arrival_order(events, window_ns=1000))
    assert [(ev["tid"], end) for ev, end in out] == [(1, None), (2, None)]
