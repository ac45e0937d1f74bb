"""offwake.py for real, as root, where things go wrong: the tracer killed outright, two tracers on one
process, and records lost at a high switch rate. (A target that exits mid-trace:
test_integration.py's test_target_exit_ends_tracing.)"""
import glob
import os
import re
import shutil
import signal
import subprocess
import time

import pytest

from conftest import PYTHON, TOOL
from test_integration import bpf_ready, hopwake, read_events, read_losses, start_hopwake  # noqa: F401


def tracer_prog_ids(pid):
    """The ids of the BPF programs process pid holds a file descriptor of."""
    ids = set()
    for info in glob.glob("/proc/%d/fdinfo/*" % pid):
        try:
            with open(info) as f:
                for line in f:
                    if line.startswith("prog_id:"):
                        ids.add(int(line.split()[1]))
        except OSError:
            pass  # a descriptor closed while we looked
    return ids


def loaded_prog_ids():
    """The ids of every BPF program loaded: from bpftool where it is installed, else those any
    process holds a descriptor of (a tracepoint's program is held only through its perf event's fd,
    so a program no process holds is unloaded)."""
    if shutil.which("bpftool"):
        out = subprocess.run(["bpftool", "prog", "show"], capture_output=True, text=True,
                             timeout=60, check=True).stdout
        return {int(m.group(1)) for m in re.finditer(r"^(\d+): ", out, re.M)}
    ids = set()
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            ids |= tracer_prog_ids(int(pid))
    return ids


def start_tracer(pid, events, *extra):
    """offwake.py on pid, returned once its start line says it traces (lines before it returned too)."""
    tracer = subprocess.Popen([PYTHON, TOOL, "-p", str(pid), "--events", str(events), *extra],
                              stderr=subprocess.PIPE, text=True)
    before = []
    while True:
        line = tracer.stderr.readline()
        assert line, "tracer ended before tracing: %s" % "".join(before)
        if "Ctrl-C to end." in line:
            return tracer, before
        before.append(line)


