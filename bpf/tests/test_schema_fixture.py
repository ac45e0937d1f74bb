"""The --events schema and the futex command classes, defined once in offwake's Python and checked
on the other sides without root:

- the analyzer's OffCpuReader reads a fixture written by offwake's own code (records packed into
  batches as the BPF program lays them out, decoded by Tracer.events(), made into records and
  lines by the functions write_outputs() uses), and its classes of futex commands are checked
  against futex-classes.json (OffCpuSchemaTest); this test regenerates both and fails when the
  committed ones differ (to update them: OFFWAKE_WRITE_FIXTURE=1 /usr/bin/python3 -m pytest
  bpf/tests/test_schema_fixture.py, then commit);
- docs/ebpf.md's field table names exactly the fields an interval record has."""
import ctypes as ct
import json
import os
import re
import tempfile

from conftest import BPF_DIR
from offwake_lib import futex, layout
from offwake_lib.tracer import Tracer, interval_records, json_line, loss_record, summary_record

REPO = os.path.dirname(BPF_DIR)
FIXTURE_DIR = os.path.join(REPO, "analyzer", "src", "test", "resources", "bpf")
FIXTURE = os.path.join(FIXTURE_DIR, "offwake-schema.jsonl")
CLASSES = os.path.join(FIXTURE_DIR, "futex-classes.json")
DOCS = os.path.join(REPO, "docs", "ebpf.md")

WAKEE, WAKER, PID = 1001, 1002, 1000
T0 = 5_000_000_000  # CLOCK_MONOTONIC ns of the first interval
STEP = 1_000_000
# Stack ids the fixture's stand-in resolver knows (the real one needs the BPF stack map).
FRAMES = {1: ["__schedule", "futex_wait"], 2: ["Object.wait", "Main.main"],
          3: ["try_to_wake_up", "futex_wake"], 4: ["Object.notify", "Worker.run"]}


def event(n, **fields):
    """The n-th interval of the wakee: 1 ms off CPU, woken (unless waker_tid=0) by the waker."""
    ev = layout.Event()
    ev.kind = layout.KIND_INTERVAL
    ev.tid, ev.tgid, ev.comm = WAKEE, PID, b"fx-wakee"
    ev.off_ns = T0 + n * 10 * STEP
    ev.on_ns = ev.off_ns + STEP
    ev.state = 1
    ev.waking_ns, ev.wakeup_ns = ev.off_ns + STEP // 2, ev.off_ns + STEP // 2 + 1000
    ev.waker_tid, ev.waker_tgid, ev.waker_comm, ev.waker_ctx = WAKER, PID, b"fx-waker", 1
    ev.kstack = ev.ustack = ev.waker_kstack = ev.waker_ustack = -14  # not sampled: empty
    for name, value in fields.items():
        setattr(ev, name, value)
    return ev


def events(folded=False):
    """Every futex command once as the wakee's call (its wait class) and once as the waker's call
    on the wakee's futex (its wake class), then the other shapes of an interval. The last interval's
    futex call ends in a record of its own (KIND_FUTEX_END), or, folded, in the interval's record
    (futex_exit_ns), as the program sends the end of a call's last interval."""
    evs = []
    uaddr = 0x7f0000001000
    for cmd in sorted(futex.COMMANDS):
        evs.append(event(len(evs), futex_uaddr=uaddr + cmd * 8, futex_op=cmd | futex.FUTEX_PRIVATE_FLAG,
                         futex_enter_ns=T0 + len(evs) * 10 * STEP - 100))
    for cmd in sorted(futex.COMMANDS):
        evs.append(event(len(evs), futex_uaddr=uaddr, futex_op=futex.NUMBERS["FUTEX_WAIT_BITSET"] | 128,
                         futex_enter_ns=T0 + len(evs) * 10 * STEP - 100,
                         waker_futex_uaddr=uaddr, waker_futex_op=cmd | futex.FUTEX_PRIVATE_FLAG))
    # A wake of another futex: not the one that ended this wait.
    evs.append(event(len(evs), futex_uaddr=uaddr, futex_op=futex.NUMBERS["FUTEX_WAIT"],
                     futex_enter_ns=T0 + len(evs) * 10 * STEP - 100,
                     waker_futex_uaddr=uaddr + 64, waker_futex_op=futex.NUMBERS["FUTEX_WAKE"]))
    # Preempted in the kernel (R+): no waker, all run queue, stacks never sampled.
    evs.append(event(len(evs), state=0x100, waking_ns=0, wakeup_ns=0, waker_tid=0, waker_tgid=0,
                     waker_comm=b"", waker_ctx=0, stack_weight=1))
    # Sampled (--stack-every 8), woken from an interrupt, with a futex call whose end follows.
    sampled = event(len(evs), stack_weight=8, kstack=1, ustack=2, waker_kstack=3, waker_ustack=4,
                    waker_ctx=2, futex_uaddr=uaddr, futex_op=futex.NUMBERS["FUTEX_WAIT"],
                    futex_enter_ns=T0 + len(evs) * 10 * STEP - 100)
    evs.append(sampled)
    if folded:
        sampled.futex_exit_ns, sampled.futex_ret = sampled.on_ns + 2000, -110
        return evs
    end = layout.Event()
    end.kind, end.tid, end.tgid = layout.KIND_FUTEX_END, WAKEE, PID
    end.futex_exit_ns = sampled.on_ns + 2000
    end.futex_uaddr, end.futex_op = sampled.futex_uaddr, sampled.futex_op
    end.futex_enter_ns, end.futex_ret = sampled.futex_enter_ns, -110
    evs.append(end)
    return evs