def test_sigkill_leaves_no_program_attached(hopwake, tmp_path):
    events = tmp_path / "off.jsonl"
    tracer, _ = start_tracer(hopwake, events)
    try:
        ours = tracer_prog_ids(tracer.pid)
        # One program per tracepoint: the sched_switch, sched_waking, sched_wakeup,
        # sched_process_exit and two futex syscall programs.
        assert len(ours) >= 6, ours
        assert ours <= loaded_prog_ids()
        time.sleep(0.5)
        tracer.kill()
        tracer.wait(timeout=30)
    finally:
        if tracer.poll() is None:
            tracer.kill()
            tracer.wait()
    # The kernel frees the programs once the last descriptor of each goes, after an RCU grace
    # period: wait for it rather than for a fixed time.
    deadline = time.monotonic() + 30
    while ours & loaded_prog_ids() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not ours & loaded_prog_ids(), "still loaded after SIGKILL: %s" % sorted(ours & loaded_prog_ids())
    # The records' temporary file had no name: nothing is left beside the outputs.
    assert os.listdir(tmp_path) == ["off.jsonl"]
    # The output, created at the start, is empty: no summary line tells a cut file from a whole one.
    assert events.read_text() == ""

    # A new tracer starts at once and works.
    again = tmp_path / "again.jsonl"
    result = subprocess.run([PYTHON, TOOL, "-p", str(hopwake), "--events", str(again),
                             "--duration", "1.5"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    records, summary = read_events(again)
    assert any(r["comm"] == "hop-waiter" for r in records), result.stderr
    assert summary["lost_records"] == 0


def test_two_tracers_on_one_process_each_get_every_interval(hopwake, tmp_path):
    # Each tracer loads its own programs and maps (nothing is pinned or shared), so both trace in
    # full; the target pays for both.
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    a, _ = start_tracer(hopwake, first)
    b, _ = start_tracer(hopwake, second)
    try:
        time.sleep(2)
        for t in (a, b):
            t.send_signal(signal.SIGTERM)
        errs = [t.communicate(timeout=120)[1] for t in (a, b)]
    finally:
        for t in (a, b):
            if t.poll() is None:
                t.kill()
                t.wait()
    assert a.returncode == 0, errs[0]
    assert b.returncode == 0, errs[1]
    woken = []
    for path, err in zip((first, second), errs):
        assert "lost 0 events" in err, err
        records, summary = read_events(path)
        assert summary["lost_records"] == summary["lost_intervals"] == 0
        # hop-waiter's 20 ms waits, told by length alone: a waker is left out by a rare race
        # between CPUs, which need not go the same way for both tracers' programs.
        woken.append(sorted((r["off_ns"], r["on_ns"]) for r in records
                            if r["comm"] == "hop-waiter" and r["offcpu_ns"] >= 10_000_000))
    assert woken[0] and woken[1], errs
    # While both traced, each saw the same waits. Each program reads the clock itself, so the two
    # records of one wait differ by a little; the waits are 20 ms apart. The window where both were
    # attached is cut by 50 ms at each end, clear of the attaching and detaching.
    start = max(w[0][0] for w in woken) + 50_000_000
    end = min(w[-1][1] for w in woken) - 50_000_000
    common = [[w for w in ws if start <= w[0] and w[1] <= end] for ws in woken]
    assert len(common[0]) >= 10, (len(woken[0]), len(woken[1]), errs)
    assert len(common[0]) == len(common[1]), (len(common[0]), len(common[1]))
    for x, y in zip(*common):
        assert abs(x[0] - y[0]) < 1_000_000 and abs(x[1] - y[1]) < 1_000_000, (x, y)


def test_lost_records_are_counted_and_marked_in_the_file(bpf_ready, tmp_path):
    # A ping-pong: HopWake with no delay hands a future back and forth as fast as its threads can
    # switch. A ring buffer of one page cannot hold a batch (19.5 KB), so every full batch is lost
    # however fast the tracer drains: only what is left in each CPU's batch at the end arrives.
    proc, pid = start_hopwake(0, delay_ms=0)
    events = tmp_path / "off.jsonl"
    try:
        started = time.monotonic_ns()  # CLOCK_MONOTONIC, the records' clock
        result = subprocess.run([PYTHON, TOOL, "-p", str(pid), "--events", str(events),
                                 "--duration", "2", "--buffer-pages", "1", "--stacks", "none"],
                                capture_output=True, text=True, timeout=120)
        ended = time.monotonic_ns()
    finally:
        proc.kill()
        proc.wait()
    assert result.returncode == 0, result.stderr
    assert "warning: --buffer-pages 1 holds no batch" in result.stderr, result.stderr
    m = re.search(r"lost (\d+) events \(ring buffer reservation failed\)", result.stderr)
    assert m, result.stderr
    lost = int(m.group(1))
    assert lost >= 128, result.stderr  # a whole batch at least
    assert "warning: events were lost; the outputs are incomplete" in result.stderr
    records, summary = read_events(events)
    assert summary["lost_records"] == lost
    # At most one batch per CPU reaches the file.
    assert len(records) <= 128 * os.cpu_count()
    # No batch got through, so each CPU that lost any carries one window, in its last batch, that
    # holds every record it lost: together they count every lost record, within the trace.
    losses = read_losses(events)
    assert 1 <= len(losses) <= os.cpu_count(), losses
    assert sum(w["records"] for w in losses) == lost
    for w in losses:
        assert started < w["from_ns"] <= w["to_ns"] < ended, (started, w, ended)
    # The intervals that arrived were added after every loss of their CPU; the last loss is at most
    # a batch's age (100 ms) before the end of tracing, or the batch would have been sent (and lost).
    assert max(w["to_ns"] for w in losses) >= min(r["on_ns"] for r in records) - 200_000_000


def cpu_nanos(pid, tid):
    """The CPU time thread tid of process pid has had so far (schedstat's first field)."""
    with open("/proc/%d/task/%d/schedstat" % (pid, tid)) as f:
        return int(f.read().split()[0])


def thread_ids(pid, names):
    """{name: tid} of the threads of process pid with these names."""
    found = {}
    for tid in os.listdir("/proc/%d/task" % pid):
        with open("/proc/%d/task/%s/comm" % (pid, tid)) as f:
            name = f.read().strip()
        if name in names:
            found[name] = int(tid)
    assert sorted(found) == sorted(names), found
    return found


def covered(start, end, windows):
    """How much of [start, end] the windows (sorted, merged (from, to) pairs) cover."""
    return sum(max(0, min(end, to) - max(start, frm)) for frm, to in windows)


def merged(windows):
    out = []
    for frm, to in sorted(windows):
        if out and frm <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], to))
        else:
            out.append((frm, to))
    return out