def stacks(stack_id, tgid, user):
    if stack_id == -14:
        return []
    return list(FRAMES[stack_id]) if stack_id in FRAMES else None


def fixture_text(folded=False):
    """The fixture's lines, as offwake writes them: intervals, a loss record, the summary."""
    evs = events(folded)
    with tempfile.TemporaryFile() as spill:
        tracer = Tracer(None)
        tracer.spill = spill
        for first in range(0, len(evs), layout.BATCH):
            batch = layout.Batch()
            chunk = evs[first:first + layout.BATCH]
            batch.count = len(chunk)
            for i, ev in enumerate(chunk):
                batch.ev[i] = ev
            spill.write(bytes(batch))
        # A CPU's losses ride on its next batch that gets through: here an empty one.
        lossy = layout.Batch()
        lossy.lost, lossy.lost_from_ns, lossy.lost_to_ns = 300, T0 + 500 * STEP, T0 + 520 * STEP
        lossy.lost_threads = 2
        lossy.lost_tids[0], lossy.lost_tids[1] = WAKER, WAKEE
        spill.write(bytes(lossy))
        # More threads than a batch names: the window covers every thread.
        lossy.lost, lossy.lost_from_ns, lossy.lost_to_ns = 28, T0 + 600 * STEP, T0 + 601 * STEP
        lossy.lost_threads = layout.LOST_TIDS + 1
        spill.write(bytes(lossy))
        records = list(interval_records(tracer.events(), stacks))
        losses = tracer.losses
    lines = [json_line(r) for r in records] + [json_line(r) for r in losses]
    lines.append(json_line(summary_record(
        intervals=len(records), futex_waits=sum(1 for r in records if r["futex"]), missed_stacks=0,
        lost_records=328, lost_intervals=0, lost_futex_calls=0, target_exited=False,
        stack_every=8, sampled_intervals=1)))
    return "".join(lines)


def classes_text():
    return json.dumps({"commands": [futex.COMMANDS[c] for c in sorted(futex.COMMANDS)],
                       "wait": list(futex.WAITS), "wake": list(futex.WAKES)}, indent=2) + "\n"


def check_or_write(path, text):
    if os.environ.get("OFFWAKE_WRITE_FIXTURE") == "1":
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    with open(path) as f:
        committed = f.read()
    assert committed == text, ("%s is not what offwake's code writes now; regenerate it: "
                               "OFFWAKE_WRITE_FIXTURE=1 /usr/bin/python3 -m pytest %s" % (path, __file__))


def test_the_analyzers_fixture_is_what_offwake_writes():
    check_or_write(FIXTURE, fixture_text())


def test_a_futex_end_in_the_intervals_record_writes_what_a_record_of_its_own_does():
    assert fixture_text(folded=True) == fixture_text()


def test_the_futex_classes_fixture_is_futex_py():
    check_or_write(CLASSES, classes_text())


def test_the_fixture_covers_every_record_shape():
    rows = [json.loads(line) for line in fixture_text().splitlines()]
    intervals = [r for r in rows if "tid" in r]
    assert {r["futex"]["cmd"] for r in intervals if r["futex"]} == set(futex.COMMANDS.values())
    assert {r["waker_futex"]["cmd"] for r in intervals if r["waker_futex"]} == set(futex.COMMANDS.values())
    assert any(r["futex"] and r["futex"]["exit_ns"] for r in intervals)
    assert any(r["state"] == "R+" and r["waker"] is None for r in intervals)
    assert any(r["stack_weight"] == 8 and r["stack"]["user"] for r in intervals)
    assert [list(r) for r in rows[len(intervals):]] == [["lost"], ["lost"], ["summary"]]
    assert [r["lost"]["tids"] for r in rows[len(intervals):-1]] == [[WAKEE, WAKER], None]


def test_the_c_classes_are_generated_from_futex_py():
    text = futex.c_definitions()
    for fn, names in (("futex_wait_cmd", futex.WAITS), ("futex_wake_cmd", futex.WAKES)):
        body = text.split("int %s(u32 op) {" % fn, 1)[1].split("}", 1)[0]
        assert sorted(int(n) for n in re.findall(r"cmd == (\d+)", body)) == \
            sorted(futex.NUMBERS[n] for n in names)
    assert set(futex.REUSED_STACKS) <= set(futex.WAITS) | set(futex.WAKES)
    assert futex.command(256 | 128 | 9) == "FUTEX_WAIT_BITSET" and futex.is_wait(9 | 128)
    assert futex.is_wake(1) and not futex.is_wait(1) and not futex.is_wake(8)


def test_the_docs_name_every_field_of_an_interval():
    with open(DOCS) as f:
        docs = f.read()
    table = docs.split("## `--events FILE`", 1)[1].split("After the intervals", 1)[0]
    documented = set()
    for cell in re.findall(r"^\| (`[^|]+`) \|", table, re.M):
        for name in re.findall(r"`([a-z_.]+)`", cell):
            documented.add(name)
    record = json.loads(fixture_text().splitlines()[0])
    top = {name for name in documented if "." not in name}
    assert top == set(record)
    futex_fields = {name.split(".", 1)[1] for name in documented if name.startswith("futex.")}
    assert futex_fields == set(json.loads(fixture_text().splitlines()[0])["futex"])