def test_loss_windows_hold_the_lost_intervals(bpf_ready, tmp_path):
    # A ring buffer of 8 pages (32 KiB) holds one batch, and the tracer is stopped (SIGSTOP) three
    # times for 200 ms: the ping-pong fills a batch in a few ms, so each stop loses a stretch of
    # records, between stretches that the drain (woken at every batch) gets through.
    # Between two recorded off-CPU intervals of one thread, the thread was on CPU except in
    # intervals that were lost; if the loss windows hold every lost interval, what they leave of
    # those gaps is on-CPU time: over a stretch of the trace, at most the CPU time the thread had
    # in it (schedstat). The windows are the thread's own: those that name it (or every thread).
    proc, pid = start_hopwake(0, delay_ms=0)
    events = tmp_path / "off.jsonl"
    try:
        tids = thread_ids(pid, ["hop-waiter", "hop-waker"])
        tracer, _ = start_tracer(pid, events, "--duration", "3", "--buffer-pages", "8",
                                 "--stacks", "none")
        # The stretch: from the start line (attached) to 1.5 s later, well before the end.
        cpu_before = {n: cpu_nanos(pid, t) for n, t in tids.items()}
        start = time.monotonic_ns()  # CLOCK_MONOTONIC, the records' clock
        for _ in range(3):
            time.sleep(0.2)
            os.kill(tracer.pid, signal.SIGSTOP)
            time.sleep(0.2)
            os.kill(tracer.pid, signal.SIGCONT)
        time.sleep(0.3)
        end = time.monotonic_ns()
        cpu = {n: cpu_nanos(pid, t) - cpu_before[n] for n, t in tids.items()}
        _, err = tracer.communicate(timeout=120)
        alive = {int(t) for t in os.listdir("/proc/%d/task" % pid)}
    finally:
        proc.kill()
        proc.wait()
    assert tracer.returncode == 0, err
    records, summary = read_events(events)
    losses = read_losses(events)
    assert summary["lost_records"] > 0 and len(records) > 1000, (summary, len(records))
    assert sum(w["records"] for w in losses) == summary["lost_records"]
    assert len(losses) > os.cpu_count(), losses  # losses on one CPU between batches that got through
    # Each window names the threads whose records it lost (or None: more than a batch names): the
    # process's threads, among them the two that switch the most. The gaps of a thread below are
    # checked against its own windows only, so a window that failed to name a thread it lost
    # records of would leave that thread's lost intervals uncovered, and the check would fail.
    seen = {r["tid"] for r in records} | alive
    named = [w for w in losses if w["tids"] is not None]
    assert named, losses
    for w in named:
        assert w["tids"] == sorted(set(w["tids"])) and set(w["tids"]) <= seen | set(tids.values()), w
    for tid in tids.values():
        assert any(tid in w["tids"] for w in named), (tid, losses)
    for name, tid in tids.items():
        windows = merged((w["from_ns"], w["to_ns"]) for w in losses
                         if w["tids"] is None or tid in w["tids"])
        mine = sorted((r["off_ns"], r["on_ns"]) for r in records if r["tid"] == tid)
        gaps = [(max(a[1], start), min(b[0], end)) for a, b in zip(mine, mine[1:])]
        gaps = [(a, b) for a, b in gaps if a < b]
        total = sum(b - a for a, b in gaps)
        left = sum(b - a - covered(a, b, windows) for a, b in gaps)
        # The check can fail: the gaps hold off-CPU time too, in the intervals that were lost.
        assert total > cpu[name], (name, total, cpu[name])
        assert left <= cpu[name], (name, left, cpu[name], total)
